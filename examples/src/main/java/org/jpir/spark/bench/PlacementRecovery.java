package org.jpir.spark.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.cli.PresetOption;
import org.jpir.spark.SparkSetup;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.Placement;
import org.jpir.spark.source.SyntheticSourceFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Placement and recovery on a cluster whose executors are child processes of this JVM
 * ({@code local-cluster[E,c,mem]}): prepares a synthetic database, prints the partitions per
 * executor, answers a batch, kills (SIGKILL) the executor holding the most partitions, answers
 * the next batch at once (recovery: kill to that batch answered), waits for the master's
 * replacement executor, answers a third batch (which first moves partitions onto it) and prints
 * the partitions per executor again. Every answer is decoded and compared with the generator.
 * Output: {@code placement: key=value} lines. Needs
 * {@code SPARK_HOME} (a folder with a {@code jars/} folder), {@code SPARK_SCALA_VERSION=2.13};
 * the executors' class path is {@code -Djpir.appJar} or this JVM's.
 */
@Command(name = "PlacementRecovery", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class,
    description = "Placement and recovery after an executor is killed, on local-cluster.")
public final class PlacementRecovery implements Callable<Integer> {
  @Option(names = "--master", description = "default: ${DEFAULT-VALUE}")
  String master = "local-cluster[3,1,1024]";

  @Mixin
  PresetOption preset = new PresetOption(Presets.ONIONPIR_4096);

  @Option(names = "--cols", description = "database columns (default: 768)")
  int cols;

  @Option(names = "--record-size", description = "default: ${DEFAULT-VALUE}")
  int recordSize = 1792;

  @Option(names = "--rows", description = "default: ${DEFAULT-VALUE}")
  int rows = 1;

  @Option(names = "--partitions", description = "default: planned from the executors")
  int partitions;

  @Option(names = "--queries", description = "queries per batch (default: ${DEFAULT-VALUE})")
  int queries = 2;

  /** Runs the scenario; exits 1 when an answer is wrong. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new PlacementRecovery()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Params p = preset.params();
    if (cols <= 0) {
      cols = 6 * 128;
    }
    long count = (long) cols * rows * (p.bytesPerPolynomial() / recordSize);
    Geometry g = Geometry.of(p, count, recordSize, rows);
    SyntheticSourceFactory src = new SyntheticSourceFactory(count, recordSize, 11);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    SparkConf conf = SparkSetup.conf("jpir placement recovery", master);
    conf.setIfMissing("spark.executor.extraClassPath", System.getProperty("jpir.appJar",
        System.getProperty("java.class.path")));
    conf.setIfMissing("spark.executor.memory", "900m");
    conf.setIfMissing("spark.executorEnv.SPARK_SCALA_VERSION", "2.13");
    SecureRandom rnd = new SecureRandom();
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.setLogLevel("WARN");
      long t0 = System.nanoTime();
      DistributedPirServer server = DistributedPirServer.prepare(sc, p, g, src, partitions);
      out("geometry", g.rows() + "x" + g.cols() + " planes " + g.planes());
      out("partitioning", server.partitioning().toString());
      out("prepare_s", secs(System.nanoTime() - t0));
      Map<String, Integer> initial = server.partitionsPerExecutor();
      out("initial", initial.toString());
      PirClient client = new PirClient(p, g, SecretKey.generate(p, rnd), rnd);
      boolean ok = batch(server, client, truth, count, queries, rnd, "batch1");
      String victim = initial.entrySet().stream().max(Map.Entry.comparingByValue())
          .orElseThrow().getKey();
      ProcessHandle proc = executorProcess(victim).orElseThrow(() -> new IllegalStateException(
          "no process of executor " + victim + " among this JVM's descendants"));
      long tk = System.nanoTime();
      proc.destroyForcibly();
      out("killed", victim + " (pid " + proc.pid() + ")");
      ok &= batch(server, client, truth, count, queries, rnd, "batch2");
      out("recovery_s", secs(System.nanoTime() - tk));
      out("after_loss", server.partitionsPerExecutor().toString());
      int expected = initial.size();
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (executors(sc) < expected && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      out("replacement_s", secs(System.nanoTime() - tk));
      out("executors", Integer.toString(executors(sc)));
      long t3 = System.nanoTime();
      ok &= batch(server, client, truth, count, queries, rnd, "batch3");
      Placement.Result r = server.lastPlacement();
      out("batch3_rebalance", "lost " + r.lost() + " moved " + r.moved() + " in "
          + secs(r.nanos()) + " s");
      out("respread_s", secs(System.nanoTime() - tk));
      out("batch3_with_rebalance_s", secs(System.nanoTime() - t3));
      out("final", server.partitionsPerExecutor().toString());
      long t4 = System.nanoTime();
      ok &= batch(server, client, truth, count, queries, rnd, "batch4");
      out("steady_batch_s", secs(System.nanoTime() - t4));
      out("exact", Boolean.toString(ok));
      return ok ? 0 : 1;
    }
  }

  /** Answers {@code queries} random records and compares each decoded answer. */
  private static boolean batch(DistributedPirServer server, PirClient client,
      SyntheticRecords truth, long count, int queries, SecureRandom rnd, String name) {
    List<ClientQuery> qs = new ArrayList<>();
    long[] idx = new long[queries];
    for (int i = 0; i < queries; i++) {
      idx[i] = Math.floorMod(rnd.nextLong(), count);
      qs.add(client.query(idx[i]));
    }
    long t0 = System.nanoTime();
    ClassicQueries kind = new ClassicQueries(Presets.byId(qs.get(0).paramsId()));
    Answer[] a = server.answer(qs.stream().map(q -> kind.accept(q, server.geometry())).toList())
        .answers();
    long t = System.nanoTime() - t0;
    boolean ok = true;
    for (int i = 0; i < queries; i++) {
      ok &= Arrays.equals(truth.record(idx[i]), client.decode(a[i], idx[i]));
    }
    out(name, (ok ? "exact" : "WRONG") + " in " + secs(t) + " s");
    return ok;
  }

  /** Executors registered now (block managers other than the driver's). */
  static int executors(JavaSparkContext sc) {
    return (int) CollectionConverters.asJava(sc.sc().env().blockManager()
        .master().getMemoryStatus()).keySet().stream().filter(b -> !b.isDriver()).count();
  }

  /**
   * The executor JVM of {@code executorId} among this JVM's descendants (local-cluster), found by
   * its command line ({@code /proc/<pid>/cmdline} on Linux, else the JDK's process info).
   */
  static Optional<ProcessHandle> executorProcess(String executorId) {
    return ProcessHandle.current().descendants().filter(h -> {
      List<String> a = arguments(h);
      int i = a.indexOf("--executor-id");
      return a.stream().anyMatch(s -> s.endsWith("CoarseGrainedExecutorBackend")) && i >= 0
          && i + 1 < a.size() && a.get(i + 1).equals(executorId);
    }).findFirst();
  }

  private static List<String> arguments(ProcessHandle h) {
    Path cmdline = Path.of("/proc", Long.toString(h.pid()),
        "cmdline");
    try {
      if (Files.isReadable(cmdline)) {
        return List.of(new String(Files.readAllBytes(cmdline),
            StandardCharsets.UTF_8).split("\u0000"));
      }
    } catch (IOException e) {
      // the process ended meanwhile: not ours to kill
      return List.of();
    }
    return List.of(h.info().arguments().orElse(new String[0]));
  }

  private static String secs(long nanos) {
    return String.format(Locale.ROOT, "%.2f", nanos / 1e9);
  }

  private static void out(String key, String value) {
    System.out.println("placement: " + key + "=" + value);
    System.out.flush();
  }
}
