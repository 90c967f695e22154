package org.jpir.spark.bench;

import static org.jpir.spark.bench.CostModel.CP;
import static org.jpir.spark.bench.CostModel.P;
import static org.jpir.spark.bench.CostModel.POINT_RATE_COLUMNS;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.QueryKind;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.Wire;
import org.jpir.spark.SparkSetup;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.SparkBatchMetrics;
import org.jpir.spark.source.SyntheticSourceFactory;

/**
 * One measured point of the {@code answer} job for the cost model ({@code CostModel point}): a
 * synthetic database on any master, every answer checked, one TSV row appended.
 */
final class CostPoint {
  private CostPoint() {}

  static final String[] POINT_COLUMNS = {"master", "executors", "cores", "host_cores", "mib",
      "rows", "cols", "partitions", "kind", "batch", "batches", "seconds", "job_overhead_s",
      "task_overhead_s", "sched_delay_ms", "deser_ms", "task_run_ms", "result_bytes",
      "bcast_bytes", "bcast_fetched_bytes", "drv_bcast_ms", "drv_job_ms", "drv_merge_ms",
      "expand_s", "load1"};

  static void point(String master, long mib, int rows, int batch, int batches, String kind,
      Path out) throws Exception {
    Params p = kind.equals("compact") ? CP.server() : P;
    int rs = p.bytesPerPolynomial();
    long count = (mib << 20) / rs;
    Geometry g = rows > 0 ? Geometry.of(p, count, rs, rows) : Geometry.choose(p, count, rs, 1024);
    SyntheticSourceFactory src = new SyntheticSourceFactory(count, rs, 11);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    SecureRandom rnd = new SecureRandom();
    SparkConf conf = SparkSetup.conf("jpir cost-model point", master);
    String jar = System.getProperty("jpir.appJar");
    if (master.startsWith("local-cluster[")) {
      // local-cluster[E,c,mem]: plan for all E executors of c cores (Spark's default
      // parallelism there is max(E c, 2), which would double a single 1-core executor)
      String[] e = master.substring("local-cluster[".length(), master.length() - 1).split(",");
      conf.setIfMissing("spark.executor.instances", e[0].trim());
      conf.setIfMissing("spark.executor.cores", e[1].trim());
      if (jar != null) {
        conf.setIfMissing("spark.executor.extraClassPath", jar);
      }
    }
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.setLogLevel("WARN");
      // every kind runs the one answer path (executor expansion); "classic-driver" remains a
      // what-if of the model only
      DistributedPirServer.Workload w = new DistributedPirServer.Workload(batch,
          kind.equals("compact") ? CP : null);
      DistributedPirServer server = DistributedPirServer.prepare(sc, p, g, src, 0, w);
      int parts = server.partitioning().count();
      int executors = server.memoryPlan().executors();
      int cores = server.memoryPlan().coresPerExecutor();
      // the master's overhead: empty jobs of parts and 4 parts tasks
      double[] oh = overhead(sc, parts);
      // the rates under the same conditions, before the point: the CPU rates in the executors'
      // tasks, as many at once as the point runs on the host's cores; broadcast and network on
      // the driver
      int tasks = Math.max(1, Math.min(executors * cores, Runtime.getRuntime()
          .availableProcessors()));
      CostRates rates = RateCalibration.withDriverRates(RateCalibration.cpuRatesOnExecutors(sc,
          tasks, g.rows(), POINT_RATE_COLUMNS,
          !kind.equals("compact"), kind.equals("compact")), g.rows(), POINT_RATE_COLUMNS, sc);
      PirClient client = kind.equals("compact") ? null
          : new PirClient(P, g, SecretKey.generate(P, rnd), rnd);
      CompactClient alice = kind.equals("compact") ? new CompactClient(CP, g,
          CompactClient.generateSecret(CP, rnd), "alice", rnd) : null;
      EvaluationKeyStore store = null;
      if (alice != null) {
        store = new EvaluationKeyStore(CP);
        store.register(alice.evaluationKeys());
      }
      double[] secs = new double[batches];
      List<double[]> comps = new ArrayList<>();
      for (int k = 0; k < batches; k++) {
        long[] idx = new long[batch];
        for (int i = 0; i < batch; i++) {
          idx[i] = (k * 7919L * batch + i * 104729L) % count;
        }
        // the query files' bytes; the server accepts them by their kind, as the answer job does
        List<byte[]> wires = new ArrayList<>();
        for (long i : idx) {
          wires.add(alice != null ? Wire.writeCompactQuery(alice.query(i))
              : Wire.writeQuery(client.query(i)));
        }
        QueryKind queryKind = alice != null ? new CompactQueries(store)
            : new ClassicQueries(p);
        long t0 = System.nanoTime();
        DistributedPirServer.BatchResult res = server.answer(wires.stream()
            .map(q -> queryKind.accept(q, server.geometry())).toList());
        secs[k] = (System.nanoTime() - t0) / 1e9;
        Answer[] a = res.answers();
        for (int i = 0; i < batch; i++) {
          byte[] rec = alice != null ? alice.decode(a[i], idx[i]) : client.decode(a[i], idx[i]);
          if (!Arrays.equals(rec, truth.record(idx[i]))) {
            throw new IllegalStateException("wrong record in batch " + k + ", query " + i);
          }
        }
        SparkBatchMetrics m = res.stats().spark();
        DistributedPirServer.DriverTimes d = res.stats().driver();
        comps.add(new double[] {m.schedulerDelayMs(), m.deserializeMs(), m.runMs(),
            m.resultBytes(), m.broadcastBytes(), m.broadcastFetchedBytes(),
            d.broadcastNanos() / 1e6, d.jobNanos() / 1e6, d.mergeNanos() / 1e6,
            res.stats().expandNanos() / 1e9});
        System.out.printf(Locale.ROOT, "point %s %s batch %d/%d: %.3f s; %s%n", master, kind,
            k + 1, batches, secs[k], m.describe());
      }
      double steady = BenchStats.median(Arrays.copyOfRange(secs, 1, batches));
      double[] c = RateCalibration.columnMedians(comps.subList(1, batches));
      List<String> row = new ArrayList<>(List.of(master, "" + executors, "" + cores,
          "" + Runtime.getRuntime().availableProcessors(), "" + mib, "" + g.rows(),
          "" + g.cols(), "" + parts, kind, "" + batch, "" + batches, fmt(steady), fmt(oh[0]),
          fmt(oh[1])));
      for (double x : c) {
        row.add(fmt(x));
      }
      row.add(fmt(BenchStats.load1()));
      for (double x : rates.values()) {
        row.add(fmt(x));
      }
      if (!Files.exists(out)) {
        List<String> h = new ArrayList<>(List.of(POINT_COLUMNS));
        for (String n : CostRates.names()) {
          h.add("r_" + n);
        }
        Files.writeString(out, String.join("\t", h) + "\n");
      }
      Files.writeString(out, String.join("\t", row) + "\n", StandardOpenOption.APPEND);
      System.out.println("point: " + String.join(" ", row));
    }
  }

  /**
   * The master's overhead from empty jobs: {@code {per job, per task}} seconds, from the median
   * times of jobs of {@code n} and {@code 4 n} tasks.
   */
  static double[] overhead(JavaSparkContext sc, int n) throws Exception {
    List<Integer> a = new ArrayList<>();
    for (int i = 0; i < 4 * n; i++) {
      a.add(i);
    }
    sc.parallelize(a.subList(0, n), n).map(x -> x).collect();
    double t1 = RateCalibration.time(7, () -> sc.parallelize(a.subList(0, n), n).map(x -> x)
        .collect());
    double t4 = RateCalibration.time(7, () -> sc.parallelize(a, 4 * n).map(x -> x).collect());
    double perTask = Math.max(0, (t4 - t1) / (3.0 * n));
    return new double[] {Math.max(0, t1 - n * perTask), perTask};
  }

  static String fmt(double x) {
    return String.format(Locale.ROOT, "%.6g", x);
  }
}
