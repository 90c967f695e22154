package org.jpir.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.jpir.core.Answer;
import org.jpir.core.Geometry;
import org.jpir.core.Glwe;
import org.jpir.core.Noise;
import org.jpir.core.Params;
import org.jpir.core.PirServer;
import org.jpir.core.PreparedDatabase;
import org.jpir.core.PreparedQuery;
import org.jpir.core.Presets;
import org.jpir.vmp.Kernels;

/**
 * The database as a cached RDD of prepared column ranges, and the batch answer over it: the
 * batch's prepared queries are broadcast, every partition runs the batched phase-1 pass and its
 * own CMux sub-tree ({@link PirServer#answerRange}), and the driver folds the partitions' nodes
 * in column order ({@link PirServer#fold}) into one answer per query.
 */
public final class DistributedPirServer {
  private static final Logger LOG = LogManager.getLogger(DistributedPirServer.class);

  private final JavaSparkContext sc;
  private final Params params;
  private final Geometry geometry;
  private final ColumnPartitioning parts;
  private final JavaRDD<PreparedPartition> prepared;
  private final PirServer driverServer;
  private int failFirstAttemptOf = -1;

  /** Statistics of one batch. */
  public record BatchStats(int queries, long wallNanos, long phase1Nanos, long phase2Nanos,
      long foldNanos) {}

  private DistributedPirServer(JavaSparkContext sc, Params params, Geometry geometry,
      ColumnPartitioning parts, JavaRDD<PreparedPartition> prepared) {
    this.sc = sc;
    this.params = params;
    this.geometry = geometry;
    this.parts = parts;
    this.prepared = prepared;
    this.driverServer = new PirServer(params);
  }

  /**
   * Partitions the columns into at most {@code partitions} power-of-two ranges, prepares each on
   * an executor from {@code source} and caches it in memory; returns once every partition is
   * prepared, after logging the memory held per executor.
   */
  public static DistributedPirServer prepare(JavaSparkContext sc, Params p, Geometry g,
      RecordSourceFactory source, int partitions) {
    ColumnPartitioning parts = ColumnPartitioning.forPartitions(g.cols(), partitions);
    JavaRDD<PreparedPartition> rdd = sc.parallelize(parts.indices(), parts.count())
        .map(new PrepareFn(p.id(), g, parts, source))
        .setName("jpir prepared columns " + source.describe())
        .persist(StorageLevel.MEMORY_ONLY());
    long t0 = System.nanoTime();
    List<String> held = rdd.map(new MemoryFn()).collect();
    Map<String, Long> perExecutor = new TreeMap<>();
    for (String h : held) {
      String[] kv = h.split("=", 2);
      perExecutor.merge(kv[0], Long.parseLong(kv[1]), Long::sum);
    }
    LOG.info("prepared {} columns in {} partitions of width {} in {} s; PVEC bytes per executor:"
        + " {}", g.cols(), parts.count(), parts.width(),
        String.format("%.1f", (System.nanoTime() - t0) / 1e9), perExecutor);
    return new DistributedPirServer(sc, p, g, parts, rdd);
  }

  /** The partitioning in use. */
  public ColumnPartitioning partitioning() {
    return parts;
  }

  /** The geometry served. */
  public Geometry geometry() {
    return geometry;
  }

  /** Drops the cached partitions (the next batch prepares them again from the source). */
  public void unpersist() {
    prepared.unpersist(true);
  }

  /**
   * Test hook: the first attempt of the task for partition {@code p} fails with an exception
   * (Spark retries it when the master allows retries, e.g. {@code local[2,3]}); -1 disables.
   */
  public void failFirstAttemptOf(int partition) {
    this.failFirstAttemptOf = partition;
  }

  /** Answers a batch of prepared queries (same preset and geometry) in one pass. */
  public Answer[] answerBatch(List<PreparedQuery> queries, BatchStats[] statsOut) {
    long t0 = System.nanoTime();
    PreparedQuery[] qs = queries.toArray(new PreparedQuery[0]);
    Broadcast<PreparedQuery[]> b = sc.broadcast(qs);
    List<PartialAnswer> partials;
    try {
      partials = new ArrayList<>(
          prepared.map(new AnswerFn(params.id(), b, failFirstAttemptOf)).collect());
    } finally {
      b.destroy();
    }
    long t1 = System.nanoTime();
    partials.sort(Comparator.comparingInt(PartialAnswer::partition));
    long p1 = 0;
    long p2 = 0;
    for (PartialAnswer pa : partials) {
      p1 += pa.phase1Nanos();
      p2 += pa.phase2Nanos();
    }
    Answer[] out = new Answer[qs.length];
    int levels = Noise.levels(geometry.cols());
    for (int qi = 0; qi < qs.length; qi++) {
      Glwe[] roots = new Glwe[geometry.planes()];
      for (int pl = 0; pl < roots.length; pl++) {
        List<Glwe> nodes = new ArrayList<>(partials.size());
        for (PartialAnswer pa : partials) {
          nodes.add(pa.nodes()[qi][pl]);
        }
        roots[pl] = driverServer.fold(nodes, parts.level(), levels, qs[qi].ggsw()).get(0);
      }
      out[qi] = driverServer.toAnswer(roots);
    }
    long t2 = System.nanoTime();
    if (statsOut != null && statsOut.length > 0) {
      statsOut[0] = new BatchStats(qs.length, t2 - t0, p1, p2, t2 - t1);
    }
    return out;
  }

  /** Prepares one partition on an executor. */
  static final class PrepareFn implements Function<Integer, PreparedPartition> {
    private static final long serialVersionUID = 1L;
    private final String paramsId;
    private final Geometry g;
    private final ColumnPartitioning parts;
    private final RecordSourceFactory source;

    PrepareFn(String paramsId, Geometry g, ColumnPartitioning parts, RecordSourceFactory source) {
      this.paramsId = paramsId;
      this.g = g;
      this.parts = parts;
      this.source = source;
    }

    @Override
    public PreparedPartition call(Integer i) {
      ExecutorChecks.once();
      Params p = Presets.byId(paramsId);
      PreparedDatabase db = source.prepare(p, g, parts.first(i), parts.size(i));
      LOG.info("partition {}: prepared columns [{}, {}) ({} MiB of PVECs)", i, parts.first(i),
          parts.first(i) + parts.size(i), db.sizeBytes() >> 20);
      return new PreparedPartition(i, db);
    }
  }

  /** "executor=bytes" of a cached partition. */
  static final class MemoryFn implements Function<PreparedPartition, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(PreparedPartition pp) {
      return executorId() + "=" + pp.database().sizeBytes();
    }
  }

  /** Answers the broadcast batch over one cached partition. */
  static final class AnswerFn implements Function<PreparedPartition, PartialAnswer> {
    private static final long serialVersionUID = 1L;
    private final String paramsId;
    private final Broadcast<PreparedQuery[]> queries;
    private final int failFirstAttemptOf;

    AnswerFn(String paramsId, Broadcast<PreparedQuery[]> queries, int failFirstAttemptOf) {
      this.paramsId = paramsId;
      this.queries = queries;
      this.failFirstAttemptOf = failFirstAttemptOf;
    }

    @Override
    public PartialAnswer call(PreparedPartition pp) {
      TaskContext tc = TaskContext.get();
      if (pp.index() == failFirstAttemptOf && tc != null && tc.attemptNumber() == 0) {
        throw new IllegalStateException("injected failure of the first attempt of partition "
            + pp.index());
      }
      PirServer server = new PirServer(Presets.byId(paramsId));
      PirServer.Timings t = new PirServer.Timings();
      Glwe[][] nodes = server.answerRange(pp.database(), queries.value(), t);
      return new PartialAnswer(pp.index(), nodes, t.phase1Nanos, t.phase2Nanos, executorId());
    }
  }

  static String executorId() {
    SparkEnv env = SparkEnv.get();
    return env == null ? "driver" : env.executorId();
  }

  /** Logs, once per executor JVM, which kernels run there; loudly when it is the scalar code. */
  static final class ExecutorChecks {
    private static volatile boolean done;

    private ExecutorChecks() {}

    static void once() {
      if (done) {
        return;
      }
      done = true;
      Kernels.Choice c = Kernels.choice();
      if (!c.vector()) {
        LOG.error("executor {} runs the SCALAR kernels ({}): the Vector API is missing here;"
            + " check spark.executor.extraJavaOptions", executorId(), c);
      } else {
        LOG.info("executor {} kernels: {}", executorId(), c);
      }
    }
  }
}
