package org.jpir.bench;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.vmp.JvmOptions;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Where SIMD helps on the JVM, decomposed like the second seed paper. The same kernels
 * run in forks (fresh JVMs, {@link SimdFork}) that differ only in JVM arguments appended to the
 * project's options ({@link JvmOptions}): interpreter only, C1 only, C2 without
 * auto-vectorization (SuperWord) on the scalar reference, C2 on the scalar reference, and the
 * Vector API kernels, the last two also on Java 17. {@code run} measures and writes one JMH JSON
 * file per (variant, job, fork) plus {@code env.json} into a raw directory, then renders the
 * report; {@code report <raw-dir>} regenerates the report (markdown plus PNG plots) from that
 * directory alone.
 *
 * <p>Observations: JMH {@code AverageTime} with many short iterations; every iteration's mean
 * time is one observation (see the report's method section for why not {@code SampleTime}).
 *
 * <pre>
 * SimdStudy run [--profile full|reduced] [--raw DIR] [--report FILE] [--jdk17 HOME] [--jdk25 HOME]
 *               [--variants a,b,...] [--jobs poly,vmp,pir,vmp-large,machine] [--deadline-min M]
 *               [--reuse EARLIER_RAW_DIR:job,job]
 * SimdStudy report RAW_DIR [--report FILE]
 * </pre>
 */
public final class SimdStudy {
  static final String DEFAULT_JDK17 = "/usr/lib/jvm/java-17-openjdk-amd64";
  static final String DEFAULT_JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64";
  static final Path RESULTS = Path.of("benchmarks", "results", "simd");
  static final Path DEFAULT_REPORT = Path.of("benchmarks", "SIMD-REPORT.md");

  /** One measured configuration: a JDK and the JVM arguments appended to the project's. */
  record Variant(String name, int jdk, List<String> args, String meaning) {}

  static final List<Variant> VARIANTS = List.of(
      new Variant("interp", 25, List.of("-Xint", "-Djpir.kernels=ref"),
          "interpreter only, scalar reference"),
      new Variant("c1", 25, List.of("-XX:TieredStopAtLevel=1", "-Djpir.kernels=ref"),
          "C1 only, scalar reference"),
      new Variant("c2-nosw", 25, List.of("-XX:-UseSuperWord", "-Djpir.kernels=ref"),
          "C2, auto-vectorization off, scalar reference"),
      new Variant("c2", 25, List.of("-Djpir.kernels=ref"), "C2 default, scalar reference"),
      new Variant("panama", 25, List.of("-Djpir.kernels=panama"), "C2, Vector API kernels"),
      new Variant("c2-jdk17", 17, List.of("-Djpir.kernels=ref"),
          "Java 17, C2 default, scalar reference"),
      new Variant("panama-jdk17", 17, List.of("-Djpir.kernels=panama"),
          "Java 17, C2, Vector API kernels"));

  /**
   * The order variants run in inside each fork round (the machine ceilings run once, first): the
   * Java 25 comparisons first, so that a round cut short keeps the most important data.
   */
  static final List<String> RUN_ORDER = List.of("machine", "panama", "c2", "c2-nosw", "c1",
      "panama-jdk17", "c2-jdk17", "interp");

  /**
   * One job: the benchmark points each variant measures, forks of it, and its warmup. Every
   * fork of every variant is one fresh JVM ({@link SimdFork}) running all the job's points.
   */
  record Job(String name, int forks, int prewarmPasses, int prewarmIterations,
      int warmupIterations, int warmupMs, Map<String, List<SimdFork.Point>> points) {}

  /** How much to measure: the jobs in run order. */
  record Profile(String name, String heap, List<Job> jobs) {}

  private SimdStudy() {}

  static final String POLY = "org.jpir.bench.SimdPolyBench.";
  static final String VMP = "org.jpir.bench.SimdVmpBench.";
  static final String PIR = "org.jpir.bench.SimdPirBench.";
  static final String MACHINE = "\\.MachineBench\\.";
  static final List<String> POLY_OPS = List.of("fft", "ifft", "fromZnx", "toZnx", "reim4Extract",
      "normalize");
  static final List<String> VMP_OPS = List.of("applyDftToDft", "applyPvecToDft", "multiColumn",
      "pmatPrepare", "pvecPrepare");
  static final List<String> PIR_OPS = List.of("externalProduct", "phase1", "phase2", "query");

  /** Points: every method of {@code prefix} in {@code methods} at every value of the param. */
  static List<SimdFork.Point> points(String prefix, List<String> methods, String param,
      List<String> values, int iterations, int iterationMs) {
    List<SimdFork.Point> out = new ArrayList<>();
    for (String m : methods) {
      for (String v : values) {
        out.add(new SimdFork.Point(prefix + m, param + "=" + v, iterations, iterationMs));
      }
    }
    return out;
  }

  /** The same points for every compiled variant; the interpreter gets {@code interp} (or none). */
  static Map<String, List<SimdFork.Point>> perVariant(List<SimdFork.Point> compiled,
      List<SimdFork.Point> interp) {
    Map<String, List<SimdFork.Point>> m = new LinkedHashMap<>();
    for (String v : RUN_ORDER) {
      if (v.equals("machine")) {
        continue;
      }
      List<SimdFork.Point> p = v.equals("interp") ? interp : compiled;
      if (!p.isEmpty()) {
        m.put(v, p);
      }
    }
    return m;
  }

  /**
   * The profiles. {@code full}: the study's bar (10 forks x 200 observations = 2000 per
   * comparison) for every operation at N 2048/4096/16384, the shapes 16384:15:30 and 4096:512:12
   * and a 1 MiB database, except the multi-column pass (one observation is one 8-column pass,
   * 20-250 ms: 10 forks of 20) and the 4096:4096:12 shape (1.5 GiB PMAT, 0.1-2 s a call: 10
   * forks of 5), whose 2000 calls in six variants would take about 1 and 6 hours more here;
   * the report marks every comparison below the bar. {@code reduced}: the
   * same points, 2 forks x 20 observations (4096:4096:12: 2 x 1).
   */
  static Profile profile(String name) {
    int forks;
    int obs;
    int obsLarge;
    int obsMulti;
    switch (name) {
      case "full" -> {
        forks = 10;
        obs = 200;
        obsLarge = 5;
        obsMulti = 20;
      }
      case "reduced" -> {
        forks = 2;
        obs = 20;
        obsLarge = 1;
        obsMulti = 5;
      }
      default -> throw new IllegalArgumentException("unknown profile '" + name
          + "' (full, reduced)");
    }
    List<Job> jobs = new ArrayList<>();
    jobs.add(new Job("poly", forks, 2, 3, 3, 50, perVariant(
        points(POLY, POLY_OPS, "n", List.of("2048", "4096", "16384"), obs, 1),
        points(POLY, POLY_OPS, "n", List.of("2048"), obs, 1))));
    jobs.add(new Job("pir", forks, 2, 3, 3, 50, perVariant(
        points(PIR, PIR_OPS, "mib", List.of("1"), obs, 1), List.of())));
    List<String> single = VMP_OPS.stream().filter(m -> !m.equals("multiColumn")).toList();
    List<SimdFork.Point> vmp = new ArrayList<>(points(VMP, single, "shape",
        List.of("16384:15:30", "4096:512:12"), obs, 1));
    vmp.addAll(points(VMP, List.of("multiColumn"), "shape", List.of("16384:15:30",
        "4096:512:12"), obsMulti, 1));
    jobs.add(new Job("vmp", forks, 2, 3, 3, 50, perVariant(vmp, List.of())));
    List<SimdFork.Point> large = points(VMP, List.of("applyDftToDft", "applyPvecToDft",
        "multiColumn"), "shape", List.of("4096:4096:12"), obsLarge, 1);
    jobs.add(new Job("vmp-large", forks, 1, 1, 1, 1, perVariant(large, List.of())));
    return new Profile(name, "8g", jobs);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new Cli()).execute(args));
  }

  /** {@code SimdStudy run|report}. */
  @Command(name = "SimdStudy", mixinStandardHelpOptions = true,
      versionProvider = JpirVersion.class, subcommands = {RunCmd.class, ReportCmd.class},
      description = "The SIMD study: fresh forks per point, then the"
      + " Markdown report.")
  static final class Cli implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand (run,"
          + " report)");
    }
  }

  @Command(name = "run", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Run a campaign, then write its report.")
  static final class RunCmd implements Callable<Integer> {
    @Option(names = "--profile", description = "full or reduced (default: ${DEFAULT-VALUE})")
    String profile = "full";

    @Option(names = "--raw", description = "raw result directory (default: a new one under"
        + " benchmarks/results/simd)")
    String raw;

    @Option(names = "--report", description = "the Markdown report to write")
    Path report = DEFAULT_REPORT;

    @Option(names = "--jdk17", description = "JDK 17 home")
    String jdk17;

    @Option(names = "--jdk25", description = "JDK 25 home")
    String jdk25;

    @Option(names = "--variants", description = "only these variants (comma-separated)")
    String variants;

    @Option(names = "--jobs", description = "only these jobs (comma-separated)")
    String jobs;

    @Option(names = "--deadline-min", description = "start no fork after this many minutes")
    String deadlineMin;

    @Option(names = "--reuse", description = "a raw directory whose finished jobs are reused")
    String reuse;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Map<String, String> opt = new LinkedHashMap<>();
      String[][] given = {{"profile", profile}, {"raw", raw}, {"jdk17", jdk17},
          {"jdk25", jdk25}, {"variants", variants}, {"jobs", jobs},
          {"deadline-min", deadlineMin}, {"reuse", reuse}};
      for (String[] kv : given) {
        if (kv[1] != null) {
          opt.put(kv[0], kv[1]);
        }
      }
      Path rawDir = SimdStudy.run(opt, "run " + String.join(" ",
          spec.commandLine().getParseResult().originalArgs()));
      SimdReport.write(rawDir, report);
      return 0;
    }
  }

  @Command(name = "report", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Write the report of a finished campaign.")
  static final class ReportCmd implements Callable<Integer> {
    @Parameters(paramLabel = "RAW_DIR", description = "the campaign's raw result directory")
    Path raw;

    @Option(names = "--report", description = "the Markdown report to write")
    Path report = DEFAULT_REPORT;

    @Override
    public Integer call() throws Exception {
      SimdReport.write(raw, report);
      return 0;
    }
  }

  static Path run(Map<String, String> opt, String command) throws Exception {
    Profile prof = profile(opt.getOrDefault("profile", "full"));
    String jdk17 = opt.getOrDefault("jdk17", DEFAULT_JDK17);
    String jdk25 = opt.getOrDefault("jdk25", DEFAULT_JDK25);
    List<String> only = opt.containsKey("variants")
        ? List.of(opt.get("variants").split(",")) : null;
    List<String> onlyJobs = opt.containsKey("jobs")
        ? List.of(opt.get("jobs").split(",")) : null;
    // no new fork starts after the deadline: a campaign cut short keeps whole fork rounds
    Instant deadline = opt.containsKey("deadline-min")
        ? Instant.now().plusSeconds(60L * Long.parseLong(opt.get("deadline-min"))) : null;
    String rev = Environment.gitRevision();
    String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
        .format(Instant.now());
    Path raw = Path.of(opt.getOrDefault("raw",
        RESULTS.resolve(stamp + "-" + prof.name() + "-" + rev.replace('+', '_')).toString()));
    Files.createDirectories(raw);
    JsonObject env = new JsonObject();
    env.addProperty("cpu", Environment.cpuModel());
    env.addProperty("cores", Runtime.getRuntime().availableProcessors());
    env.addProperty("hostJdk", Environment.jdk());
    env.addProperty("revision", rev);
    env.addProperty("started", Instant.now().toString());
    env.addProperty("profile", prof.name());
    env.addProperty("command", "SimdStudy " + command);
    env.addProperty("projectJvmOptions", JvmOptions.joined());
    StringBuilder jobText = new StringBuilder();
    List<String> reused = opt.containsKey("reuse") ? SimdReuse.reusedJobs(opt.get("reuse"))
        : List.of();
    for (Job j : prof.jobs()) {
      if (reused.contains(j.name())) {
        continue; // described by the run it came from (env "reused")
      }
      jobText.append(jobText.length() == 0 ? "" : "; ").append(String.format(Locale.ROOT,
          "%s: %d forks, pre-warm %d pass(es) of %d x 100 ms per point, then warmup %d x %d ms"
          + " per point", j.name(), j.forks(), j.prewarmPasses(), j.prewarmIterations(),
          j.warmupIterations(), j.warmupMs()));
    }
    env.addProperty("warmup", jobText.toString());
    env.addProperty("measurement", "JMH AverageTime iterations of at least 1 ms (one call when"
        + " the call is longer), points in a per-fork shuffled order");
    env.addProperty("heap", prof.heap());
    env.addProperty("perf", Environment.perfStatus());
    long l3 = Environment.l3Bytes();
    if (l3 > 0) {
      env.addProperty("l3Bytes", l3);
    }
    env.addProperty("fmaChains", MachineBench.CHAINS);
    JsonObject variants = new JsonObject();
    for (Variant v : VARIANTS) {
      JsonObject o = new JsonObject();
      o.addProperty("jdkHome", v.jdk() == 17 ? jdk17 : jdk25);
      o.addProperty("args", String.join(" ", v.args()));
      o.addProperty("meaning", v.meaning());
      variants.add(v.name(), o);
    }
    env.add("variants", variants);
    Path envFile = raw.resolve("env.json");
    writeJson(envFile, env);
    Instant t0 = Instant.now();
    JsonArray failures = new JsonArray();
    JsonObject results = new JsonObject();
    if (opt.containsKey("reuse")) {
      env.add("reused", SimdReuse.reuse(opt.get("reuse"), raw));
      if (reused.contains("machine")) { // the ceilings were measured by the earlier run's loop
        String from = opt.get("reuse");
        env.addProperty("fmaChains", SimdData.fmaChains(JsonParser.parseString(Files.readString(
            Path.of(from.substring(0, from.lastIndexOf(':'))).resolve("env.json")))
            .getAsJsonObject()));
      }
      writeJson(envFile, env);
    }

    if (onlyJobs == null || onlyJobs.contains("machine")) {
      Path out = raw.resolve("machine__machine.json");
      List<String> jvm = new ArrayList<>(JvmOptions.list());
      jvm.add("-Xms" + prof.heap());
      jvm.add("-Xmx" + prof.heap());
      ChainedOptionsBuilder ob = new OptionsBuilder().include(MACHINE).forks(3)
          .jvm(Path.of(jdk25, "bin", "java").toString())
          .jvmArgs(jvm.toArray(new String[0])).shouldFailOnError(false)
          .resultFormat(ResultFormatType.JSON).result(out.toString());
      System.out.println("simd: machine ceilings");
      try {
        new Runner(ob.build()).run();
      } catch (Exception ex) {
        failures.add("machine: " + ex);
      }
    }
    String classPath = System.getProperty("java.class.path");
    for (Job job : prof.jobs()) {
      if (onlyJobs != null && !onlyJobs.contains(job.name())) {
        continue;
      }
      // fork rounds: every variant once per round, so that drift of the machine over the
      // campaign spreads over all variants instead of favouring the ones run first
      for (int fork = 1; fork <= job.forks(); fork++) {
        if (deadline != null && Instant.now().isAfter(deadline)) {
          failures.add(job.name() + ": stopped before fork " + fork + " (deadline)");
          break;
        }
        for (String vname : RUN_ORDER) {
          List<SimdFork.Point> pts = job.points().get(vname);
          if (pts == null || (only != null && !only.contains(vname))) {
            continue;
          }
          Variant v = VARIANTS.stream().filter(x -> x.name().equals(vname)).findFirst()
              .orElseThrow();
          Path out = raw.resolve(String.format(Locale.ROOT, "%s__%s__f%02d.json", vname,
              job.name(), fork));
          List<String> cmd = new ArrayList<>();
          cmd.add(Path.of(v.jdk() == 17 ? jdk17 : jdk25, "bin", "java").toString());
          cmd.addAll(JvmOptions.list());
          cmd.add("-Xms" + prof.heap());
          cmd.add("-Xmx" + prof.heap());
          cmd.addAll(v.args());
          cmd.add("-cp");
          cmd.add(classPath);
          cmd.add(SimdFork.class.getName());
          cmd.addAll(List.of("--out", out.toString(), "--fork", Integer.toString(fork),
              "--warmup", Integer.toString(job.warmupIterations()), "--warmup-ms",
              Integer.toString(job.warmupMs()), "--prewarm",
              Integer.toString(job.prewarmIterations()), "--prewarm-passes",
              Integer.toString(job.prewarmPasses())));
          pts.forEach(p -> cmd.add(p.format()));
          System.out.printf("simd: %s fork %d/%d %s (%s) after %ds%n", job.name(), fork,
              job.forks(), vname, String.join(" ", v.args()),
              Duration.between(t0, Instant.now()).toSeconds());
          Path log = raw.resolve("logs").resolve(out.getFileName().toString()
              .replace(".json", ".log"));
          Files.createDirectories(log.getParent());
          Process proc = new ProcessBuilder(cmd).redirectErrorStream(true)
              .redirectOutput(log.toFile()).start();
          boolean done = proc.waitFor(60, TimeUnit.MINUTES);
          if (!done) {
            proc.destroyForcibly();
          }
          if (!done || proc.exitValue() != 0) {
            String why = vname + " / " + job.name() + " fork " + fork + ": "
                + (done ? "exit " + proc.exitValue() : "timed out") + " (log " + log + ")";
            System.out.println("simd: FAILED " + why);
            failures.add(why);
          }
          results.addProperty(vname + " / " + job.name(), fork);
          // after every fork, so that a campaign cut short still describes what it holds
          env.add("failures", failures);
          env.add("forksPerJob", results);
          env.addProperty("finished", Instant.now().toString());
          env.addProperty("seconds", Duration.between(t0, Instant.now()).toSeconds());
          writeJson(envFile, env);
        }
      }
    }
    System.out.println("simd: raw results in " + raw);
    return raw;
  }

  private static void writeJson(Path file, JsonObject o) throws IOException {
    Files.writeString(file, new GsonBuilder().setPrettyPrinting().create().toJson(o),
        StandardCharsets.UTF_8);
  }
}
