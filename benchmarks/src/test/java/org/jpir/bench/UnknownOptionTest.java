package org.jpir.bench;

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
 * Every command and subcommand of the benchmarks module,  rejects {@code --no-such-option}: exit code 2 and a
 * message naming it on stderr. Each is given its required options and parameters (placeholder
 * values), so the unknown option is the only problem; the commands' work never runs (the execution
 * strategy only reports that parsing passed).
 */
class UnknownOptionTest {
  /** The command lines of this module, each built fresh. */
  static final List<Supplier<CommandLine>> ROOTS = List.of(
      () -> new CommandLine(BenchRunner.class),
      () -> new CommandLine(KernelAb.class),
      () -> new CommandLine(SimdFork.class),
      () -> new CommandLine(SimdStudy.Cli.class),
      () -> new CommandLine(Report.class),
      () -> new CommandLine(ScalingPlot.class),
      () -> new CommandLine(SlowJvmProbe.class),
      () -> new CommandLine(ForkRotation.class));

  /** Values for parameters whose converter refuses a placeholder, by parameter label. */
  static final Map<String, String> VALUES = Map.of("POINT", "Bench.method||1|1");

  static Stream<CliContract.Command> commands() {
    return CliContract.walk(ROOTS).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void rejectsAnUnknownOptionWithExitCode2(CliContract.Command c) {
    assertNull(CliContract.unknownOptionViolation(c, VALUES));
  }
}
