package org.jpir.spark.bench;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jpir.datasets.cli.CliContract;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every command and subcommand of the examples module (demos, {@code ./pir info}, harnesses), found
 * by walking {@link CommandLine#getSubcommands()} from each root, rejects {@code --no-such-option}:
 * exit code 2 and a message naming it on stderr. Each is given its required options and parameters
 * (placeholder values), so the unknown option is the only problem; the commands' work never runs
 * (the execution strategy only reports that parsing passed).
 */
class UnknownOptionTest {
  /** The command lines of this module, each built fresh. */
  static final List<Supplier<CommandLine>> ROOTS = List.of(
      () -> new CommandLine(org.jpir.core.demo.Info.class),
      () -> new CommandLine(org.jpir.core.demo.LocalDemo.class),
      () -> new CommandLine(org.jpir.core.demo.CompactDemo.class),
      () -> new CommandLine(org.jpir.core.demo.SizeReport.class),
      () -> new CommandLine(org.jpir.core.demo.CompactBudget.class),
      () -> new CommandLine(org.jpir.datasets.bench.CuckooStats.class),
      () -> new CommandLine(org.jpir.datasets.bench.ImportBench.class),
      () -> new CommandLine(CostModel.class),
      () -> new CommandLine(SparkOverheadBench.Cli.class),
      () -> new CommandLine(UpdateBench.class),
      () -> new CommandLine(PlacementRecovery.class));

  /** Values for parameters whose converter refuses a placeholder, by label (none here). */
  static final Map<String, String> VALUES = Map.of();

  static Stream<CliContract.Command> commands() {
    return CliContract.walk(ROOTS).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void rejectsAnUnknownOptionWithExitCode2(CliContract.Command c) {
    assertNull(CliContract.unknownOptionViolation(c, VALUES));
  }
}
