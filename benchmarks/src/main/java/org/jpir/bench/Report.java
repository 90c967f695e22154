package org.jpir.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Renders a JMH JSON result (and its {@code .env.json}) as a markdown table: median, bootstrap 95%
 * confidence interval of the median, the derived rate (GB/s, GFLOP/s), its target and
 * whether it is met; then the panama/ref speedups with their confidence intervals. Usage:
 * {@code Report <jmh.json> [--readme docs/benchmarks.md]}; with {@code --readme} the table
 * replaces the text between {@code <!-- bench:kernels:begin -->} and {@code
 * <!-- bench:kernels:end -->}.
 */
@Command(name = "Report", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "The kernel table from a JMH JSON file (written beside it as .md).")
public final class Report implements Callable<Integer> {
  static final String BEGIN = "<!-- bench:kernels:begin -->";
  static final String END = "<!-- bench:kernels:end -->";
  private static final int RESAMPLES = 4000;

  @Parameters(index = "0", description = "JMH results (JSON)")
  Path json;

  @Option(names = "--readme", description = "a file whose table between the markers is replaced")
  Path readme;

  Report() {}

  public static void main(String[] args) {
    int rc = run(args);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /** Runs the command line; the exit code (0: done, 2: bad arguments). */
  static int run(String... args) {
    return new CommandLine(new Report()).execute(args);
  }

  @Override
  public Integer call() throws IOException {
    List<JmhResults.Row> rows = JmhResults.read(json);
    Path envFile = Path.of(json.toString().replaceAll("\\.json$", ".env.json"));
    JsonObject env = Files.exists(envFile)
        ? JsonParser.parseString(Files.readString(envFile)).getAsJsonObject() : new JsonObject();
    SameCpuAnchors here = SameCpuAnchors.read(anchorsFile(json));
    String md = render(rows, env, json.getFileName().toString(), here);
    Path out = Path.of(json.toString().replaceAll("\\.json$", ".md"));
    Files.writeString(out, md, StandardCharsets.UTF_8);
    System.out.println(md);
    System.out.println("report: written to " + out);
    if (readme != null) {
      String text = Files.readString(readme, StandardCharsets.UTF_8);
      int b = text.indexOf(BEGIN);
      int e = text.indexOf(END);
      if (b < 0 || e < b) {
        throw new IOException(readme + " lacks the markers " + BEGIN + " ... " + END);
      }
      String updated = text.substring(0, b + BEGIN.length()) + "\n" + md + text.substring(e);
      Files.writeString(readme, updated, StandardCharsets.UTF_8);
      System.out.println("report: table replaced in " + readme);
    }
    return 0;
  }

  /** Median seconds per op of a row. */
  static double medianSeconds(JmhResults.Row r) {
    return r.seconds(Stats.median(r.samples()));
  }

  /** The JVM configuration of a row: "avx2" when it ran with -XX:UseAVX=2, else "native". */
  static String isa(JmhResults.Row r) {
    return r.jvmArgs().contains("-XX:UseAVX=2") ? "avx2" : "native";
  }

  /** Rows with an {@code isa=avx2 (UseAVX=2)} parameter added to those of the AVX2 pass. */
  static List<JmhResults.Row> tagged(List<JmhResults.Row> rows) {
    List<JmhResults.Row> out = new ArrayList<>();
    for (JmhResults.Row r : rows) {
      if (isa(r).equals("avx2")) {
        Map<String, String> p = new LinkedHashMap<>(r.params());
        p.put("isa", "avx2 (UseAVX=2)");
        out.add(new JmhResults.Row(r.benchmark(), p, r.unit(), r.samples(), r.jdk(),
            r.jvmArgs()));
      } else {
        out.add(r);
      }
    }
    return out;
  }

  /** Ceilings of the rows of one JVM configuration: the larger width of each. */
  static Targets.Ceilings ceilings(List<JmhResults.Row> rows, String isa) {
    Optional<Double> stream = rows.stream()
        .filter(r -> isa(r).equals(isa) && MachineBench.isStream(r.method()))
        .map(r -> MachineBench.STREAM_BYTES / medianSeconds(r) / 1e9).max(Double::compare);
    Optional<Double> peak = rows.stream()
        .filter(r -> isa(r).equals(isa) && MachineBench.isPeak(r.method()))
        .map(r -> MachineBench.flops(r.method()) / medianSeconds(r) / 1e9)
        .max(Double::compare);
    return new Targets.Ceilings(stream, peak);
  }

  /** Where the same-CPU anchors of a JMH result file are kept: beside it, {@code .anchors.txt}. */
  static Path anchorsFile(Path json) {
    return Path.of(json.toString().replaceAll("\\.json$", ".anchors.txt"));
  }

  /** The markdown report without same-CPU anchors. */
  static String render(List<JmhResults.Row> rawRows, JsonObject env, String source) {
    return render(rawRows, env, source, SameCpuAnchors.NONE);
  }

  /** The markdown report; spqlios targets judged against {@code here} where it has the row. */
  static String render(List<JmhResults.Row> rawRows, JsonObject env, String source,
      SameCpuAnchors here) {
    List<JmhResults.Row> rows = tagged(rawRows);
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "Measured %s on %s (%s cores), %s, revision %s; "
        + "raw data `benchmarks/results/%s`; command `%s` (%s s).%n%n",
        str(env, "date"), str(env, "cpu"), str(env, "cores"), str(env, "jdk"),
        str(env, "revision"), source, str(env, "command"), str(env, "duration_s")));
    String l3 = str(env, "l3_kib");
    sb.append(String.format(Locale.ROOT, "CPU flags: %s; caches per core: L1d %s KiB, L2 %s KiB"
        + " (%s); L3 %s; %s vector registers. VMP kernel %s, block %s, tiling %s. Under"
        + " `-XX:UseAVX=2` (AVX2 emulated: 16 registers, 256-bit): block %s, tiling %s.%n%n",
        str(env, "flags"), str(env, "l1d_kib"), str(env, "l2_kib"),
        env.has("cache_source") ? str(env, "cache_source") : "sysfs",
        l3.startsWith("-") ? "not in sysfs" : l3 + " KiB",
        str(env, "vector_registers"), str(env, "vmp_kernel"), str(env, "vmp_block"),
        str(env, "vmp_tiling"), str(env, "vmp_block_avx2"), str(env, "vmp_tiling_avx2")));
    if (env.has("quick") && env.get("quick").getAsBoolean()) {
      sb.append("**Quick run (1 fork, 3 iterations): indicative, wide confidence intervals.**"
          + "\n\n");
    }
    Targets.Ceilings nat = ceilings(rows, "native");
    Targets.Ceilings avx2 = ceilings(rows, "avx2");
    sb.append(String.format(Locale.ROOT, "Ceilings measured in this run (per core, larger of the"
        + " 256- and 512-bit loops): native streaming read %s GB/s, peak FMA %s GFLOP/s;"
        + " with `-XX:UseAVX=2` %s GB/s, %s GFLOP/s. Every %% of peak or bound below is against"
        + " the ceilings of the same JVM flags.%n%n",
        nat.streamGbs().map(Report::fmt).orElse("n/a"),
        nat.peakGflops().map(Report::fmt).orElse("n/a"),
        avx2.streamGbs().map(Report::fmt).orElse("n/a"),
        avx2.peakGflops().map(Report::fmt).orElse("n/a")));

    sb.append("| benchmark | params | median | 95% CI | rate | target and anchors | met |\n");
    sb.append("|---|---|---:|---:|---:|---|:---:|\n");
    for (JmhResults.Row r : rows) {
      double med = Stats.median(r.samples());
      double[] ci = Stats.bootstrapMedianCi(r.samples(), 0.95, RESAMPLES, 42);
      Targets.Verdict v = Targets.judge(r, medianSeconds(r), isa(r).equals("avx2") ? avx2 : nat,
          isa(r).equals("avx2") ? SameCpuAnchors.NONE : here);
      sb.append(String.format(Locale.ROOT, "| %s | %s | %s %s | %s..%s | %s | %s | %s |%n",
          r.shortName(), params(r.params()), fmt(med), r.unit(), fmt(ci[0]), fmt(ci[1]),
          v.rate(), v.target(), v.met()));
    }
    sb.append('\n');
    List<String> speedups = speedups(rows);
    if (!speedups.isEmpty()) {
      sb.append("Vector API over scalar reference (ratio of medians ref/panama, bootstrap 95% CI):"
          + "\n\n| benchmark | params | speedup | 95% CI |\n|---|---|---:|---:|\n");
      speedups.forEach(sb::append);
      sb.append('\n');
    }
    if (!here.isEmpty()) {
      sb.append(String.format(Locale.ROOT, "spqlios on **this CPU**: measured in the same run by"
          + " `%s` before and after the benchmarks (medians of its medians; raw lines in"
          + " `benchmarks/results/%s`); the spqlios targets are judged against these figures."
          + "%n%n", str(env, "anchor_command"), source.replaceAll("\\.json$", ".anchors.txt")));
    }
    sb.append("Anchors (`ANCHORS.md`) were measured on AMD EPYC Zen 4 (2026-11-29, AVX-512) and"
        + " Zen 3 (2026-12-01, AVX2 only), not on this CPU: spqlios-arithmetic (C, AVX2/FMA) per"
        + " operation, OnionPIRv2 (C++, portable kernels, Zen 3) 2.26 s per query at 1 GiB with"
        + " its first dimension 1.70 s. Ratios ours/spqlios are given against both; without"
        + " same-CPU figures the target is judged against the faster (Zen 4) figure.\n");
    return sb.toString();
  }

  /** Rows that differ only by an implementation parameter ref/panama give one speedup line. */
  private static List<String> speedups(List<JmhResults.Row> rows) {
    List<String> out = new ArrayList<>();
    for (JmhResults.Row ref : rows) {
      String implKey = implParam(ref.params());
      if (implKey == null || !ref.params().get(implKey).equals("ref")) {
        continue;
      }
      for (JmhResults.Row pan : rows) {
        if (!pan.benchmark().equals(ref.benchmark())
            || !"panama".equals(pan.params().get(implKey))) {
          continue;
        }
        Map<String, String> a = new TreeMap<>(ref.params());
        Map<String, String> b = new TreeMap<>(pan.params());
        a.remove(implKey);
        b.remove(implKey);
        if (!a.equals(b)) {
          continue;
        }
        double ratio = Stats.median(ref.samples()) / Stats.median(pan.samples());
        double[] ci = Stats.bootstrapRatioCi(ref.samples(), pan.samples(), 0.95, RESAMPLES, 7);
        out.add(String.format(Locale.ROOT, "| %s | %s | %sx | %s..%s |%n", ref.shortName(),
            params(a), fmt(ratio), fmt(ci[0]), fmt(ci[1])));
      }
    }
    return out;
  }

  static String implParam(Map<String, String> params) {
    for (Map.Entry<String, String> e : params.entrySet()) {
      if (e.getValue().equals("ref") || e.getValue().equals("panama")) {
        return e.getKey();
      }
    }
    return null;
  }

  private static String params(Map<String, String> p) {
    if (p.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    p.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
    return sb.toString();
  }

  private static String str(JsonObject o, String key) {
    return o.has(key) ? o.get(key).getAsString() : "?";
  }

  /** Three significant digits. */
  static String fmt(double v) {
    if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
      return String.valueOf(v);
    }
    int digits = (int) Math.floor(Math.log10(Math.abs(v)));
    int decimals = Math.max(0, 2 - digits);
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }
}
