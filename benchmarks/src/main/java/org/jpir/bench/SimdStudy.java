package org.jpir.bench;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
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
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jpir.vmp.JvmOptions;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Issue 7: where SIMD helps on the JVM, decomposed like the second seed paper. The same kernels
 * run in JMH forks that differ only in JVM arguments appended to the project's options ({@link
 * JvmOptions}): interpreter only, C1 only, C2 without auto-vectorization (SuperWord) on the
 * scalar reference, C2 on the scalar reference, and the Vector API kernels, the last two also on
 * Java 17. {@code run} measures and writes one JMH JSON file per (variant, job) plus {@code
 * env.json} into a raw directory, then renders the report; {@code report <raw-dir>} regenerates
 * the report (markdown plus PNG plots) from that directory alone.
 *
 * <p>Observations: JMH {@code AverageTime} with many short iterations; every iteration's mean
 * time is one observation (see the report's method section for why not {@code SampleTime}).
 *
 * <pre>
 * SimdStudy run [--profile full|reduced] [--raw DIR] [--report FILE] [--jdk17 HOME] [--jdk25 HOME]
 *               [--variants a,b,...]
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
   * The order variants run in: the ceilings and the Java 25 comparisons first, so that a campaign
   * cut short keeps the most important data (each finished job is its own JSON file).
   */
  static final List<String> RUN_ORDER = List.of("machine", "panama", "c2", "c2-nosw", "c1",
      "panama-jdk17", "c2-jdk17", "interp");

  /** The order of the jobs; inside each, variants in {@link #RUN_ORDER}. */
  static final List<String> JOB_ORDER = List.of("machine", "fft", "poly", "vmp", "pir");

  /** One JMH run inside a variant: benchmark regex, parameter overrides, forks. */
  record Job(String name, String include, Map<String, String[]> params, int forks) {}

  /** How much to measure. */
  record Profile(String name, int warmupIterations, int warmupMs, int iterations, int iterationMs,
      String heap, Map<String, List<Job>> jobs) {}

  private SimdStudy() {}

  static final String FFT = "\\.SimdPolyBench\\.(fft|ifft)$";
  static final String POLY_OTHER = "\\.SimdPolyBench\\.(fromZnx|toZnx|reim4Extract|normalize)$";
  static final String POLY_ALL = "\\.SimdPolyBench\\.";
  static final String VMP = "\\.SimdVmpBench\\.";
  static final String PIR = "\\.SimdPirBench\\.";
  static final String MACHINE = "\\.MachineBench\\.";

  /** The profiles: {@code full} is the campaign, {@code reduced} fits ~15 minutes. */
  static Profile profile(String name) {
    Map<String, List<Job>> jobs = new LinkedHashMap<>();
    switch (name) {
      case "full": {
        String[] ns = {"2048", "4096", "16384"};
        String[] shapes = {"4096:512:12", "4096:4096:12", "16384:15:30"};
        for (Variant v : VARIANTS) {
          List<Job> j = new ArrayList<>();
          if (v.name().equals("interp")) {
            j.add(new Job("poly", POLY_ALL, Map.of("n", new String[] {"2048"}), 10));
          } else {
            j.add(new Job("poly", POLY_ALL, Map.of("n", ns), 10));
            j.add(new Job("vmp", VMP, Map.of("shape", shapes), 10));
            j.add(new Job("pir", PIR, Map.of("mib", new String[] {"16"}), 10));
          }
          jobs.put(v.name(), j);
        }
        jobs.put("machine", List.of(new Job("machine", MACHINE, Map.of(), 5)));
        return new Profile(name, 10, 200, 200, 10, "8g", jobs);
      }
      case "reduced": {
        for (Variant v : VARIANTS) {
          List<Job> j = new ArrayList<>();
          if (v.name().equals("interp")) {
            j.add(new Job("poly", POLY_ALL, Map.of("n", new String[] {"2048"}), 1));
          } else {
            j.add(new Job("fft", FFT, Map.of("n", new String[] {"2048", "4096", "16384"}), 2));
            j.add(new Job("poly", POLY_OTHER, Map.of("n", new String[] {"4096"}), 2));
            j.add(new Job("vmp", VMP, Map.of("shape", new String[] {"4096:512:12",
                "16384:15:30"}), 1));
            j.add(new Job("pir", PIR, Map.of("mib", new String[] {"8"}), 1));
          }
          jobs.put(v.name(), j);
        }
        jobs.put("machine", List.of(new Job("machine", MACHINE, Map.of(), 1)));
        return new Profile(name, 3, 150, 50, 10, "4g", jobs);
      }
      default:
        throw new IllegalArgumentException("unknown profile '" + name + "' (full, reduced)");
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("usage: SimdStudy run [--profile full|reduced] [--raw DIR]"
          + " [--report FILE] [--jdk17 HOME] [--jdk25 HOME] [--variants a,b]"
          + " | SimdStudy report RAW_DIR [--report FILE]");
    }
    Map<String, String> opt = new LinkedHashMap<>();
    String positional = null;
    for (int i = 1; i < args.length; i++) {
      if (args[i].startsWith("--")) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("option " + args[i] + " needs a value");
        }
        opt.put(args[i].substring(2), args[++i]);
      } else {
        positional = args[i];
      }
    }
    Path report = Path.of(opt.getOrDefault("report", DEFAULT_REPORT.toString()));
    switch (args[0]) {
      case "run":
        Path raw = run(opt, String.join(" ", args));
        SimdReport.write(raw, report);
        break;
      case "report":
        if (positional == null) {
          throw new IllegalArgumentException("usage: SimdStudy report RAW_DIR [--report FILE]");
        }
        SimdReport.write(Path.of(positional), report);
        break;
      default:
        throw new IllegalArgumentException("unknown command '" + args[0] + "' (run, report)");
    }
  }

  static Path run(Map<String, String> opt, String command) throws Exception {
    Profile prof = profile(opt.getOrDefault("profile", "full"));
    String jdk17 = opt.getOrDefault("jdk17", DEFAULT_JDK17);
    String jdk25 = opt.getOrDefault("jdk25", DEFAULT_JDK25);
    List<String> only = opt.containsKey("variants")
        ? List.of(opt.get("variants").split(",")) : null;
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
    env.addProperty("warmup", prof.warmupIterations() + " x " + prof.warmupMs() + " ms");
    env.addProperty("measurement", prof.iterations() + " x " + prof.iterationMs() + " ms");
    env.addProperty("heap", prof.heap());
    env.addProperty("perf", perfStatus());
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
    Files.writeString(envFile, new GsonBuilder().setPrettyPrinting().create().toJson(env),
        StandardCharsets.UTF_8);
    Instant t0 = Instant.now();
    JsonArray failures = new JsonArray();
    JsonObject results = new JsonObject();
    // job by job across the variants (all variants of the small operations first), so that a
    // campaign cut short still holds complete comparisons
    List<Map.Entry<String, Job>> plan = new ArrayList<>();
    for (String jobName : JOB_ORDER) {
      for (String vname : RUN_ORDER) {
        List<Job> jobList = prof.jobs().get(vname);
        if (jobList == null || (only != null && !only.contains(vname))) {
          continue;
        }
        jobList.stream().filter(j -> j.name().equals(jobName))
            .forEach(j -> plan.add(Map.entry(vname, j)));
      }
    }
    for (Map.Entry<String, Job> step : plan) {
      String vname = step.getKey();
      Job job = step.getValue();
      Variant v = VARIANTS.stream().filter(x -> x.name().equals(vname)).findFirst()
          .orElse(new Variant("machine", 25, List.of(), "machine ceilings"));
      {
        Path out = raw.resolve(vname + "__" + job.name() + ".json");
        List<String> jvm = new ArrayList<>(JvmOptions.list());
        jvm.add("-Xms" + prof.heap());
        jvm.add("-Xmx" + prof.heap());
        jvm.addAll(v.args());
        ChainedOptionsBuilder ob = new OptionsBuilder()
            .include(job.include())
            .forks(job.forks())
            .warmupIterations(prof.warmupIterations())
            .warmupTime(TimeValue.milliseconds(prof.warmupMs()))
            .measurementIterations(prof.iterations())
            .measurementTime(TimeValue.milliseconds(prof.iterationMs()))
            .jvm(Path.of(v.jdk() == 17 ? jdk17 : jdk25, "bin", "java").toString())
            .jvmArgs(jvm.toArray(new String[0])) // exactly these, not the host's own flags
            .shouldFailOnError(false) // a failing benchmark leaves a hole, not a lost job
            .resultFormat(ResultFormatType.JSON)
            .result(out.toString());
        job.params().forEach(ob::param);
        System.out.printf("simd: %s / %s (%s) after %ds%n", vname, job.name(),
            String.join(" ", v.args()), Duration.between(t0, Instant.now()).toSeconds());
        try {
          int got = new Runner(ob.build()).run().size();
          System.out.printf("simd: %s / %s gave %d results%n", vname, job.name(), got);
          results.addProperty(vname + " / " + job.name(), got);
        } catch (Exception ex) { // one failed job must not lose the others
          System.out.println("simd: FAILED " + vname + " / " + job.name() + ": " + ex);
          failures.add(vname + " / " + job.name() + ": " + ex);
        }
        // after every job, so that a campaign cut short still describes what it holds
        env.add("failures", failures);
        env.add("resultsPerJob", results);
        env.addProperty("finished", Instant.now().toString());
        env.addProperty("seconds", Duration.between(t0, Instant.now()).toSeconds());
        Files.writeString(envFile, new GsonBuilder().setPrettyPrinting().create().toJson(env),
            StandardCharsets.UTF_8);
      }
    }
    System.out.println("simd: raw results in " + raw);
    return raw;
  }

  /** One benchmark at one parameter point of one variant, samples kept per fork. */
  record Obs(String variant, String method, String params, String unit, double[][] forks,
      String jdk) {
    double[] all() {
      return Stream.of(forks).flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    /** All samples in nanoseconds. */
    double[] nanos() {
      double f = JmhResults.secondsPerUnit(unit) * 1e9;
      return Stream.of(forks).flatMapToDouble(java.util.Arrays::stream).map(x -> x * f)
          .toArray();
    }

    String key() {
      return method + (params.isEmpty() ? "" : " " + params);
    }
  }

  /** Reads every {@code variant__job.json} of a raw directory. */
  static List<Obs> readRaw(Path raw) throws IOException {
    List<Obs> out = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> s = Files.list(raw)) {
      files = s.filter(p -> p.getFileName().toString().contains("__")
          && (p.getFileName().toString().endsWith(".json")
          || p.getFileName().toString().endsWith(".json.gz"))).sorted().toList();
    }
    for (Path f : files) {
      String name = f.getFileName().toString();
      String variant = name.substring(0, name.indexOf("__"));
      String text;
      if (name.endsWith(".gz")) { // a full campaign's raw data is gzipped to stay small
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(f))) {
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
      } else {
        text = Files.readString(f, StandardCharsets.UTF_8).trim();
      }
      if (text.isEmpty()) {
        continue; // a run that died before writing
      }
      for (JsonElement e : JsonParser.parseString(text).getAsJsonArray()) {
        JsonObject o = e.getAsJsonObject();
        String bench = o.get("benchmark").getAsString();
        String method = bench.substring(bench.lastIndexOf('.') + 1);
        Map<String, String> params = new TreeMap<>();
        if (o.has("params")) {
          o.getAsJsonObject("params").entrySet()
              .forEach(p -> params.put(p.getKey(), p.getValue().getAsString()));
        }
        StringBuilder ps = new StringBuilder();
        params.forEach((k, v) -> ps.append(ps.length() == 0 ? "" : " ").append(k).append('=')
            .append(v));
        JsonObject pm = o.getAsJsonObject("primaryMetric");
        JsonArray rawData = pm.getAsJsonArray("rawData");
        double[][] forks = new double[rawData.size()][];
        for (int i = 0; i < forks.length; i++) {
          JsonArray a = rawData.get(i).getAsJsonArray();
          forks[i] = new double[a.size()];
          for (int j = 0; j < a.size(); j++) {
            forks[i][j] = a.get(j).getAsDouble();
          }
        }
        String jdk = o.has("jdkVersion") ? o.get("jdkVersion").getAsString() + " ("
            + o.get("vmName").getAsString() + " " + o.get("vmVersion").getAsString() + ")"
            : "unknown";
        out.add(new Obs(variant, method, ps.toString(), pm.get("scoreUnit").getAsString(),
            forks, jdk));
      }
    }
    return out;
  }

  /** What {@code perf stat -e instructions,cycles true} says on this machine. */
  static String perfStatus() {
    try {
      Process p = new ProcessBuilder("perf", "stat", "-e", "instructions,cycles", "true")
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      if (out.contains("not supported")) {
        return "unavailable (perf stat: instructions and cycles <not supported> in this VM)";
      }
      if (p.exitValue() != 0) {
        return "unavailable (perf stat exit " + p.exitValue() + ")";
      }
      return "perf stat works (not yet used by this study)";
    } catch (IOException e) {
      return "unavailable (no perf binary)";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  static String fmtNs(double ns) {
    if (ns >= 1e9) {
      return Report.fmt(ns / 1e9) + " s";
    } else if (ns >= 1e6) {
      return Report.fmt(ns / 1e6) + " ms";
    } else if (ns >= 1e3) {
      return Report.fmt(ns / 1e3) + " us";
    }
    return Report.fmt(ns) + " ns";
  }

  static String fmt(double v) {
    return Report.fmt(v);
  }

  static String pval(double p) {
    if (p == 0) {
      return "<1e-300";
    }
    return p < 0.001 ? String.format(Locale.ROOT, "%.1e", p) : String.format(Locale.ROOT, "%.3f",
        p);
  }
}
