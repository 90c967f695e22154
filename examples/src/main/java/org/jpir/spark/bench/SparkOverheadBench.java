package org.jpir.spark.bench;

import java.io.BufferedWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.VoidFunction;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.BatchSteps;
import org.jpir.core.server.FoldSpan;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.spark.SparkSetup;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.PreparedPartition;
import org.jpir.spark.server.SparkBatchMetrics;
import org.jpir.spark.source.SyntheticSourceFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The Spark overhead benchmark (a documented harness, not JMH: each point is a whole batch of a
 * fraction of a second to seconds). In each of {@code forks} fresh JVMs it prepares one synthetic
 * database in Spark local mode with T threads and T partitions, takes the very {@link
 * PreparedPartition} objects Spark cached (checked by identity) and then, per batch size and
 * round, runs one Spark batch and one plain-thread batch back to back, alternating which goes
 * first: the plain run does the same work on T plain threads (each partition's phase 1 and
 * phase 2 with {@link BatchSteps#answerSpan}, then the driver's merge; with {@code --path client} also
 * the expansion of the seeded queries, one query per thread task). Every answer is checked
 * against the generator once per batch size. The parent JVM reports per batch size the median of
 * the paired ratio (plain seconds / Spark seconds = Spark's share of the plain-thread throughput)
 * with a two-level bootstrap 95% interval (forks, then rounds), and the medians of Spark's own
 * components: scheduler delay, task deserialization, GC, task run time against the plain threads'
 * compute time, result and broadcast bytes, and the driver's broadcast, job, merge and
 * metrics-wait times; every round records {@code /proc/loadavg}.
 *
 * <p>Usage: {@code SparkOverheadBench [--mib 256] [--rows R (default: Geometry.choose)]
 * [--batches 1,4] [--threads 2] [--rounds 7]
 * [--forks 3] [--path prepared|client] [--tsv FILE]}.
 */
public final class SparkOverheadBench {
  private SparkOverheadBench() {}

  /** Columns of one round's row, in the order written. */
  static final String[] COLUMNS = {"fork", "batch", "round", "spark_first", "spark_s", "plain_s",
      "tasks", "stages", "sched_delay_ms", "deser_ms", "gc_ms", "task_run_ms", "plain_cpu_ms",
      "result_bytes", "bcast_bytes", "bcast_fetched_bytes", "drv_bcast_ms", "drv_job_ms",
      "drv_merge_ms", "drv_metrics_ms", "plain_merge_ms", "task_span_ms", "longest_task_ms",
      "load1"};

  /** Options of one run. */
  record Opts(long mib, int rows, int[] batches, int threads, int rounds, int forks,
      String path, Path tsv, int fork) {
    /**
     * The command line of fork {@code f}: these options (not the user's words, which are
     * parsed once), run as fork f, appending its rows to the parent's {@code rowsFile}.
     */
    List<String> forkArgs(int f, Path rowsFile) {
      return List.of("--mib", Long.toString(mib), "--rows", Integer.toString(rows), "--batches",
          Arrays.stream(batches).mapToObj(Integer::toString)
              .collect(Collectors.joining(",")),
          "--threads", Integer.toString(threads), "--rounds", Integer.toString(rounds),
          "--forks", Integer.toString(forks), "--path", path, "--fork-index", Integer.toString(f),
          "--tsv", rowsFile.toString());
    }
  }

  /** The command line (picocli): the options of {@link Opts}. */
  @Command(name = "SparkOverheadBench", mixinStandardHelpOptions = true,
      versionProvider = JpirVersion.class,
      description = "Spark against plain threads on the same"
      + " prepared partitions, interleaved, in several JVMs.")
  static final class Cli implements Callable<Integer> {
    @Option(names = "--mib", description = "raw database size (default: ${DEFAULT-VALUE})")
    long mib = 256;

    @Option(names = "--rows", description = "rows of the grid (default: Geometry.choose)")
    int rows;

    @Option(names = "--batches", split = ",", description = "batch sizes (default: 1,4)")
    int[] batches = {1, 4};

    @Option(names = "--threads", description = "plain threads (default: ${DEFAULT-VALUE})")
    int threads = 2;

    @Option(names = {"--rounds", "--reps"}, description = "rounds per fork (default:"
        + " ${DEFAULT-VALUE})")
    int rounds = 7;

    @Option(names = "--forks", description = "JVMs (default: ${DEFAULT-VALUE})")
    int forks = 3;

    @Option(names = "--path", description = "prepared or client (default: ${DEFAULT-VALUE})")
    String path = "prepared";

    @Option(names = "--tsv", description = "the rows' file (default: a temporary file)")
    Path tsv;

    @Option(names = "--fork-index", description = "internal: run as fork K")
    int fork = -1;

    @Override
    public Integer call() throws Exception {
      run(opts());
      return 0;
    }

    /** The parsed options. */
    Opts opts() {
      return new Opts(mib, rows, batches, threads, rounds, forks, path, tsv, fork);
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new Cli()).execute(args));
  }

  static void run(Opts o) throws Exception {
    if (!o.path().equals("prepared") && !o.path().equals("client")) {
      throw new IllegalArgumentException("--path " + o.path() + ": prepared or client");
    }
    if (o.fork() >= 0) {
      child(o);
    } else {
      parent(o);
    }
  }

  /** Runs the forks one after the other, then summarizes their rows. */
  static void parent(Opts o) throws Exception {
    Path tsv = o.tsv() != null ? o.tsv() : Files.createTempFile("jpir-overhead", ".tsv");
    Files.writeString(tsv, String.join("\t", COLUMNS) + "\n");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> jvm = ManagementFactory.getRuntimeMXBean().getInputArguments();
    for (int f = 0; f < o.forks(); f++) {
      List<String> cmd = new ArrayList<>();
      cmd.add(java);
      cmd.addAll(jvm);
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(SparkOverheadBench.class.getName());
      cmd.addAll(o.forkArgs(f, tsv)); // every fork appends to the parent's file
      Process pr = new ProcessBuilder(cmd).inheritIO().start();
      int rc = pr.waitFor();
      if (rc != 0) {
        throw new IllegalStateException("fork " + f + " exited with " + rc);
      }
    }
    System.out.print(OverheadSummary.summary(Files.readAllLines(tsv), o));
    System.out.println("rows: " + tsv);
  }

  /** One fork: prepares once, then the interleaved rounds; appends its rows to the TSV. */
  static void child(Opts o) throws Exception {
    Params p = Presets.ONIONPIR_4096;
    int recordSize = p.bytesPerPolynomial();
    long count = (o.mib() << 20) / recordSize;
    SyntheticSourceFactory src = new SyntheticSourceFactory(count, recordSize, 99);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    Geometry g = o.rows() > 0 ? Geometry.of(p, count, recordSize, o.rows())
        : Geometry.choose(p, count, recordSize, 1024);
    System.out.printf(Locale.ROOT, "bench fork %d: %d MiB raw, %d rows x %d columns, %d"
        + " threads/partitions, path %s, %s%n", o.fork(), o.mib(), g.rows(), g.cols(),
        o.threads(), o.path(), System.getProperty("java.runtime.version"));
    SecureRandom random = new SecureRandom();
    PirClient client = new PirClient(p, g, SecretKey.generate(p, random), random);
    QueryExpander ex = new QueryExpander(p);
    int maxB = Arrays.stream(o.batches()).max().orElse(1);
    long[] idx = new long[maxB];
    List<ClientQuery> clientQs = new ArrayList<>();
    List<PreparedQuery> all = new ArrayList<>();
    for (int i = 0; i < maxB; i++) {
      idx[i] = (i * 7919L + 31L * o.fork()) % count;
      clientQs.add(client.query(idx[i]));
      if (o.path().equals("prepared")) {
        all.add(ex.expand(clientQs.get(i), g));
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(o.threads());
    try (JavaSparkContext sc = new JavaSparkContext(
        SparkSetup.conf("jpir overhead bench", "local[" + o.threads() + "]"));
        BufferedWriter out = Files.newBufferedWriter(o.tsv(),
            StandardOpenOption.APPEND)) {
      sc.setLogLevel("WARN");
      // the memory plan checks the largest batch
      DistributedPirServer server = DistributedPirServer.prepare(sc, p, g, src, o.threads(),
          new DistributedPirServer.Workload(maxB, null));
      PreparedPartition[] parts = cachedObjects(server);
      for (int b : o.batches()) {
        List<PreparedQuery> qs = o.path().equals("prepared") ? all.subList(0, b) : null;
        List<ClientQuery> cqs = clientQs.subList(0, b);
        // warm-up and correctness of both
        check(spark(server, qs, cqs, null), client, truth, idx);
        check(plain(p, g, parts, qs, cqs, pool, new long[2]), client, truth, idx);
        for (int r = 0; r < o.rounds(); r++) {
          boolean sparkFirst = (r + o.fork()) % 2 == 0;
          DistributedPirServer.BatchStats[] st = new DistributedPirServer.BatchStats[1];
          long[] plainCpu = new long[2];
          double sparkS = 0;
          double plainS = 0;
          for (int k = 0; k < 2; k++) {
            if ((k == 0) == sparkFirst) {
              long t0 = System.nanoTime();
              spark(server, qs, cqs, st);
              sparkS = (System.nanoTime() - t0) / 1e9;
            } else {
              long t0 = System.nanoTime();
              plain(p, g, parts, qs, cqs, pool, plainCpu);
              plainS = (System.nanoTime() - t0) / 1e9;
            }
          }
          SparkBatchMetrics m = st[0].spark();
          DistributedPirServer.DriverTimes d = st[0].driver();
          double[] row = {o.fork(), b, r, sparkFirst ? 1 : 0, sparkS, plainS, m.tasks(),
              m.stages(), m.schedulerDelayMs(), m.deserializeMs(), m.gcMs(), m.runMs(),
              plainCpu[0] / 1e6, m.resultBytes(), m.broadcastBytes(), m.broadcastFetchedBytes(),
              d.broadcastNanos() / 1e6, d.jobNanos() / 1e6, d.mergeNanos() / 1e6,
              d.metricsNanos() / 1e6, plainCpu[1] / 1e6, m.taskSpanMs(), m.longestTaskMs(),
              BenchStats.load1()};
          StringBuilder line = new StringBuilder();
          for (int i = 0; i < row.length; i++) {
            line.append(i == 0 ? "" : "\t").append(String.format(Locale.ROOT, "%.6g", row[i]));
          }
          out.write(line.append('\n').toString());
          out.flush();
          System.out.printf(Locale.ROOT, "fork %d batch %d round %d: Spark %.3f s, plain %.3f s,"
              + " ratio %.3f, load %.2f%n", o.fork(), b, r, sparkS, plainS, plainS / sparkS,
              row[row.length - 1]);
        }
      }
    } finally {
      pool.shutdown();
    }
  }

  private static Answer[] spark(DistributedPirServer server, List<PreparedQuery> qs,
      List<ClientQuery> cqs, DistributedPirServer.BatchStats[] st) {
    // Spark runs the one answer path (executor expansion) whatever the plain side's path
    ClassicQueries kind = new ClassicQueries(Presets.byId(cqs.get(0).paramsId()));
    DistributedPirServer.BatchResult r = server.answer(cqs.stream()
        .map(q -> kind.accept(q, server.geometry())).toList());
    if (st != null) {
      st[0] = r.stats();
    }
    return r.answers();
  }

  /** Partitions handed over by the local-mode executor, by index. */
  static final Map<Integer, PreparedPartition> HANDED = new ConcurrentHashMap<>();

  /** Stores each cached partition object under its index (runs in this JVM in local mode). */
  static final class Hand implements VoidFunction<PreparedPartition> {
    private static final long serialVersionUID = 1L;

    @Override
    public void call(PreparedPartition pp) {
      HANDED.put(pp.index(), pp);
    }
  }

  /** Counts the cached partitions that are the very objects handed over before. */
  static final class Same implements VoidFunction<PreparedPartition> {
    private static final long serialVersionUID = 1L;

    @Override
    public void call(PreparedPartition pp) {
      if (HANDED.get(pp.index()) != pp) {
        throw new IllegalStateException("partition " + pp.index() + " is not the cached object");
      }
    }
  }

  /** The cached partition objects of {@code server} (local mode only), checked by identity. */
  static PreparedPartition[] cachedObjects(DistributedPirServer server) {
    HANDED.clear();
    server.cachedPartitions().foreach(new Hand());
    server.cachedPartitions().foreach(new Same());
    PreparedPartition[] out = new PreparedPartition[server.partitioning().count()];
    for (int i = 0; i < out.length; i++) {
      out[i] = HANDED.get(i);
      if (out[i] == null) {
        throw new IllegalStateException("partition " + i + " was not handed over (local mode?)");
      }
    }
    return out;
  }

  /**
   * The same split of work as the Spark job, on plain threads over the same partition objects;
   * adds the threads' summed compute time to {@code nanos[0]} and the merge time to {@code
   * nanos[1]}. With {@code qs} null the seeded queries {@code cqs} are expanded first, one per
   * thread task.
   */
  static Answer[] plain(Params p, Geometry g, PreparedPartition[] parts, List<PreparedQuery> qs,
      List<ClientQuery> cqs, ExecutorService pool, long[] nanos) throws Exception {
    long[] cpu = new long[1];
    PreparedQuery[] prepared;
    if (qs != null) {
      prepared = qs.toArray(new PreparedQuery[0]);
    } else {
      List<Future<PreparedQuery>> ex = new ArrayList<>();
      for (ClientQuery q : cqs) {
        byte[] wire = Wire.writeQuery(q);
        ex.add(pool.submit(() -> {
          long t0 = System.nanoTime();
          PreparedQuery pq = new QueryExpander(p).expand(Wire.readQuery(wire, p), g);
          synchronized (cpu) {
            cpu[0] += System.nanoTime() - t0;
          }
          return pq;
        }));
      }
      prepared = new PreparedQuery[cqs.size()];
      for (int i = 0; i < prepared.length; i++) {
        prepared[i] = ex.get(i).get();
      }
    }
    List<Future<FoldSpan>> fs = new ArrayList<>();
    for (PreparedPartition pp : parts) {
      fs.add(pool.submit(() -> {
        long t0 = System.nanoTime();
        FoldSpan s = BatchSteps.answerSpan(new PirServer(p), pp.database(), prepared,
            pp.index(), new PirServer.Timings(), 0, "plain");
        synchronized (cpu) {
          cpu[0] += System.nanoTime() - t0;
        }
        return s;
      }));
    }
    List<FoldSpan> spans = new ArrayList<>();
    for (Future<FoldSpan> f : fs) {
      spans.add(f.get());
    }
    long tm = System.nanoTime();
    PirServer driver = new PirServer(p);
    PreparedGgsw[][] ggsw = new PreparedGgsw[prepared.length][];
    for (int qi = 0; qi < prepared.length; qi++) {
      ggsw[qi] = prepared[qi].ggsw();
    }
    FoldSpan root = BatchSteps.mergeSpans(driver, g.cols(), spans, 0, ggsw, "plain");
    Answer[] out = new Answer[prepared.length];
    for (int qi = 0; qi < prepared.length; qi++) {
      Glwe[] roots = column(root.nodes()[qi]);
      driver.selectTailHalf(roots, g, ggsw[qi]); // as BatchSteps.root does
      out[qi] = driver.toAnswer(roots, g);
    }
    nanos[0] += cpu[0];
    nanos[1] += System.nanoTime() - tm;
    return out;
  }

  /** The root of every plane. */
  private static Glwe[] column(Glwe[][] planeNodes) {
    Glwe[] roots = new Glwe[planeNodes.length];
    for (int pl = 0; pl < roots.length; pl++) {
      roots[pl] = planeNodes[pl][0];
    }
    return roots;
  }

  static void check(Answer[] as, PirClient client, SyntheticRecords truth, long[] idx) {
    for (int i = 0; i < as.length; i++) {
      if (!Arrays.equals(client.decode(as[i], idx[i]), truth.record(idx[i]))) {
        throw new IllegalStateException("wrong record at query " + i);
      }
    }
  }

}
