package org.jpir.spark.server;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.server.QueryBatch;
import org.jpir.core.wire.Answer;
import org.jpir.spark.server.MemoryPlan.ExecutorResources;
import org.jpir.spark.source.RecordSourceFactory;

/**
 * A PIR server on Spark: the prepared table ({@link PreparedTable}, planned for the executors'
 * resources by {@link MemoryPlan}) and the batch answer over it ({@link BatchTransport}, which
 * runs pir-core's {@link org.jpir.core.server.BatchSteps} on the executors and the driver).
 */
public final class DistributedPirServer {
  private static final Logger LOG = LogManager.getLogger(DistributedPirServer.class);

  /**
   * The Spark setting naming how many contiguous spans one task of the executor-side fold merges
   * (and the most the driver receives); default 8.
   */
  public static final String FAN_IN_SETTING = "spark.jpir.foldFanIn";

  private final JavaSparkContext sc;
  private final PreparedTable table;
  private final MemoryPlan plan;
  private int fanIn;
  private Faults faults = Faults.NONE;
  private BatchTransport transport;

  /**
   * Statistics of one batch: wall time on the driver; phase 1, phase 2 inside the partitions, the
   * fold across partitions (on the executors and the driver) and the expansion, summed over tasks;
   * where the driver's wall time went ({@link DriverTimes}).
   */
  public record BatchStats(int queries, long wallNanos, long phase1Nanos, long phase2Nanos,
      long foldNanos, long expandNanos, SparkBatchMetrics spark, DriverTimes driver) {}

  /**
   * The driver's share of a batch's wall time (nanoseconds): writing the broadcasts (the batch's
   * and the key broadcasts it made), the Spark jobs from submission to the last result collected,
   * the driver's merge of the spans left and its conversion to answers, and the wait for the
   * listener bus to deliver the batch's task metrics.
   */
  public record DriverTimes(long broadcastNanos, long jobNanos, long mergeNanos,
      long metricsNanos) {
    /** Nothing measured. */
    public static final DriverTimes NONE = new DriverTimes(0, 0, 0, 0);
  }

  /** What one batch returns: an answer per query, in order, and the batch's statistics. */
  public record BatchResult(Answer[] answers, BatchStats stats) {}

  /** What a job will run on the prepared database: batches of {@code batch} queries. */
  public record Workload(int batch, CompactParams compact) {
    /** One classic query at a time. */
    public static Workload single() {
      return new Workload(1, null);
    }
  }

  private DistributedPirServer(JavaSparkContext sc, PreparedTable table, MemoryPlan plan) {
    this.sc = sc;
    this.table = table;
    this.plan = plan;
    fanIn(sc.getConf().getInt(FAN_IN_SETTING, MemoryPlan.DEFAULT_FAN_IN));
  }

  /**
   * Plans balanced column ranges ({@link ColumnPartitioning#plan}), prepares each on an executor
   * from {@code source} and caches it in memory; returns once every partition is prepared.
   * {@code partitions <= 0}: one range per executor core.
   */
  public static DistributedPirServer prepare(JavaSparkContext sc, Params p, Geometry g,
      RecordSourceFactory source, int partitions) {
    return prepare(sc, p, g, source, partitions, Workload.single());
  }

  /**
   * As {@link #prepare(JavaSparkContext, Params, Geometry, RecordSourceFactory, int)}, after
   * refusing dynamic allocation and checking that every executor can hold its share for {@code
   * w} ({@link MemoryPlan#check}); afterwards checks that every partition is cached.
   *
   * @throws IllegalArgumentException when dynamic allocation is on or the executors lack memory
   *     (the message names the settings to change)
   * @throws IllegalStateException when a prepared partition could not be cached
   */
  public static DistributedPirServer prepare(JavaSparkContext sc, Params p, Geometry g,
      RecordSourceFactory source, int partitions, Workload w) {
    SparkResources.refuseDynamicAllocation(sc.getConf());
    ExecutorResources r = SparkResources.of(sc);
    int want = partitions > 0 ? partitions : r.executors() * r.coresPerExecutor();
    ColumnPartitioning parts = ColumnPartitioning.plan(g.cols(), want, source.storageChunk(),
        r.executors() * r.coresPerExecutor());
    LOG.info("partitions: {} for {} executor(s) x {} core(s){}", parts, r.executors(),
        r.coresPerExecutor(), partitions > 0 ? " (" + partitions + " asked)" : "");
    return prepare(sc, p, g, source, parts, w, r);
  }

  /** As above over the given ranges (tests: narrower ranges than the planner makes). */
  public static DistributedPirServer prepare(JavaSparkContext sc, Params p, Geometry g,
      RecordSourceFactory source, ColumnPartitioning parts, Workload w) {
    SparkResources.refuseDynamicAllocation(sc.getConf());
    return prepare(sc, p, g, source, parts, w, SparkResources.of(sc));
  }

  private static DistributedPirServer prepare(JavaSparkContext sc, Params p, Geometry g,
      RecordSourceFactory source, ColumnPartitioning parts, Workload w, ExecutorResources r) {
    if (parts.cols() != g.cols()) {
      throw new IllegalArgumentException("partitioning of " + parts.cols() + " columns for a"
          + " grid of " + g.cols());
    }
    MemoryPlan plan = MemoryPlan.of(p, g, parts, w.batch(), w.compact(), r,
        sc.getConf().getInt(FAN_IN_SETTING, MemoryPlan.DEFAULT_FAN_IN),
        KeyBroadcasts.bound(sc.getConf()));
    LOG.info("memory plan: {}", plan.describe());
    plan.check();
    return new DistributedPirServer(sc, PreparedTable.prepare(sc, p, g, source, parts,
        r.coresPerExecutor()), plan);
  }

  /**
   * Answers a batch of queries the driver accepted ({@link
   * org.jpir.core.query.QueryKind#accept}; any mix of kinds made for this database): their bytes
   * are broadcast once per batch, each client's key bytes once per key fingerprint and Spark
   * context ({@link KeyBroadcasts}), each executor expands each query once, and the fold's last
   * levels run on the driver ({@link BatchTransport}).
   *
   * @throws IllegalArgumentException when a query was accepted for another server preset
   */
  public BatchResult answer(List<AcceptedQuery> queries) {
    return transport.answer(queries);
  }

  /**
   * The transport that answers batches over the prepared table (what {@link #answer} calls; the
   * answer job calls it directly), with the fan-in and faults set last.
   */
  public BatchTransport transport() {
    return transport;
  }

  /** Injects {@code f} into the next batches' tasks ({@link Faults#NONE}: none; tests). */
  public void inject(Faults f) {
    this.faults = f;
    this.transport = new BatchTransport(sc, table, plan.queryCacheBytes(), fanIn, faults);
  }

  /** Merge {@code f} spans per task of the executor-side fold (at least 2; tests). */
  void fanIn(int f) {
    if (f < 2) {
      throw new IllegalArgumentException(FAN_IN_SETTING + " = " + f + " must be at least 2");
    }
    this.fanIn = f;
    this.transport = new BatchTransport(sc, table, plan.queryCacheBytes(), fanIn, faults);
  }

  /** The hex SHA-256 of a query's bytes, as {@link Faults} names failing queries. */
  public static String queryDigest(byte[] wire) {
    return QueryBatch.sha256(wire);
  }

  /**
   * The server over another version of the same grid ({@link PreparedTable#withChanged}):
   * partition {@code i} is prepared again when {@code changed.get(i)}, else passed through;
   * {@code reprepared[0]} gets the number prepared again. This server stays usable until the
   * caller unpersists it.
   *
   * @throws IllegalArgumentException when {@code g} is not the same grid
   * @throws IllegalStateException when the new partitions could not all be cached
   */
  public DistributedPirServer withChangedPartitions(Geometry g, RecordSourceFactory source,
      BitSet changed, long[] reprepared) {
    return new DistributedPirServer(sc, table.withChanged(g, source, changed, reprepared), plan);
  }

  /** Partitions per executor id, from the block manager master (local mode: the driver's). */
  public Map<String, Integer> partitionsPerExecutor() {
    return table.placement().counts();
  }

  /** Re-prepares lost partitions and evens out the partitions per executor (each batch does). */
  public Placement.Result rebalance() {
    return table.placement().rebalance();
  }

  /** What the last rebalance did (before the last batch, or an explicit {@link #rebalance}). */
  public Placement.Result lastPlacement() {
    return table.placement().last();
  }

  /** The memory plan checked when preparing. */
  public MemoryPlan memoryPlan() {
    return plan;
  }

  /** The cached RDD of prepared partitions (benchmarks: in local mode, the tasks' objects). */
  public JavaRDD<PreparedPartition> cachedPartitions() {
    return table.rdd();
  }

  /** The partitioning in use. */
  public ColumnPartitioning partitioning() {
    return table.partitioning();
  }

  /** The geometry served. */
  public Geometry geometry() {
    return table.geometry();
  }

  /** Drops the cached partitions (the next batch prepares them again from the source). */
  public void unpersist() {
    table.rdd().unpersist(true);
  }
}
