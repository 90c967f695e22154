package org.jpir.datasets.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The contract every jpir command line keeps, checkable on any picocli root: each command and
 * subcommand rejects an unknown option with exit code 2 and a message naming it. Used by each
 * module's tests; parsing only, no command's work ever runs.
 */
public final class CliContract {
  private CliContract() {}

  /** A command reached from {@code root} by the subcommand names {@code path}; shown by name. */
  public record Command(String name, Supplier<CommandLine> root, List<String> path) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** What parsing {@code args} gave: picocli's exit code and what it wrote to stderr. */
  private record Outcome(List<String> args, int exitCode, String err) {}

  /** Every command of every root (the roots first, then their subcommands, depth first). */
  public static List<Command> walk(List<Supplier<CommandLine>> roots) {
    List<Command> all = new ArrayList<>();
    for (Supplier<CommandLine> root : roots) {
      walk(root, root.get(), new ArrayList<>(), all);
    }
    return all;
  }

  private static void walk(Supplier<CommandLine> root, CommandLine cl, List<String> path,
      List<Command> all) {
    all.add(new Command(cl.getCommandSpec().qualifiedName(), root, List.copyOf(path)));
    for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
      List<String> p = new ArrayList<>(path);
      p.add(sub.getKey());
      walk(root, sub.getValue(), p, all);
    }
  }

  /**
   * Parses {@code <path> <option> <required options and parameters>} on a fresh root, with
   * placeholder values for what is required (by parameter label from {@code values}, else by
   * type), so that {@code option} is the only problem; the execution strategy returns 0 without
   * running anything.
   */
  private static Outcome parse(Command c, String option, Map<String, String> values) {
    CommandLine cl = c.root().get();
    CommandLine sub = cl;
    for (String p : c.path()) {
      sub = sub.getSubcommands().get(p);
    }
    List<String> args = new ArrayList<>(c.path());
    args.add(option);
    args.addAll(required(sub.getCommandSpec(), values));
    StringWriter err = new StringWriter();
    int rc = cl.setErr(new PrintWriter(err)).setOut(new PrintWriter(new StringWriter()))
        .setExecutionStrategy(parsed -> 0).execute(args.toArray(new String[0]));
    return new Outcome(List.copyOf(args), rc, err.toString());
  }

  /**
   * Null when command {@code c}, given {@code --no-such-option} (and its required arguments),
   * exits 2 naming the option on stderr; else what it did instead, for a test's failure message.
   */
  public static String unknownOptionViolation(Command c, Map<String, String> values) {
    Outcome o = parse(c, "--no-such-option", values);
    boolean ok = o.exitCode() == 2 && o.err().contains("Unknown option: '--no-such-option'");
    return ok ? null : c + " " + o.args() + ": exit " + o.exitCode() + ", stderr: " + o.err();
  }

  private static List<String> required(CommandSpec spec, Map<String, String> values) {
    List<String> args = new ArrayList<>();
    for (ArgSpec a : spec.requiredArgs()) {
      if (a instanceof OptionSpec o) {
        args.add(o.longestName());
        if (o.arity().max() > 0) {
          args.add(placeholder(a, values));
        }
      }
    }
    for (ArgSpec a : spec.positionalParameters()) {
      for (int i = 0; i < a.arity().min(); i++) {
        args.add(placeholder(a, values));
      }
    }
    return args;
  }

  private static String placeholder(ArgSpec a, Map<String, String> values) {
    if (values.containsKey(a.paramLabel())) {
      return values.get(a.paramLabel());
    }
    Class<?> type = a.type().isArray() || Collection.class.isAssignableFrom(a.type())
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
