package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command and subcommand of the benchmarks module, found by walking {@link
 * CommandLine#getSubcommands()} from each root, rejects {@code --no-such-option}: exit code 2 and a
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
      () -> new CommandLine(SlowJvmProbe.class));

  /** Values for parameters whose converter refuses a placeholder, by parameter label. */
  static final Map<String, String> VALUES = Map.of("POINT", "Bench.method||1|1");

  static Stream<Arguments> commands() {
    List<Arguments> all = new ArrayList<>();
    for (Supplier<CommandLine> root : ROOTS) {
      walk(root, root.get(), new ArrayList<>(), all);
    }
    return all.stream();
  }

  private static void walk(Supplier<CommandLine> root, CommandLine cl, List<String> path,
      List<Arguments> all) {
    all.add(Arguments.of(cl.getCommandSpec().qualifiedName(), root, List.copyOf(path)));
    for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
      List<String> p = new ArrayList<>(path);
      p.add(sub.getKey());
      walk(root, sub.getValue(), p, all);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void rejectsAnUnknownOptionWithExitCode2(String name, Supplier<CommandLine> root,
      List<String> path) {
    CommandLine cl = root.get();
    CommandLine sub = cl;
    for (String p : path) {
      sub = sub.getSubcommands().get(p);
    }
    List<String> args = new ArrayList<>(path);
    args.add("--no-such-option");
    args.addAll(required(sub.getCommandSpec()));
    StringWriter err = new StringWriter();
    int rc = cl.setErr(new PrintWriter(err)).setOut(new PrintWriter(new StringWriter()))
        .setExecutionStrategy(parsed -> 0).execute(args.toArray(new String[0]));
    assertEquals(2, rc, name + " " + args + ": " + err);
    assertTrue(err.toString().contains("Unknown option: '--no-such-option'"),
        name + " " + args + ": " + err);
  }

  /** Placeholder values for the required options and parameters of {@code spec}. */
  static List<String> required(CommandSpec spec) {
    List<String> args = new ArrayList<>();
    for (ArgSpec a : spec.requiredArgs()) {
      if (a instanceof OptionSpec o) {
        args.add(o.longestName());
        if (o.arity().max() > 0) {
          args.add(placeholder(o));
        }
      }
    }
    for (ArgSpec a : spec.positionalParameters()) {
      for (int i = 0; i < a.arity().min(); i++) {
        args.add(placeholder(a));
      }
    }
    return args;
  }

  private static String placeholder(ArgSpec a) {
    if (VALUES.containsKey(a.paramLabel())) {
      return VALUES.get(a.paramLabel());
    }
    Class<?> type = a.type().isArray() || java.util.Collection.class.isAssignableFrom(a.type())
        ? a.auxiliaryTypes()[0] : a.type();
    if (type.isEnum()) {
      return type.getEnumConstants()[0].toString();
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true";
    }
    if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
      return "1";
    }
    return "x";
  }
}
