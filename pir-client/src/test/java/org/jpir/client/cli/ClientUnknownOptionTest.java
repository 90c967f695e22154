package org.jpir.client.cli;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jpir.client.tools.HostileQueries;
import org.jpir.datasets.cli.CliContract;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every command of {@code pir client} ({@link ClientCli}) and {@link HostileQueries}, found by
 * walking the subcommands from each root, rejects {@code --no-such-option} with exit code 2 and a
 * message naming it; the commands' work never runs.
 */
class ClientUnknownOptionTest {
  /** The command lines of this module, each built fresh. */
  static final List<Supplier<CommandLine>> ROOTS = List.of(ClientCli::commandLine,
      () -> new CommandLine(HostileQueries.Cli.class));

  static Stream<CliContract.Command> commands() {
    return CliContract.walk(ROOTS).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void rejectsAnUnknownOptionWithExitCode2(CliContract.Command c) {
    assertNull(CliContract.unknownOptionViolation(c, Map.of()));
  }
}
