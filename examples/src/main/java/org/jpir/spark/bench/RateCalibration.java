package org.jpir.spark.bench;

import static org.jpir.spark.bench.CostModel.CALIBRATION_COLUMNS;
import static org.jpir.spark.bench.CostModel.CP;
import static org.jpir.spark.bench.CostModel.P;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.PreparedEvaluationKeys;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.EvaluationKeys;
import org.jpir.spark.SparkSetup;
import org.jpir.spark.server.MemoryPlan;

/**
 * The cost model's measured rates ({@link CostRates}): per-core CPU rates on a thread or in
 * Spark tasks, the driver's broadcast write rate and loopback TCP; {@code CostModel calibrate}.
 */
final class RateCalibration {
  private RateCalibration() {}

  /** Median seconds of {@code reps} runs of {@code r}. */
  static double time(int reps, ThrowingRunnable r) throws Exception {
    double[] s = new double[reps];
    for (int i = 0; i < reps; i++) {
      long t0 = System.nanoTime();
      r.run();
      s[i] = (System.nanoTime() - t0) / 1e9;
    }
    return BenchStats.median(s);
  }

  /** A measured action. */
  interface ThrowingRunnable {
    void run() throws Exception;
  }

  /**
   * Phase 1 and phase 2 of {@code p} on one thread over the {@code g.cols()} columns of {@code g}
   * (one phase-1 pass) and over its first column alone (one pass of one column): {@code {raw
   * bytes/s at batch 1, at batch 4, seconds per CMux, seconds a pass costs beyond its columns at
   * batch 1, at batch 4}}, the pass cost {@code (w t1 - tw) / (w - 1)} from the medians of the
   * two passes' times {@code tw}, {@code t1} (at least 0); the queries come from {@code qs}.
   */
  static double[] passes(Params p, Geometry g, PreparedQuery[] qs) {
    SyntheticRecords recs = new SyntheticRecords(g.rows() * (long) g.cols(),
        p.bytesPerPolynomial(), 7);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, recs, 0, g.cols(), null);
    PreparedDatabase one = PreparedDatabase.prepare(p, g, recs, 0, 1, null);
    PirServer server = new PirServer(p);
    int w = g.cols();
    double[] out = new double[5];
    for (int k = 0; k < 2; k++) {
      PreparedQuery[] b = k == 0 ? new PreparedQuery[] {qs[0]} : qs;
      server.answerRange(db, b, new PirServer.Timings()); // warm-up
      server.answerRange(one, b, new PirServer.Timings());
      double[] tw = new double[5];
      double[] t1 = new double[5];
      double[] r2 = new double[5];
      for (int i = 0; i < 5; i++) {
        PirServer.Timings t = new PirServer.Timings();
        server.answerRange(db, b, t);
        tw[i] = t.phase1Nanos / 1e9;
        r2[i] = t.phase2Nanos / 1e9 / (b.length * (double) g.planes() * (g.cols() - 1));
        PirServer.Timings u = new PirServer.Timings();
        server.answerRange(one, b, u);
        t1[i] = u.phase1Nanos / 1e9;
      }
      double mw = BenchStats.median(tw);
      double m1 = BenchStats.median(t1);
      out[k] = b.length * (double) g.rawBytes() / mw;
      out[3 + k] = w > 1 ? Math.max(0, (w * m1 - mw) / (w - 1)) : Double.NaN;
      if (k == 1) {
        out[2] = BenchStats.median(r2);
      }
    }
    return out;
  }

  /** Measures every rate on one thread ({@link #measure}) and writes them to {@code out}. */
  static void calibrate(Path out, int rows) throws Exception {
    CostRates r;
    int cores = Runtime.getRuntime().availableProcessors();
    try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.conf("jpir calibrate",
        "local[" + cores + "]"))) {
      sc.setLogLevel("WARN");
      // every core busy, as on an executor that runs a task per core
      r = withDriverRates(cpuRatesOnExecutors(sc, cores, rows, CALIBRATION_COLUMNS, true, true),
          rows, CALIBRATION_COLUMNS, sc);
    }
    StringBuilder sb = new StringBuilder("# jpir cost-model rates, per core with all "
        + cores + " cores busy, ")
        .append(System.getProperty("java.runtime.version")).append(", ").append(cpu())
        .append(", rows ").append(rows).append('\n');
    String[] k = CostRates.names();
    double[] v = r.values();
    for (int i = 0; i < k.length; i++) {
      sb.append(k[i]).append('=').append(String.format(Locale.ROOT, "%.6g", v[i])).append('\n');
    }
    Files.writeString(out, sb.toString());
    System.out.print(sb);
  }

  /**
   * The rates on one thread over {@code width} columns of {@code rows} rows: classic and/or
   * compact passes and expansions (NaN for the kind not measured, {@link #cpuRates}), the
   * driver's broadcast write rate on {@code sc} (a broadcast of 4 prepared queries, destroyed),
   * loopback TCP.
   */
  static CostRates measure(int rows, int width, boolean classic, boolean compactToo,
      JavaSparkContext sc) throws Exception {
    return withDriverRates(cpuRates(rows, width, classic, compactToo), rows, width, sc);
  }

  /**
   * {@code cpu} ({@link #cpuRates}) with the driver's broadcast write rate on {@code sc} (a
   * broadcast of 4 prepared queries of {@code rows} x {@code width}, destroyed), loopback TCP,
   * the load and the width.
   */
  static CostRates withDriverRates(double[] cpu, int rows, int width, JavaSparkContext sc)
      throws Exception {
    SecureRandom rnd = new SecureRandom();
    Geometry g = Geometry.of(P, (long) rows * width, P.bytesPerPolynomial(), rows);
    PirClient client = new PirClient(P, g, SecretKey.generate(P, rnd), rnd);
    QueryExpander ex = new QueryExpander(P);
    PreparedQuery[] qs = new PreparedQuery[4];
    for (int i = 0; i < 4; i++) {
      qs[i] = ex.expand(client.query(i * 13L), g);
    }
    long bytes = MemoryPlan.expandedQueryBytes(P, g) * 4;
    sc.broadcast(qs).destroy();
    double bcast = bytes / time(3, () -> sc.broadcast(qs).destroy());
    double net = loopback(256 << 20);
    double[] v = cpu;
    return new CostRates(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], bcast,
        net, BenchStats.load1(), g.cols(), v[11], v[12], v[13], v[14]);
  }

  /**
   * The CPU rates of {@link CostRates} (its first 11 fields, then the 4 pass costs) on the calling
   * thread over
   * {@code width} columns of {@code rows} rows: classic and/or compact phase 1 at batch 1 and 4,
   * CMux, expansion per row, phase-2 GGSWs per level, the preparation of one client's keys (NaN
   * for the kind not measured). Needs no Spark context, so tasks can run it where they run.
   */
  static double[] cpuRates(int rows, int width, boolean classic, boolean compactToo) {
    SecureRandom rnd = new SecureRandom();
    Geometry g = Geometry.of(P, (long) rows * width, P.bytesPerPolynomial(), rows);
    int levels = Geometry.levels(g.cols());
    double nan = Double.NaN;
    double[] pc = {nan, nan, nan, nan, nan};
    double expand = nan;
    double ggsw = nan;
    try {
      if (classic) {
        PirClient client = new PirClient(P, g, SecretKey.generate(P, rnd), rnd);
        QueryExpander ex = new QueryExpander(P);
        List<ClientQuery> cq = new ArrayList<>();
        PreparedQuery[] qs = new PreparedQuery[4];
        for (int i = 0; i < 4; i++) {
          cq.add(client.query(i * 13L));
          qs[i] = ex.expand(cq.get(i), g);
        }
        pc = passes(P, g, qs);
        expand = time(3, () -> ex.expand(cq.get(1), g)) / rows;
        ggsw = time(3, () -> ex.expandPhase2(cq.get(2), g)) / levels;
      }
      double[] pcc = {nan, nan, nan, nan, nan};
      double compact = nan;
      double compactGgsw = nan;
      double keysPrepare = nan;
      if (compactToo) {
        Geometry gc = Geometry.of(CP.server(), (long) rows * width,
            CP.server().bytesPerPolynomial(), rows);
        CompactClient alice = new CompactClient(CP, gc, CompactClient.generateSecret(CP, rnd),
            "a", rnd);
        EvaluationKeys keys = alice.evaluationKeys();
        keysPrepare = time(3, () -> PreparedEvaluationKeys.prepare(CP, keys));
        PreparedEvaluationKeys pk = PreparedEvaluationKeys.prepare(CP, keys);
        CompactQuery q = alice.query(5);
        CompactExpander cex = new CompactExpander(CP);
        PreparedQuery[] cqs = new PreparedQuery[4];
        for (int i = 0; i < 4; i++) {
          cqs[i] = cex.expand(alice.query(i * 11L), pk, null);
        }
        pcc = passes(CP.server(), gc, cqs);
        compact = time(3, () -> cex.expand(q, pk, null)) / rows;
        compactGgsw = time(3, () -> cex.expandPhase2(q, pk, null, -1L)) / levels;
      }
      return new double[] {pc[0], pc[1], pc[2], expand, ggsw, pcc[0], pcc[1], pcc[2], compact,
          compactGgsw, keysPrepare, pc[3], pc[4], pcc[3], pcc[4]};
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@link #cpuRates} measured where the point's tasks run and as they run: {@code tasks}
   * concurrent Spark tasks (one per slot, at most the host's cores), each on its executor's
   * thread; the medians over the tasks, field by field.
   */
  static double[] cpuRatesOnExecutors(JavaSparkContext sc, int tasks, int rows, int width,
      boolean classic, boolean compactToo) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      ids.add(i);
    }
    List<double[]> per = sc.parallelize(ids, tasks).map(new RatesFn(rows, width, classic,
        compactToo)).collect();
    return columnMedians(per);
  }

  /** The median of each field over {@code rows} (all of one length, at least one). */
  static double[] columnMedians(List<double[]> rows) {
    double[] out = new double[rows.get(0).length];
    for (int j = 0; j < out.length; j++) {
      int jj = j;
      out[j] = BenchStats.median(rows.stream().mapToDouble(r -> r[jj]).toArray());
    }
    return out;
  }

  /** A task measuring {@link #cpuRates} in its executor. */
  static final class RatesFn
      implements Function<Integer, double[]> {
    private static final long serialVersionUID = 1L;
    private final int rows;
    private final int width;
    private final boolean classic;
    private final boolean compact;

    RatesFn(int rows, int width, boolean classic, boolean compact) {
      this.rows = rows;
      this.width = width;
      this.classic = classic;
      this.compact = compact;
    }

    @Override
    public double[] call(Integer i) {
      return cpuRates(rows, width, classic, compact);
    }
  }

  /** Loopback TCP throughput (bytes/s) for {@code bytes} sent through one socket. */
  static double loopback(int bytes) throws Exception {
    try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread sender = new Thread(() -> {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort());
            OutputStream os = s.getOutputStream()) {
          byte[] buf = new byte[1 << 20];
          for (int sent = 0; sent < bytes; sent += buf.length) {
            os.write(buf);
          }
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      });
      try (Socket s = accept(ss, sender)) {
        long t0 = System.nanoTime();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[1 << 20];
        long got = 0;
        int n;
        while ((n = in.read(buf)) > 0) {
          got += n;
        }
        sender.join();
        return got / ((System.nanoTime() - t0) / 1e9);
      }
    }
  }

  private static Socket accept(ServerSocket ss, Thread sender) throws IOException {
    sender.start();
    return ss.accept();
  }

  static String cpu() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(l -> l.startsWith("model name")).findFirst().map(l -> l.split(":", 2)[1].trim())
          .orElse("?") + " (" + Runtime.getRuntime().availableProcessors() + " cores)";
    } catch (IOException e) {
      return "?";
    }
  }
}
