package org.jpir.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.vmp.CpuInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Fork-to-fork spread of one workload over fresh JVMs, with the machine's drift taken out: a
 * control JVM stays up for the whole run, and each fresh JVM (a "fork") takes turns with it, one
 * slot at a time, so that the two never run at once and each fork's time is divided by the
 * control's in the neighbouring slots. A machine shared with other work drifts by more than the
 * 10% target within minutes (2026-12-04, Zen 5: four resident JVMs in turns all went from 254 to
 * 292 ms per pass within 5 minutes, within 4% of each other at every turn), so forks timed one
 * after the other measure the drift as much as the JVMs.
 *
 * <p>Per fork: its median time, and the median over its turns of (fork median in the slot) /
 * (median of the control's slots before and after it). The spread is {@code max/min - 1} of the
 * per-fork ratios (and, for comparison, of the raw medians). The first call of every slot is
 * dropped (caches cold after the other JVM's slot). Children are this JVM's command line (same
 * java, options and class path) running {@link WorkloadChild}; {@code --fork-jvm-arg} adds
 * options to the forks only, which turns the ratios into an A/B of those options.
 */
@Command(name = "ForkRotation", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class,
    description = "Fork-to-fork spread of a workload, each fresh JVM timed in turns with one"
        + " control JVM.")
public final class ForkRotation implements Callable<Integer> {
  @Option(names = "--workload", required = true,
      description = "phase1:<mib> (PirBench.phase1), multi:N:nrows:ncols:columns (the database"
          + " pass), pvec:N:nrows:ncols (one apply), fft:N or ifft:N")
  String workload;

  @Option(names = "--forks", description = "fresh JVMs (default: ${DEFAULT-VALUE})")
  int forks = 10;

  @Option(names = "--turns", description = "turns of each fork with the control (default:"
      + " ${DEFAULT-VALUE})")
  int turns = 5;

  @Option(names = "--slot-ms", description = "milliseconds per slot (default: ${DEFAULT-VALUE})")
  long slotMs = 3000;

  @Option(names = "--out", description = "also write the report to this file")
  Path out;

  @Option(names = "--fork-jvm-arg", paramLabel = "ARG", description = "an extra JVM option for the"
      + " forks only (repeatable), e.g. -Djpir.vmp.readAhead=false: the ratios to the control are"
      + " then an A/B of that option with the drift taken out")
  List<String> forkArgs = new ArrayList<>();

  /** Entry point; options above. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new ForkRotation()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (forks < 2 || turns < 1 || slotMs < 1) {
      throw new CommandLine.ParameterException(new CommandLine(this),
          "--forks must be >= 2, --turns >= 1 and --slot-ms >= 1");
    }
    try {
      WorkloadChild.check(workload); // fail here, not in a child
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
    }
    List<String> header = new ArrayList<>();
    header.add("ForkRotation " + workload + ": " + forks + " forks x " + turns + " turns of "
        + slotMs + " ms with one control JVM" + (forkArgs.isEmpty() ? ""
            : "; forks only: " + String.join(" ", forkArgs)));
    header.add("CPU " + Environment.cpuModel() + "; " + CpuInfo.get().describe());
    header.add("JDK " + Environment.jdk() + ", revision " + Environment.gitRevision());
    header.forEach(System.out::println);
    List<Fork> results = new ArrayList<>();
    try (Child control = Child.start(workload, "control", List.of())) {
      for (int f = 0; f < forks; f++) {
        try (Child fork = Child.start(workload, "fork " + (f + 1), forkArgs)) {
          Fork r = new Fork(f + 1, fork.setupSeconds);
          for (int t = 0; t < turns; t++) {
            // control, fork, control: the fork's slot sits between two control slots
            double c0 = slotMedian(control.run(slotMs));
            double x = slotMedian(fork.run(slotMs));
            double c1 = slotMedian(control.run(slotMs));
            r.add(x, (c0 + c1) / 2);
          }
          results.add(r);
          System.out.println(r.line());
        }
      }
      control.exit();
    }
    List<String> report = new ArrayList<>(header);
    report.add("");
    report.add("| fork | setup s | median ms | control ms | ratio to control | q1 | q3 |");
    report.add("|---:|---:|---:|---:|---:|---:|---:|");
    for (Fork r : results) {
      report.add(r.row());
    }
    Spread s = spread(results);
    report.add("");
    report.add(String.format(Locale.ROOT, "spread of the ratios to the control (max/min - 1):"
        + " %.1f%% (forks %d and %d); of the raw medians: %.1f%%; control's own range over the"
        + " run: %.1f%%", 100 * s.ratio(), s.fastest(), s.slowest(), 100 * s.raw(),
        100 * s.control()));
    report.forEach(System.out::println);
    if (out != null) {
      Files.write(out, report, StandardCharsets.UTF_8);
    }
    return 0;
  }

  /** Median of a slot's call times without its first call (cold after the other JVM). */
  static double slotMedian(double[] times) {
    if (times.length == 0) {
      throw new IllegalArgumentException("a slot with no calls");
    }
    if (times.length == 1) {
      return times[0];
    }
    double[] rest = new double[times.length - 1];
    System.arraycopy(times, 1, rest, 0, rest.length);
    return Stats.median(rest);
  }

  /** One fork's turns: its slot medians and the control's around each. */
  static final class Fork {
    final int index;
    final double setupSeconds;
    final List<double[]> turns = new ArrayList<>();

    Fork(int index, double setupSeconds) {
      this.index = index;
      this.setupSeconds = setupSeconds;
    }

    void add(double forkMs, double controlMs) {
      turns.add(new double[] {forkMs, controlMs});
    }

    double[] column(int k) {
      return turns.stream().mapToDouble(t -> t[k]).toArray();
    }

    double[] ratios() {
      return turns.stream().mapToDouble(t -> t[0] / t[1]).toArray();
    }

    double median() {
      return Stats.median(column(0));
    }

    double ratio() {
      return Stats.median(ratios());
    }

    String line() {
      return String.format(Locale.ROOT, "fork %d: setup %.1f s, median %.2f ms, control %.2f ms,"
          + " ratio %.3f", index, setupSeconds, median(), Stats.median(column(1)), ratio());
    }

    String row() {
      double[] r = ratios();
      return String.format(Locale.ROOT, "| %d | %.1f | %.2f | %.2f | %.3f | %.3f | %.3f |", index,
          setupSeconds, median(), Stats.median(column(1)), ratio(), Stats.quantile(r, 0.25),
          Stats.quantile(r, 0.75));
    }
  }

  /** Spreads (max/min - 1) of the forks' ratios, their raw medians and the control's slots. */
  record Spread(double ratio, int fastest, int slowest, double raw, double control) {}

  static Spread spread(List<Fork> forks) {
    if (forks.size() < 2) {
      throw new IllegalArgumentException("a spread needs at least two forks");
    }
    Fork lo = forks.get(0);
    Fork hi = lo;
    double rawMin = Double.MAX_VALUE;
    double rawMax = 0;
    double cMin = Double.MAX_VALUE;
    double cMax = 0;
    for (Fork f : forks) {
      if (f.ratio() < lo.ratio()) {
        lo = f;
      }
      if (f.ratio() > hi.ratio()) {
        hi = f;
      }
      rawMin = Math.min(rawMin, f.median());
      rawMax = Math.max(rawMax, f.median());
      for (double c : f.column(1)) {
        cMin = Math.min(cMin, c);
        cMax = Math.max(cMax, c);
      }
    }
    return new Spread(hi.ratio() / lo.ratio() - 1, lo.index, hi.index, rawMax / rawMin - 1,
        cMax / cMin - 1);
  }

  /** A child JVM running {@link WorkloadChild}, driven over its stdin and stdout. */
  static final class Child implements AutoCloseable {
    private final Process process;
    private final BufferedReader in;
    private final PrintWriter outLine;
    private final String name;
    final double setupSeconds;

    private Child(Process process, String name) throws IOException {
      this.process = process;
      this.name = name;
      this.in = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      this.outLine = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
      String ready = expect("READY");
      this.setupSeconds = Double.parseDouble(ready.substring("READY ".length()).trim());
    }

    /**
     * Starts this JVM's java with its own options (then {@code extra}) and class path on {@link
     * WorkloadChild}.
     */
    static Child start(String workload, String name, List<String> extra) throws IOException {
      List<String> cmd = new ArrayList<>();
      cmd.add(ProcessHandle.current().info().command().orElse("java"));
      cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
      cmd.addAll(extra);
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(WorkloadChild.class.getName());
      cmd.add(workload);
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      return new Child(p, name);
    }

    /** Runs the workload for at least ms milliseconds; the times of its calls in ms. */
    double[] run(long ms) throws IOException {
      outLine.println("RUN " + ms);
      String line = expect("TIMES");
      String[] f = line.substring("TIMES".length()).trim().split("\\s+");
      double[] t = new double[f.length];
      for (int i = 0; i < f.length; i++) {
        t[i] = Double.parseDouble(f[i]);
      }
      return t;
    }

    void exit() {
      outLine.println("EXIT");
    }

    /** The next line starting with prefix (other lines, e.g. the child's logs, are echoed). */
    private String expect(String prefix) throws IOException {
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith(prefix)) {
          return line;
        }
        System.out.println("  [" + name + "] " + line);
      }
      throw new IOException(name + " ended before '" + prefix + "' (exit "
          + (process.isAlive() ? "none yet" : process.exitValue()) + ")");
    }

    @Override
    public void close() throws InterruptedException {
      exit();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  /**
   * The child side: sets the workload up, prints {@code READY <setup seconds>}, then answers each
   * {@code RUN <ms>} line with {@code TIMES <ms> <ms> ..} (calls until ms have passed, at least
   * one) and ends at {@code EXIT} or end of input. Idle (blocked on stdin) between slots.
   */
  public static final class WorkloadChild {
    private WorkloadChild() {}

    /** Entry point: one argument, the workload. */
    public static void main(String[] args) throws IOException {
      PrintStream stdout = System.out;
      // the workload's own prints (setup summaries) go to stderr, not into the protocol
      System.setOut(System.err);
      long t0 = System.nanoTime();
      Callable<Object> op = make(args[0]);
      stdout.printf(Locale.ROOT, "READY %.3f%n", (System.nanoTime() - t0) / 1e9);
      stdout.flush();
      BufferedReader cmd = new BufferedReader(new InputStreamReader(System.in,
          StandardCharsets.UTF_8));
      Object sink = null;
      for (String line; (line = cmd.readLine()) != null && !line.equals("EXIT"); ) {
        if (!line.startsWith("RUN ")) {
          throw new IllegalArgumentException("unknown command '" + line + "'");
        }
        long ms = Long.parseLong(line.substring(4).trim());
        StringBuilder sb = new StringBuilder("TIMES");
        long start = System.nanoTime();
        long end = start + ms * 1_000_000L;
        long now = start;
        do {
          long a = now;
          try {
            sink = op.call();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          now = System.nanoTime();
          sb.append(' ').append(String.format(Locale.ROOT, "%.4f", (now - a) / 1e6));
        } while (now < end);
        stdout.println(sb);
        stdout.flush();
      }
      if (sink == null) {
        System.err.println("no calls were made");
      }
    }

    /**
     * Checks the form of a workload spec without setting anything up: {@code phase1:<mib>},
     * {@code multi:N:nrows:ncols:columns}, {@code pvec:N:nrows:ncols}, {@code fft:N} or {@code
     * ifft:N} (the last four as {@link KernelAb} takes them, Vector API kernels).
     */
    static void check(String spec) {
      String[] p = spec.split(":", -1);
      int want;
      switch (p[0]) {
        case "phase1":
        case "fft":
        case "ifft":
          want = 2;
          break;
        case "pvec":
          want = 4;
          break;
        case "multi":
          want = 5;
          break;
        default:
          want = -1;
      }
      boolean ok = p.length == want;
      for (int i = 1; ok && i < p.length; i++) {
        ok = p[i].matches("[1-9][0-9]{0,8}");
      }
      if (!ok) {
        throw new IllegalArgumentException("workload '" + spec + "' is not phase1:<mib>,"
            + " multi:N:nrows:ncols:columns, pvec:N:nrows:ncols, fft:N or ifft:N (positive"
            + " integers)");
      }
    }

    /** The workload named by spec, set up (PirBench's setup checks a decoded record). */
    static Callable<Object> make(String spec) {
      check(spec);
      String[] p = spec.split(":");
      if (p[0].equals("phase1")) {
        PirBench b = new PirBench();
        b.mib = Integer.parseInt(p[1]);
        b.batch = 1;
        b.setup();
        return b::phase1;
      }
      KernelAb.Op op = (KernelAb.Op) KernelAb.make(spec, "panama")[0];
      return op::run;
    }
  }
}
