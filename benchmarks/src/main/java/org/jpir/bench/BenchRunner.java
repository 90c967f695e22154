package org.jpir.bench;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.vmp.CpuInfo;
import org.jpir.vmp.JvmOptions;
import org.jpir.vmp.KernelProvider;
import org.jpir.vmp.Vmp;
import org.jpir.vmp.VmpBlock;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./pir bench}: runs the kernel benchmarks side by side in one JMH run, with every fork
 * started with the project's JVM options ({@link JvmOptions}), writes the raw JMH JSON plus an
 * environment file (CPU, JDK, git revision) under {@code benchmarks/results/}, and renders the
 * kernel table of {@code docs/benchmarks.md} from them ({@link Report}).
 *
 * <p>When the CPU has AVX-512, a second pass runs the ceilings and the multi-column pass with
 * {@code -XX:UseAVX=2} (an AVX2 machine with 16 vector registers, emulated); its rows are merged
 * into the same JSON and the report judges them against the ceilings of that pass.
 *
 * <p>Options: {@code ./pir bench --help} (picocli).
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Run the kernel benchmarks in one JMH run; write the raw JSON and the kernel"
        + " table of docs/benchmarks.md.")
public final class BenchRunner implements Callable<Integer> {
  /** The page whose marked block holds the kernel table (run from the repository root). */
  static final String TABLE_PAGE = "docs/benchmarks.md";

  /** The README suite: machine ceilings plus the kernels. */
  static final List<String> README_SUITE = List.of(
      "MachineBench", "FftBench", "VmpBench", "MultiColumnBench", "PirBench");

  @Spec
  CommandSpec spec;

  @Option(names = "--quick", description = "1 fork, 3 iterations (about 6 minutes on 2 cores)")
  boolean quick;

  @Option(names = "--no-readme", description = "write the report but leave " + TABLE_PAGE
      + " alone")
  boolean noReadme;

  @Option(names = "--no-avx2", description = "skip the emulated-AVX2 pass (-XX:UseAVX=2)")
  boolean noAvx2;

  @Option(names = "--include", paramLabel = "REGEX",
      description = "benchmarks to run (repeatable; default: the README suite)")
  List<String> includes = new ArrayList<>();

  @Option(names = "--param", paramLabel = "NAME=V1,V2", description = "override a JMH parameter")
  Map<String, String> paramValues = new LinkedHashMap<>();

  @Option(names = "--forks", description = "JMH forks (default: ${DEFAULT-VALUE})")
  int forks = 3;

  @Option(names = "--iterations", description = "measurement iterations (default:"
      + " ${DEFAULT-VALUE})")
  int iterations = 8;

  @Option(names = "--anchor-command", paramLabel = "CMD",
      description = "a command (bash -c) printing 'ANCHOR name median p25 p75 unit' lines for"
          + " spqlios on this CPU, run before and after the benchmarks; the spqlios targets are"
          + " then judged against its figures (see SameCpuAnchors for the names)")
  String anchorCommand;

  public static void main(String[] args) {
    System.exit(new CommandLine(new BenchRunner()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    boolean readme = !noReadme;
    boolean avx2 = CpuInfo.get().avx512f() && !noAvx2; // an AVX2 pass is emulated on AVX-512
    long started = System.nanoTime();
    Map<String, String[]> params = new LinkedHashMap<>();
    paramValues.forEach((k, v) -> params.put(k, v.split(",")));
    if (includes.isEmpty()) {
      for (String s : README_SUITE) {
        includes.add("\\." + s + "\\.");
      }
    }
    if (quick) {
      forks = 1;
      iterations = 3;
    }
    Path dir = Path.of("benchmarks", "results");
    Files.createDirectories(dir);
    String rev = Environment.gitRevision();
    String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
        .format(Instant.now());
    String base = "kernels-" + stamp + "-" + rev.replace('+', '_') + (quick ? "-quick" : "");
    Path json = dir.resolve(base + ".json");

    List<String> jvm = new ArrayList<>(JvmOptions.list());
    // the largest fork (MultiColumnBench: 1.5 GiB PMAT + 4 GiB PVECs; PirBench at mib=1024)
    // fits 8 GiB; the machine has 24 GiB for everyone
    jvm.add("-Xms8g");
    jvm.add("-Xmx8g");
    jvm.add("-XX:+AlwaysPreTouch");
    System.out.println("bench: " + Environment.cpuModel() + ", " + Environment.jdk()
        + ", revision " + rev + ", kernels " + KernelProvider.get().name() + " by default");
    List<String> anchorLines = new ArrayList<>();
    if (anchorCommand != null) {
      anchorLines.addAll(runAnchors(anchorCommand));
    }
    run(options(forks, iterations, quick, jvm, json, params).includes(includes));
    if (avx2 && includes.stream().anyMatch(i -> i.contains("MultiColumn")
        || i.contains("MachineBench"))) {
      Path second = dir.resolve(base + "-avx2.json");
      List<String> j2 = new ArrayList<>(jvm);
      j2.add("-XX:UseAVX=2");
      List<String> inc2 = new ArrayList<>();
      inc2.add("\\.MachineBench\\.(peakFma|streamRead)$");
      if (includes.stream().anyMatch(i -> i.contains("MultiColumn"))) {
        inc2.add("\\.MultiColumnBench\\.");
      }
      System.out.println("bench: second pass with -XX:UseAVX=2 (AVX2 emulated, 16 registers)");
      Map<String, String[]> p2 = new LinkedHashMap<>(params);
      p2.putIfAbsent("kernel", new String[] {"panama"}); // ref does not depend on the ISA
      run(options(forks, iterations, quick, j2, second, p2).includes(inc2));
      merge(json, second);
    }

    if (anchorCommand != null) {
      anchorLines.addAll(runAnchors(anchorCommand));
      SameCpuAnchors.parse(anchorLines); // refuses malformed output before it is kept
      Files.write(Report.anchorsFile(json), anchorLines, StandardCharsets.UTF_8);
    }
    JsonObject env = new JsonObject();
    env.addProperty("cpu", Environment.cpuModel());
    env.addProperty("cores", Runtime.getRuntime().availableProcessors());
    env.addProperty("jdk", Environment.jdk());
    env.addProperty("revision", rev);
    env.addProperty("date", Instant.now().toString());
    env.addProperty("quick", quick);
    if (anchorCommand != null) {
      env.addProperty("anchor_command", anchorCommand);
    }
    env.addProperty("command", "./pir bench " + String.join(" ",
        spec.commandLine().getParseResult().originalArgs()));
    CpuInfo cpu = CpuInfo.get();
    env.addProperty("flags", cpu.kernelFlags());
    // The sizes the tiling used (sysfs, else the stated fallback), and sysfs's L3 (-1: none).
    env.addProperty("l1d_kib", cpu.l1dBytes() / 1024);
    env.addProperty("l2_kib", cpu.l2Bytes() / 1024);
    int l3 = cpu.sysfsCacheBytes(3);
    env.addProperty("l3_kib", l3 < 0 ? -1 : l3 / 1024);
    env.addProperty("cache_source", cpu.cacheSource());
    env.addProperty("vector_registers", cpu.vectorRegisters());
    VmpBlock blk = Vmp.get().block();
    env.addProperty("vmp_kernel", Vmp.get().kernelName());
    env.addProperty("vmp_block", blk.toString());
    Vmp.Tiling tl = Vmp.tiling(blk, cpu, 12, 1);
    env.addProperty("vmp_tiling", tiling(tl) + " (" + tl.reason() + ")");
    VmpBlock b2 = VmpBlock.choose(256, Runtime.version().feature(), 16, null).block();
    env.addProperty("vmp_block_avx2", b2.toString());
    env.addProperty("vmp_tiling_avx2", tiling(Vmp.tiling(b2, cpu, 12, 1)));
    env.addProperty("duration_s", (System.nanoTime() - started) / 1_000_000_000L);
    Files.writeString(dir.resolve(base + ".env.json"),
        new GsonBuilder().setPrettyPrinting().create().toJson(env), StandardCharsets.UTF_8);
    System.out.println("bench: raw results in " + json);
    return Report.run(readme ? new String[] {json.toString(), "--readme", TABLE_PAGE}
        : new String[] {json.toString()});
  }

  /**
   * Runs {@code command} with {@code bash -c} (inheriting this process's CPU affinity) and
   * returns its ANCHOR lines; fails when it exits non-zero or prints none.
   */
  static List<String> runAnchors(String command) throws IOException, InterruptedException {
    System.out.println("bench: same-CPU anchors: " + command);
    Process p = new ProcessBuilder("bash", "-c", command)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.startsWith("ANCHOR ")) {
          lines.add(line);
          System.out.println("bench: " + line);
        }
      }
    }
    int rc = p.waitFor();
    if (rc != 0 || lines.isEmpty()) {
      throw new IOException("anchor command exited " + rc + " with " + lines.size()
          + " ANCHOR lines: " + command);
    }
    return lines;
  }

  /** "panel P rows, tile T rows, groups of G columns" (at ncols = 12, one query). */
  static String tiling(Vmp.Tiling t) {
    return "panels of " + t.panelRows() + " rows, tiles of " + t.tileRows() + " rows, groups of "
        + t.groupColumns() + " columns (ncols 12, 1 query)";
  }

  /** The JMH options shared by both passes. */
  private static Included options(int forks, int iterations, boolean quick, List<String> jvm,
      Path json, Map<String, String[]> params) {
    ChainedOptionsBuilder ob = new OptionsBuilder()
        .forks(forks)
        .warmupIterations(quick ? 2 : 4)
        .warmupTime(TimeValue.seconds(1))
        .measurementIterations(iterations)
        .measurementTime(TimeValue.seconds(1))
        .jvmArgsAppend(jvm.toArray(new String[0]))
        .shouldFailOnError(true)
        .resultFormat(ResultFormatType.JSON)
        .result(json.toString());
    params.forEach(ob::param);
    return new Included(ob);
  }

  /** An options builder waiting for its include patterns. */
  private record Included(ChainedOptionsBuilder ob) {
    ChainedOptionsBuilder includes(List<String> regexes) {
      regexes.forEach(ob::include);
      return ob;
    }
  }

  private static void run(ChainedOptionsBuilder ob) throws Exception {
    new Runner(ob.build()).run();
  }

  /** Appends the JMH rows of {@code extra} to the JSON array of {@code main}, deletes extra. */
  static void merge(Path main, Path extra) throws IOException {
    JsonArray a = JsonParser.parseString(
        Files.readString(main, StandardCharsets.UTF_8)).getAsJsonArray();
    JsonArray b = JsonParser.parseString(
        Files.readString(extra, StandardCharsets.UTF_8)).getAsJsonArray();
    a.addAll(b);
    Files.writeString(main, new GsonBuilder().setPrettyPrinting().create().toJson(a),
        StandardCharsets.UTF_8);
    Files.delete(extra);
  }
}
