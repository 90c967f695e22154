package org.jpir.spark.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.ToDoubleFunction;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.PreparedEvaluationKeys;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.query.QueryKind;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.EvaluationKeys;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.spark.SparkSetup;
import org.jpir.spark.server.ColumnPartitioning;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.MemoryPlan;
import org.jpir.spark.server.SparkBatchMetrics;
import org.jpir.spark.source.SyntheticSourceFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;
import org.jpir.core.server.ColumnTree;

/**
 * The cost model of the {@code answer} job, its measurements and its check (a documented
 * harness). Three commands:
 *
 * <ul>
 *   <li>{@code calibrate --out RATES}: per-core rates measured in this JVM by one task per core at
 *       once (phase 1 in raw bytes/s at batch 1 and 4 and the cost of a pass, one CMux, classic
 *       and compact expansion per row and the phase-2 GGSWs per level, the preparation of
 *       evaluation keys), the driver's broadcast write rate (a real Spark broadcast in local
 *       mode) and loopback TCP; written as properties.
 *   <li>{@code point --master M --mib D --rows R --batch B --batches K --kind K --out TSV}: one
 *       measured point of the job ({@link DistributedPirServer}) on a synthetic database, any
 *       master ({@code local[c]}, {@code local-cluster[E,1,mem]}, a cluster); appends the median
 *       batch time after the first, Spark's components and the master's per-job and per-task
 *       overhead (empty jobs on the same context) to TSV.
 *   <li>{@code report --rates RATES --points TSV --out MD}: predicts every point from the
 *       project's own sizes ({@link Wire}, {@link MemoryPlan}, {@link ColumnPartitioning}, {@link
 *       PirServer#chunkColumns}) and the rates, states each point's error, and writes the
 *       prediction grid for 10 to 1000 executors and 10 GiB to 10 TiB with the limiting resource
 *       of every cell.
 * </ul>
 *
 * <p>Kinds: {@code classic} (seeded queries expanded on the executors, the job's default),
 * {@code classic-driver} (expanded on the driver, the prepared matrices broadcast) and {@code
 * compact} (compact queries and evaluation keys, expanded on the executors).
 */
@Command(name = "CostModel", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class, subcommandsRepeatable = false,
    description = "The cluster cost model: calibrate, measure points, report.")
public final class CostModel {
  private CostModel() {}

  static final Params P = Presets.ONIONPIR_4096;
  static final CompactParams CP = CompactParams.ONIONPIR_4096_COMPACT;
  static final int FAN_IN = 8;

  public static void main(String[] args) {
    System.exit(new CommandLine(new CostModel()).execute(args));
  }

  @Command(name = "calibrate", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Measure the rates on this machine.")
  int calibrateCmd(@Option(names = "--out", required = true, description = "rates file") Path out,
      @Option(names = "--rows", defaultValue = "37", description = "rows of the calibration"
          + " database (default: ${DEFAULT-VALUE})") int rows) throws Exception {
    calibrate(out, rows);
    return 0;
  }

  @Command(name = "point", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Measure one point and append it to a TSV file.")
  int pointCmd(@Option(names = "--master", required = true) String master,
      @Option(names = "--mib", required = true) long mib,
      @Option(names = "--rows", defaultValue = "0", description = "0: the chosen geometry")
          int rows,
      @Option(names = "--batch", required = true) int batch,
      @Option(names = "--batches", defaultValue = "4") int batches,
      @Option(names = "--kind", defaultValue = "classic",
          description = "classic, classic-driver or compact") String kind,
      @Option(names = "--out", required = true) Path out) throws Exception {
    point(master, mib, rows, batch, batches, kind, out);
    return 0;
  }

  @Command(name = "report", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Check the model against the points and write the prediction grid.")
  int reportCmd(@Option(names = "--rates", required = true) Path rates,
      @Option(names = "--points", required = true) Path points,
      @Option(names = "--out", required = true) Path out,
      @Option(names = "--commands", defaultValue = "") String commands) throws Exception {
    report(rates, points, out, commands);
    return 0;
  }

  /** Columns of the calibration's phase-1 passes (the grid's rates). */
  static final int CALIBRATION_COLUMNS = 64;

  /** Columns of the phase-1 passes each point measures its own rates over. */
  static final int POINT_RATE_COLUMNS = 32;

  // ---------------------------------------------------------------- rates

  /**
   * Measured rates: phase 1 in raw database bytes per second per core at batch 1 and 4, seconds
   * per CMux, classic expansion per row and phase-2 GGSWs per level, compact expansion per row
   * and GGSWs per level, seconds to prepare one client's evaluation keys, the driver's broadcast
   * write rate and loopback TCP (bytes/s), the load while measuring, and the columns the phase-1
   * rates were measured over (one pass each: their time includes one read of every query's
   * phase-1 matrix per that many columns), and the seconds one phase-1 pass costs beyond its
   * columns at batch 1 and 4, classic and compact (NaN: not measured).
   */
  record Rates(double phase1B1, double phase1B4, double cmux, double expandRow,
      double ggswLevel, double compactPhase1B1, double compactPhase1B4, double compactCmux,
      double compactRow, double compactGgswLevel, double keysPrepare, double bcastWrite,
      double net, double load, double columns, double passB1, double passB4,
      double compactPassB1, double compactPassB4) {

    /** Phase-1 raw bytes/s per core at batch b (linear between 1 and 4, flat above). */
    double phase1(int b, boolean compact) {
      return atBatch(compact ? compactPhase1B1 : phase1B1, compact ? compactPhase1B4 : phase1B4,
          b);
    }

    /** Seconds a phase-1 pass costs beyond its columns at batch b (as {@link #phase1}). */
    double pass(int b, boolean compact) {
      return atBatch(compact ? compactPassB1 : passB1, compact ? compactPassB4 : passB4, b);
    }

    /** Measured at batch 1 ({@code r1}) and 4 ({@code r4}): at batch b, linear, flat above 4. */
    private static double atBatch(double r1, double r4, int b) {
      return b >= 4 ? r4 : r1 + (r4 - r1) * (b - 1) / 3.0;
    }

    /** Seconds per CMux. */
    double cmux(boolean compact) {
      return compact ? compactCmux : cmux;
    }

    static Rates read(Path f) throws IOException {
      Properties p = new Properties();
      try (InputStream in = Files.newInputStream(f)) {
        p.load(in);
      }
      double[] v = new double[names().length];
      String[] k = names();
      for (int i = 0; i < k.length; i++) {
        String s = p.getProperty(k[i]);
        if (s == null && k[i].equals("rate_columns")) {
          s = "" + CALIBRATION_COLUMNS; // files written before the field: calibrate's width
        }
        if (s == null && k[i].contains("pass_s")) {
          s = "NaN"; // files written before the pass was measured
        }
        if (s == null) {
          throw new IllegalArgumentException(f + " lacks " + k[i]);
        }
        v[i] = Double.parseDouble(s);
      }
      return new Rates(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11],
          v[12], v[13], v[14], v[15], v[16], v[17], v[18]);
    }

    static String[] names() {
      return new String[] {"phase1_bytes_per_s_b1", "phase1_bytes_per_s_b4", "cmux_s",
          "expand_s_per_row", "ggsw_s_per_level", "compact_phase1_bytes_per_s_b1",
          "compact_phase1_bytes_per_s_b4", "compact_cmux_s", "compact_expand_s_per_row",
          "compact_ggsw_s_per_level", "keys_prepare_s", "broadcast_write_bytes_per_s",
          "net_bytes_per_s", "load1", "rate_columns", "phase1_pass_s_b1", "phase1_pass_s_b4",
          "compact_phase1_pass_s_b1", "compact_phase1_pass_s_b4"};
    }

    double[] values() {
      return new double[] {phase1B1, phase1B4, cmux, expandRow, ggswLevel, compactPhase1B1,
          compactPhase1B4, compactCmux, compactRow, compactGgswLevel, keysPrepare, bcastWrite,
          net, load, columns, passB1, passB4, compactPassB1, compactPassB4};
    }
  }

  /** Median seconds of {@code reps} runs of {@code r}. */
  static double time(int reps, ThrowingRunnable r) throws Exception {
    double[] s = new double[reps];
    for (int i = 0; i < reps; i++) {
      long t0 = System.nanoTime();
      r.run();
      s[i] = (System.nanoTime() - t0) / 1e9;
    }
    return SparkOverheadBench.median(s);
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
      double mw = SparkOverheadBench.median(tw);
      double m1 = SparkOverheadBench.median(t1);
      out[k] = b.length * (double) g.rawBytes() / mw;
      out[3 + k] = w > 1 ? Math.max(0, (w * m1 - mw) / (w - 1)) : Double.NaN;
      if (k == 1) {
        out[2] = SparkOverheadBench.median(r2);
      }
    }
    return out;
  }

  /** Measures every rate on one thread ({@link #measure}) and writes them to {@code out}. */
  static void calibrate(Path out, int rows) throws Exception {
    Rates r;
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
    String[] k = Rates.names();
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
  static Rates measure(int rows, int width, boolean classic, boolean compactToo,
      JavaSparkContext sc) throws Exception {
    return withDriverRates(cpuRates(rows, width, classic, compactToo), rows, width, sc);
  }

  /**
   * {@code cpu} ({@link #cpuRates}) with the driver's broadcast write rate on {@code sc} (a
   * broadcast of 4 prepared queries of {@code rows} x {@code width}, destroyed), loopback TCP,
   * the load and the width.
   */
  static Rates withDriverRates(double[] cpu, int rows, int width, JavaSparkContext sc)
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
    return new Rates(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], bcast,
        net, SparkOverheadBench.load1(), g.cols(), v[11], v[12], v[13], v[14]);
  }

  /**
   * The CPU rates of {@link Rates} (its first 11 fields, then the 4 pass costs) on the calling
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
        compactGgsw = time(3, () -> cex.expandPhase2(q, pk, null)) / levels;
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
      out[j] = SparkOverheadBench.median(rows.stream().mapToDouble(r -> r[jj]).toArray());
    }
    return out;
  }

  /** A task measuring {@link #cpuRates} in its executor. */
  static final class RatesFn
      implements org.apache.spark.api.java.function.Function<Integer, double[]> {
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

  // ---------------------------------------------------------------- points

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
      Rates rates = withDriverRates(cpuRatesOnExecutors(sc, tasks, g.rows(), POINT_RATE_COLUMNS,
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
      double steady = SparkOverheadBench.median(Arrays.copyOfRange(secs, 1, batches));
      double[] c = columnMedians(comps.subList(1, batches));
      List<String> row = new ArrayList<>(List.of(master, "" + executors, "" + cores,
          "" + Runtime.getRuntime().availableProcessors(), "" + mib, "" + g.rows(),
          "" + g.cols(), "" + parts, kind, "" + batch, "" + batches, fmt(steady), fmt(oh[0]),
          fmt(oh[1])));
      for (double x : c) {
        row.add(fmt(x));
      }
      row.add(fmt(SparkOverheadBench.load1()));
      for (double x : rates.values()) {
        row.add(fmt(x));
      }
      if (!Files.exists(out)) {
        List<String> h = new ArrayList<>(List.of(POINT_COLUMNS));
        for (String n : Rates.names()) {
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
    double t1 = time(7, () -> sc.parallelize(a.subList(0, n), n).map(x -> x).collect());
    double t4 = time(7, () -> sc.parallelize(a, 4 * n).map(x -> x).collect());
    double perTask = Math.max(0, (t4 - t1) / (3.0 * n));
    return new double[] {Math.max(0, t1 - n * perTask), perTask};
  }

  static String fmt(double x) {
    return String.format(Locale.ROOT, "%.6g", x);
  }

  // ---------------------------------------------------------------- the model

  /** One configuration to predict. */
  record Config(int executors, int cores, int hostCores, long rawBytes, int rows, String kind,
      int batch, boolean local, double jobOverhead, double taskOverhead, long heapPerExecutor,
      int partitions) {
    /** The planner's partitions ({@code ColumnPartitioning.plan(cols, E c, 1)}). */
    Config(int executors, int cores, int hostCores, long rawBytes, int rows, String kind,
        int batch, boolean local, double jobOverhead, double taskOverhead, long heapPerExecutor) {
      this(executors, cores, hostCores, rawBytes, rows, kind, batch, local, jobOverhead,
          taskOverhead, heapPerExecutor, 0);
    }
  }

  /** A prediction: seconds per batch by term, the partitioning, the memory plan's verdict. */
  record Prediction(Map<String, Double> terms, int partitions, int slots, int rows, int cols,
      long resultBytes, long broadcastBytes, String memory) {
    double seconds() {
      return terms.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    String limit() {
      if (memory != null) {
        return "memory";
      }
      return terms.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }
  }

  /**
   * Seconds per batch of {@code c.batch} queries: driver expansion (GGSWs; all of it in
   * classic-driver), the broadcast (driver write; executors fetch, torrent rounds of log2(E+1);
   * none in local mode, which hands the batch over by reference), executor expansion (each
   * executor expands every query once, its cores in parallel), the task waves (phase 1 and
   * phase 2 of the widest partition, CPU shared when E x c exceeds the host's cores), the fold
   * above the partitions (tree stages of fan-in 8 and the driver's merge), the results' transfer
   * and the master's job and task overhead.
   */
  static Prediction predict(Config c, Rates r) {
    boolean compact = c.kind().equals("compact");
    Params p = compact ? CP.server() : P;
    int rs = p.bytesPerPolynomial();
    long count = (c.rawBytes() + rs - 1) / rs;
    Geometry g = c.rows() > 0 ? Geometry.of(p, count, rs, c.rows())
        : Geometry.choose(p, count, rs, 1024);
    int slots = c.executors() * c.cores();
    // a measured point is predicted with the partitions it ran (the planner of its day)
    ColumnPartitioning parts = c.partitions() > 0
        ? ColumnPartitioning.plan(g.cols(), c.partitions(), 1, c.partitions())
        : ColumnPartitioning.plan(g.cols(), slots, 1);
    int np = parts.count();
    int b = c.batch();
    int levels = Geometry.levels(g.cols());
    boolean onDriver = c.kind().equals("classic-driver");
    long expanded = MemoryPlan.expandedQueryBytes(p, g);
    long wire = compact ? Wire.maxCompactQueryBytes(CP, g) + Wire.maxEvaluationKeysBytes(CP)
        : Wire.maxQueryBytes(p, g);
    long bcastBytes = (long) b * (onDriver ? expanded : wire);
    Map<String, Double> t = new LinkedHashMap<>();
    double expandQuery = g.rows() * (compact ? r.compactRow() : r.expandRow());
    // classic queries in local mode: the driver takes the GGSWs from the tasks' expansions
    t.put("driver expansion", onDriver ? b * expandQuery : c.local() && !compact ? 0
        : b * levels * (compact ? r.compactGgswLevel() : r.ggswLevel()));
    double fetchRounds = Math.ceil(Math.log(c.executors() + 1) / Math.log(2));
    t.put("broadcast", c.local() ? 0 : bcastBytes / r.bcastWrite()
        + fetchRounds * bcastBytes / r.net() + (onDriver ? bcastBytes / r.bcastWrite() : 0));
    // oversubscription: the executors' threads share the host's cores (local-cluster here)
    double share = Math.max(1.0, (double) slots / Math.max(1, c.hostCores()));
    // an executor's tasks expand different queries at once: as many as it runs tasks
    int tasksPerExecutor = Math.max(1, Math.min(c.cores(), (np + c.executors() - 1)
        / c.executors()));
    t.put("executor expansion", onDriver ? 0
        : Math.ceil((double) b / tasksPerExecutor) * expandQuery * share);
    int waves = (np + slots - 1) / slots;
    double rawPerCol = (double) g.rawBytes() / g.cols();
    int w = parts.width();
    t.put("phase 1", waves * phase1Seconds(p, g, parts, b, r.phase1(b, compact) / rawPerCol,
        r.columns(), r.pass(b, compact)) * share);
    t.put("phase 2", waves * b * g.planes() * (double) (w - 1) * r.cmux(compact) * share);
    // the fold above the partitions: tree stages while more than FAN_IN spans, then the driver
    double fold = 0;
    int n = np;
    int stages = 0;
    while (n > FAN_IN) {
      n = (n + FAN_IN - 1) / FAN_IN;
      stages++;
      // one task per group merges its FAN_IN spans of about 2 nodes each
      fold += b * g.planes() * 2.0 * FAN_IN * r.cmux(compact) * share;
    }
    fold += b * g.planes() * 2.0 * n * r.cmux(compact); // the driver's merge of the spans left
    t.put("fold", fold);
    long glwe = 2L * p.glweLimbs() * p.n() * 2; // 16-bit digits
    long resultBytes = (long) np * b * g.planes() * 2 * glwe;
    t.put("results", c.local() ? 0 : (double) resultBytes / r.net());
    t.put("overhead", (1 + stages) * c.jobOverhead() + waves * c.taskOverhead() * Math.min(
        np, slots) / Math.max(1, Math.min(np, c.hostCores())));
    String memory = null;
    if (c.heapPerExecutor() > 0) {
      long usable = c.heapPerExecutor() - MemoryPlan.RESERVED;
      MemoryPlan plan = MemoryPlan.of(p, g, parts, b, compact ? CP : null, new MemoryPlan.ExecutorResources(c.executors(), c.cores(), usable,
              (long) (0.6 * usable), 0.6, 0, c.local()));
      try {
        plan.check();
      } catch (IllegalArgumentException e) {
        // the heap that passes all three of MemoryPlan's checks
        double need = Math.max(plan.totalNeed() / MemoryPlan.HEAP_SHARE, Math.max(
            (plan.pvecBytesPerExecutor() + plan.broadcastHeld()) / 0.6, plan.cacheNeed() / 0.4))
            + MemoryPlan.RESERVED;
        memory = String.format(Locale.ROOT, "needs %.0f GiB/executor", need / (1L << 30));
      }
    }
    return new Prediction(t, np, slots, g.rows(), g.cols(), resultBytes, bcastBytes, memory);
  }

  /**
   * Seconds of phase 1 of the slowest partition for a batch of {@code b} queries on one core,
   * at {@code colsPerSecond} columns per second per query as measured in one pass of {@code
   * rateColumns} columns, a pass costing {@code passSeconds} beyond its columns at this batch.
   * Each aligned block of a partition ({@link ColumnTree#blocks}) is answered in passes of {@link
   * PirServer#chunkColumns} columns, and every pass reads each query's phase-1 matrix: with T =
   * b rateColumns / colsPerSecond the measured pass, a partition of w columns in k passes costs
   * {@code w (T - passSeconds) / rateColumns + k passSeconds}. Without a measured pass cost (NaN;
   * rates of older files) the pass is priced by its bytes: a matrix ({@code m = 2 glweLimbs}
   * PVEC columns' worth per plane and query) like a PVEC byte of the pass, arithmetic included,
   * an upper bound at large batches.
   */
  static double phase1Seconds(Params p, Geometry g, ColumnPartitioning parts, int b,
      double colsPerSecond, double rateColumns, double passSeconds) {
    ColumnTree tree = new ColumnTree(g.cols());
    double m = 2.0 * p.glweLimbs();
    double measured = b * rateColumns / colsPerSecond;
    boolean byBytes = Double.isNaN(passSeconds);
    double pass = byBytes ? 0 : Math.min(passSeconds, measured);
    double worst = 0;
    for (int i = 0; i < parts.count(); i++) {
      int first = parts.first(i);
      int end = first + parts.size(i);
      int k = phase1Passes(tree, first, end);
      double w = parts.size(i);
      worst = Math.max(worst, byBytes
          ? b / colsPerSecond * (w + k * b * m) / (1 + b * m / rateColumns)
          : w * (measured - pass) / rateColumns + k * pass);
    }
    return worst;
  }

  /** Phase-1 passes over {@code [first, end)}: per aligned block, its columns over its chunk. */
  static int phase1Passes(ColumnTree tree, int first, int end) {
    int passes = 0;
    for (int[] blk : tree.blocks(first, end)) {
      int len = (int) Math.min(end, (long) blk[1] + (1L << blk[0])) - blk[1];
      int chunk = PirServer.chunkColumns(len);
      passes += (len + chunk - 1) / chunk;
    }
    return passes;
  }

  // ---------------------------------------------------------------- report

  static void report(Path ratesFile, Path points, Path out, String commands) throws Exception {
    Rates r = Rates.read(ratesFile);
    List<String> lines = Files.readAllLines(points);
    String[] head = lines.get(0).split("\t");
    Map<String, Integer> col = new LinkedHashMap<>();
    for (int i = 0; i < head.length; i++) {
      col.put(head[i], i);
    }
    StringBuilder md = new StringBuilder();
    md.append("# Cost model of the `answer` job\n\n");
    md.append("Generated by `deploy/costmodel.sh` (`CostModel report`; do not edit by hand)"
        + " from the rates in `deploy/costmodel/rates.properties` and the points in"
        + " `deploy/costmodel/points.tsv`, measured on ").append(cpu()).append(", JDK ")
        .append(System.getProperty("java.runtime.version")).append(".\n\n");
    md.append("""
        Per batch of b queries on E executors of c cores, the sum of these terms (sizes from the
        project's own code: `Wire.maxQueryBytes`, `Wire.maxCompactQueryBytes` +
        `Wire.maxEvaluationKeysBytes`, `MemoryPlan.expandedQueryBytes`, the real partition count
        of `ColumnPartitioning.plan(cols, E c, 1)`: balanced ranges no narrower than
        `PirServer.chunkColumns` unless a core would idle):

        | term | formula |
        |---|---|
        | driver expansion | classic/compact: b x levels x (GGSW s per level) (classic in local mode: 0, the GGSWs come from the tasks' expansions); classic-driver: b x rows x (expansion s per row) |
        | broadcast | cluster: bytes / write rate + ceil(log2(E+1)) x bytes / network (torrent rounds; assumed) (+ deserialization in classic-driver); local mode: 0 (hand-off by reference); bytes = b x wire query (+ the client's evaluation keys, compact) or b x expanded query (classic-driver), + b x (levels above the partitions) x one GGSW level when partitions > 8 (the executor-side fold's GGSWs) |
        | executor expansion | ceil(b / t) x rows x (expansion s per row) x oversubscription, t = min(c, partitions per executor) |
        | phase 1 | waves x (slowest partition: w (T - P) / R + k P) x oversubscription; w columns in k passes (one per chunk of each aligned block), T the measured time of one pass of R columns at batch b, P the measured cost of a pass beyond its columns at batch b (a pass reads every query's matrix) |
        | phase 2 | waves x b x planes x (width - 1) x CMux x oversubscription |
        | fold | per tree stage (fan-in 8) b x planes x 2 x 8 CMux, then the driver's merge of n <= 8 spans: b x planes x 2 n CMux |
        | results | cluster: partitions x b x planes x 2 GLWEs / network |
        | overhead | (1 + tree stages) x (empty job on the master) + waves x (per task on the master) |

        waves = ceil(partitions / (E c)); oversubscription = max(1, E c / host cores) (local-cluster
        on this 2-core machine: 3 executors of 1 core plus the driver share 2 cores).
        Not in the steady state: the first batch's JIT warm-up and, per executor and client, the
        preparation of the evaluation keys (`keys_prepare_s`, then cached).
        Memory feasibility per executor is `MemoryPlan.check` (cached PVECs of the busiest
        executor, the batch's broadcast held twice: torrent pieces and value, the query cache,
        the phase-1 scratch). Narrow partitions pay for their passes: a partition of a few
        columns reads every query's matrix once per aligned block of it; the cost of a pass is
        measured (one pass of R columns against one pass of one column, same queries).

        """);
    md.append("## Rates (per core with every core of the host busy, measured by `CostModel"
        + " calibrate`; used for the grid)\n\n"
        + "Each point below is predicted with the rates measured just before it (columns `r_*`"
        + " of points.tsv): the CPU rates in its own executors, by as many concurrent tasks as it"
        + " runs on the host's cores (points measured before 2026-12-01 22:30: on one thread of"
        + " the driver), broadcast and network on its driver; the two cores of this machine are"
        + " shared with other work, so rates measured minutes apart differ by more than the"
        + " model's terms.\n\n"
        + "| rate | value |\n|---|---:|\n");
    String[] k = Rates.names();
    double[] v = r.values();
    for (int i = 0; i < k.length; i++) {
      md.append("| ").append(k[i]).append(" | ").append(fmt(v[i])).append(" |\n");
    }
    md.append("\n## Check against measured points\n\n"
        + "Measured: median seconds per batch after the first (the first carries the JIT"
        + " warm-up and, for compact queries, the keys' preparation). Job and task overheads are"
        + " measured per master with empty jobs (the platform, not the PIR work). Error ="
        + " predicted / measured - 1. Each point is predicted with the partitions it ran;"
        + " \"model\" is what today's planner makes of it (points measured before the"
        + " balanced planner ran fewer partitions).\n\n"
        + "| master | E x c | DB MiB | rows x cols | partitions | kind | batch | measured s |"
        + " predicted s | error | largest predicted term | results to driver or shuffle, KB"
        + " measured / predicted | measured components | load |\n"
        + "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---|---:|\n");
    List<Double> errs = new ArrayList<>();
    Map<String, List<double[]>> checked = new LinkedHashMap<>();
    for (String l : lines.subList(1, lines.size())) {
      String[] f = l.split("\t");
      java.util.function.Function<String, String> s = name -> f[col.get(name)];
      ToDoubleFunction<String> d = name -> Double.parseDouble(s.apply(name));
      String master = s.apply("master");
      Config c = new Config((int) d.applyAsDouble("executors"), (int) d.applyAsDouble("cores"),
          (int) d.applyAsDouble("host_cores"), (long) d.applyAsDouble("mib") << 20,
          (int) d.applyAsDouble("rows"), s.apply("kind"), (int) d.applyAsDouble("batch"),
          master.startsWith("local["), d.applyAsDouble("job_overhead_s"),
          d.applyAsDouble("task_overhead_s"), 0, (int) d.applyAsDouble("partitions"));
      Prediction pr = predict(c, pointRates(f, col, r));
      int planned = ColumnPartitioning.plan(pr.cols(), c.executors() * c.cores(), 1).count();
      double meas = d.applyAsDouble("seconds");
      double err = pr.seconds() / meas - 1;
      errs.add(Math.abs(err));
      checked.computeIfAbsent(master.replaceAll("\\[.*", "") + " " + c.kind(),
          x -> new ArrayList<>()).add(new double[] {meas, pr.seconds()});
      md.append(String.format(Locale.ROOT, "| `%s` | %d x %d | %s | %d x %d | %d (model %d) |"
          + " %s | %d | %.3f | %.3f | %+.0f%% | %s %.0f%% | %.0f / %.0f | task run %.0f ms,"
          + " sched. %.0f ms,"
          + " broadcast %.1f MB, driver job %.0f ms | %s |%n", master, c.executors(), c.cores(),
          s.apply("mib"), pr.rows(), pr.cols(), (int) d.applyAsDouble("partitions"),
          planned, c.kind(), c.batch(), meas, pr.seconds(), 100 * err, pr.limit(),
          100 * pr.terms().get(pr.limit()) / pr.seconds(), d.applyAsDouble("result_bytes") / 1e3,
          pr.resultBytes() / 1e3, d.applyAsDouble("task_run_ms"),
          d.applyAsDouble("sched_delay_ms"), d.applyAsDouble("bcast_bytes") / 1e6,
          d.applyAsDouble("drv_job_ms"), s.apply("load1")));
    }
    md.append(String.format(Locale.ROOT, "%nMedian absolute error over %d points: %.0f%%.%n",
        errs.size(), 100 * SparkOverheadBench.median(errs.stream().mapToDouble(x -> x)
            .toArray())));
    CostModelCharts.check(arrays(checked), out.resolveSibling("costmodel/check.png"));
    md.append("\n![predicted against measured](costmodel/check.png)\n");
    md.append("\nPredicted terms of each point (seconds):\n\n| point | ");
    List<String> names = new ArrayList<>(predict(new Config(1, 1, 1, 1 << 26, 0, "classic", 1,
        true, 0, 0, 0), r).terms().keySet());
    md.append(String.join(" | ", names)).append(" |\n|---|").append("---:|".repeat(names.size()))
        .append('\n');
    for (String l : lines.subList(1, lines.size())) {
      String[] f = l.split("\t");
      ToDoubleFunction<String> d = name -> Double.parseDouble(
          f[col.get(name)]);
      String master = f[col.get("master")];
      Config c = new Config((int) d.applyAsDouble("executors"), (int) d.applyAsDouble("cores"),
          (int) d.applyAsDouble("host_cores"), (long) d.applyAsDouble("mib") << 20,
          (int) d.applyAsDouble("rows"), f[col.get("kind")], (int) d.applyAsDouble("batch"),
          master.startsWith("local["), d.applyAsDouble("job_overhead_s"),
          d.applyAsDouble("task_overhead_s"), 0, (int) d.applyAsDouble("partitions"));
      Prediction pr = predict(c, pointRates(f, col, r));
      md.append("| `").append(master).append("` ").append(c.kind()).append(" b=")
          .append(c.batch());
      for (String nm : names) {
        md.append(" | ").append(String.format(Locale.ROOT, "%.3f", pr.terms().get(nm)));
      }
      md.append(" |\n");
    }
    Map<String, List<double[]>> gridLines = grid(md, r, lines, col);
    CostModelCharts.grid(arrays(gridLines), out.resolveSibling("costmodel/grid.png"));
    md.append("\n![predicted queries/s](costmodel/grid.png)\n");
    if (!commands.isEmpty()) {
      md.append("\n## Commands\n\n```\n").append(commands.replace("\\n", "\n")).append("\n```\n");
    }
    Files.writeString(out, md.toString());
    System.out.print(md);
  }

  /** The rates measured in a point's own JVM ({@code r_*} columns), else {@code fallback}. */
  static Rates pointRates(String[] f, Map<String, Integer> col, Rates fallback) {
    String[] k = Rates.names();
    double[] v = fallback.values();
    for (int i = 0; i < k.length; i++) {
      Integer c = col.get("r_" + k[i]);
      if (c != null && c < f.length && !f[c].equals("NaN")) {
        v[i] = Double.parseDouble(f[c]);
      } else if (k[i].equals("rate_columns") && col.containsKey("r_load1")) {
        v[i] = POINT_RATE_COLUMNS; // points written before the field measured at this width
      } else if (k[i].contains("pass_s") && col.containsKey("r_load1")) {
        v[i] = Double.NaN; // points written before the pass was measured
      }
    }
    return new Rates(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11],
        v[12], v[13], v[14], v[15], v[16], v[17], v[18]);
  }

  private static Map<String, double[][]> arrays(Map<String, List<double[]>> m) {
    Map<String, double[][]> a = new LinkedHashMap<>();
    m.forEach((k, v) -> a.put(k, v.toArray(new double[0][])));
    return a;
  }

  /**
   * The prediction grid: 10..1000 executors of 4 cores and 64 GiB, 10 GiB..10 TiB, batch 4;
   * returns the feasible cells' (executors, queries/s) per database size and kind.
   */
  static Map<String, List<double[]>> grid(StringBuilder md, Rates r, List<String> lines,
      Map<String, Integer> col) {
    Map<String, List<double[]>> plotted = new LinkedHashMap<>();
    // per-job and per-task overheads: the largest measured on a multi-executor master
    double job = 0;
    double task = 0;
    for (String l : lines.subList(1, lines.size())) {
      String[] f = l.split("\t");
      if (f[col.get("master")].startsWith("local-cluster")) {
        job = Math.max(job, Double.parseDouble(f[col.get("job_overhead_s")]));
        task = Math.max(task, Double.parseDouble(f[col.get("task_overhead_s")]));
      }
    }
    int cores = 4;
    long heap = 64L << 30;
    int batch = 4;
    md.append(String.format(Locale.ROOT, "%n## Predicted (not measured): executors of %d cores"
        + " and %d GiB, batches of %d%n%nPer cell: queries/s for classic queries (executor"
        + " expansion) / compact queries, and the limiting term of each (memory: MemoryPlan"
        + " refuses the job; the cell names the heap per executor it would need; \"k partitions for"
        + " n cores\": fewer columns than cores, so cores idle)."
        + " Overheads"
        + " per job %.3f s and per task %.4f s (the local-cluster points'); network = the"
        + " measured loopback rate, which a real network is slower than. The CPU rates were"
        + " measured at a load average of %.1f on 2 shared cores: absolute queries/s are"
        + " pessimistic by the same factor in every CPU term; the partition counts, memory"
        + " verdicts and byte counts do not depend on it.%n%n", cores, heap >> 30, batch, job,
        task, r.load()));
    int[] ex = {10, 30, 100, 300, 1000};
    long[] dbs = {10L << 30, 100L << 30, 1L << 40, 10L << 40};
    md.append("| DB \\ executors |");
    for (int e : ex) {
      md.append(' ').append(e).append(" |");
    }
    md.append("\n|---|").append("---|".repeat(ex.length)).append('\n');
    for (long db : dbs) {
      md.append("| ").append(db >= 1L << 40 ? (db >> 40) + " TiB" : (db >> 30) + " GiB")
          .append(" |");
      for (int e : ex) {
        Prediction a = predict(new Config(e, cores, e * cores, db, 0, "classic", batch, false,
            job, task, heap), r);
        Prediction c = predict(new Config(e, cores, e * cores, db, 0, "compact", batch, false,
            job, task, heap), r);
        md.append(' ').append(cell(a, batch)).append(" / ").append(cell(c, batch)).append(" |");
        String size = db >= 1L << 40 ? (db >> 40) + " TiB" : (db >> 30) + " GiB";
        for (Prediction p : new Prediction[] {a, c}) {
          List<double[]> pts = plotted.computeIfAbsent(size + (p == a ? " classic" : " compact"),
              x -> new ArrayList<>());
          if (p.memory() == null) {
            pts.add(new double[] {e, batch / p.seconds()});
          }
        }
      }
      md.append('\n');
    }
    return plotted;
  }

  private static String cell(Prediction p, int batch) {
    if (p.memory() != null) {
      return "memory (" + p.memory() + ")";
    }
    return String.format(Locale.ROOT, "%.2f q/s, %s %.0f%%%s", batch / p.seconds(), p.limit(),
        100 * p.terms().get(p.limit()) / p.seconds(), p.partitions() < p.slots()
            ? " (" + p.partitions() + " partitions for " + p.slots() + " cores)" : "");
  }
}
