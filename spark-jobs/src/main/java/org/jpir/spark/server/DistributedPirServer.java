package org.jpir.spark.server;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.server.PirServer;
import org.jpir.core.wire.Answer;
import org.jpir.spark.server.FoldTasks.GroupKeyFn;
import org.jpir.spark.server.FoldTasks.GroupPartitioner;
import org.jpir.spark.server.FoldTasks.MergeFn;
import org.jpir.spark.server.PartitionTasks.ExpandingAnswerFn;
import org.jpir.spark.server.PartitionTasks.MemoryFn;
import org.jpir.spark.server.PartitionTasks.PartitionAnswerFn;
import org.jpir.spark.server.PartitionTasks.PrepareFn;
import org.jpir.spark.server.PartitionTasks.PreparedAnswerFn;
import org.jpir.spark.source.RecordSourceFactory;
import org.jpir.vmp.Pmat;
import org.jpir.core.server.ColumnTree;
import org.jpir.core.server.FoldSpan;

/**
 * The database as a cached RDD of prepared column ranges, and the batch answer over it: the
 * queries the driver accepted ({@link org.jpir.core.query.QueryKind}, any kind) are broadcast as
 * received ({@link QueryBatch}) or prepared, every partition expands them ({@link
 * PartitionTasks}) and runs the batched phase-1 pass and its own CMux sub-trees ({@link
 * ColumnTree#answer}), the executors continue the fold as an ordered tree over contiguous
 * partitions ({@link FoldTasks}), and the driver merges the few spans left into one answer per
 * query ({@link BatchResult}).
 */
public final class DistributedPirServer {
  private static final Logger LOG = LogManager.getLogger(DistributedPirServer.class);

  private final JavaSparkContext sc;
  private final Params params;
  private final Geometry geometry;
  private final ColumnPartitioning parts;
  private final JavaRDD<PreparedPartition> prepared;
  private final PirServer driverServer;
  private final MemoryPlan plan;
  private final Placement placement;
  private Placement.Result lastPlacement = Placement.Result.NONE;
  private final long queryCacheBytes;
  private int fanIn;
  private boolean localHandoff;
  private int failFirstAttemptOf = -1;
  private java.util.Set<String> failQueries = java.util.Set.of();
  /** Batch ids, increasing in this driver JVM: executors release the entries of older batches. */
  private static final java.util.concurrent.atomic.AtomicLong BATCHES =
      new java.util.concurrent.atomic.AtomicLong();
  /** Tags of the batches' Spark jobs for {@link BatchMetricsListener}. */
  private static final java.util.concurrent.atomic.AtomicLong METRIC_BATCHES =
      new java.util.concurrent.atomic.AtomicLong();
  private final BatchMetricsListener listener;

  /**
   * Where queries of either kind are expanded: on the driver, which then broadcasts the prepared
   * matrices (network: {@code 8 N rows*limbs*2*glweLimbs} bytes per query per executor), or on
   * every executor from the broadcast query bytes as received (and, for compact queries, the
   * client's evaluation keys: ~0.1 MiB per query plus the keys; compute: every executor expands
   * each query once).
   */
  public enum ExpandMode { DRIVER, EXECUTOR }

  /**
   * Statistics of one batch: wall time on the driver; phase 1, phase 2 inside the partitions, the
   * fold across partitions (on the executors and the driver) and the expansion, summed over tasks;
   * where the driver's wall time went ({@link DriverTimes}).
   */
  public record BatchStats(int queries, long wallNanos, long phase1Nanos, long phase2Nanos,
      long foldNanos, long expandNanos, SparkBatchMetrics spark, DriverTimes driver) {}

  /**
   * The driver's share of a batch's wall time (nanoseconds): writing the broadcasts (the payload
   * and the fold's GGSWs), the Spark jobs from submission to the last result collected, the
   * driver's merge of the spans left and its conversion to answers, and the wait for the listener
   * bus to deliver the batch's task metrics.
   */
  public record DriverTimes(long broadcastNanos, long jobNanos, long mergeNanos,
      long metricsNanos) {
    /** Nothing measured. */
    public static final DriverTimes NONE = new DriverTimes(0, 0, 0, 0);
  }

  private DistributedPirServer(JavaSparkContext sc, Params params, Geometry geometry,
      ColumnPartitioning parts, JavaRDD<PreparedPartition> prepared, MemoryPlan plan,
      Placement placement) {
    this.sc = sc;
    this.placement = placement;
    this.params = params;
    this.geometry = geometry;
    this.parts = parts;
    this.prepared = prepared;
    this.driverServer = new PirServer(params);
    this.plan = plan;
    this.queryCacheBytes = plan.queryCacheBytes();
    this.fanIn = sc.getConf().getInt(FAN_IN_SETTING, 8);
    this.localHandoff = sc.isLocal() && sc.getConf().getBoolean(LOCAL_HANDOFF_SETTING, true);
    this.listener = BatchMetricsListener.on(sc.sc());
    if (fanIn < 2) {
      throw new IllegalArgumentException(FAN_IN_SETTING + " = " + fanIn + " must be at least 2");
    }
  }

  /**
   * The Spark setting naming how many contiguous spans one task of the executor-side fold merges
   * (and the most the driver receives); default 8.
   */
  public static final String FAN_IN_SETTING = "spark.jpir.foldFanIn";

  /**
   * The Spark setting (default true) that, in local mode only, hands a batch's queries and GGSWs
   * to the tasks by reference instead of a broadcast: the tasks run in the driver's JVM, and a
   * broadcast would only serialize them into pieces nobody reads (0.1-0.45 GB/s on the 2-core
   * test machine, while the cores idle).
   */
  public static final String LOCAL_HANDOFF_SETTING = "spark.jpir.localHandoff";

  /** What a job will run on the prepared database: batches of {@code batch} queries. */
  public record Workload(int batch, ExpandMode mode, org.jpir.core.params.CompactParams compact) {
    /** One classic query at a time, expanded on the executors. */
    public static Workload single() {
      return new Workload(1, ExpandMode.EXECUTOR, null);
    }
  }

  /** {@code local-cluster[E, c, mem]}: E executors of c cores. */
  private static final java.util.regex.Pattern LOCAL_CLUSTER = java.util.regex.Pattern.compile(
      "local-cluster\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,.*\\]");

  /**
   * The executors' resources: Spark's unified memory per executor, cores, the cache setting.
   * Waits (at most {@code spark.scheduler.maxRegisteredResourcesWaitingTime}, default 30 s) until
   * {@code spark.scheduler.minRegisteredResourcesRatio} (default 1 here) of the expected
   * executors ({@code spark.executor.instances}, else {@code spark.cores.max /
   * spark.executor.cores}, else E of {@code local-cluster[E,c,mem]}; at least one) have
   * registered. Cores per executor: {@code spark.executor.cores}, else c of local-cluster, else
   * the registered cores ({@code defaultParallelism} when {@code spark.default.parallelism} is
   * unset) shared by the executors.
   */
  static MemoryPlan.ExecutorResources resources(JavaSparkContext sc) {
    org.apache.spark.SparkConf c = sc.getConf();
    double fraction = c.getDouble("spark.memory.fraction", 0.6);
    long cacheSetting = c.getSizeAsBytes(MemoryPlan.CACHE_SETTING, "0");
    boolean local = sc.isLocal();
    org.apache.spark.storage.BlockManagerId self = SparkEnv.get().blockManager().blockManagerId();
    int instances = c.getInt("spark.executor.instances", 0);
    if (instances == 0 && c.contains("spark.cores.max") && c.contains("spark.executor.cores")) {
      instances = c.getInt("spark.cores.max", 1) / Math.max(1, c.getInt("spark.executor.cores",
          1));
    }
    java.util.regex.Matcher lc = LOCAL_CLUSTER.matcher(sc.master());
    if (instances == 0 && lc.matches()) {
      instances = Integer.parseInt(lc.group(1)); // local-cluster[E, c, mem]: E executors
    }
    double ratio = Math.min(1, Math.max(0, c.getDouble(
        "spark.scheduler.minRegisteredResourcesRatio", 1.0)));
    int expected = Math.max(1, (int) Math.ceil(ratio * instances));
    long waitMs = c.getTimeAsMs("spark.scheduler.maxRegisteredResourcesWaitingTime", "30s");
    long deadline = System.nanoTime() + waitMs * 1_000_000L;
    while (true) {
      long minUnified = Long.MAX_VALUE;
      int count = 0;
      // block manager "host:port" -> (max storage memory, remaining): Spark's unified memory
      java.util.Map<String, scala.Tuple2<Object, Object>> status =
          scala.jdk.javaapi.CollectionConverters.asJava(sc.sc().getExecutorMemoryStatus());
      String driverId = self.host() + ":" + self.port();
      for (java.util.Map.Entry<String, scala.Tuple2<Object, Object>> e : status.entrySet()) {
        long max = (Long) e.getValue()._1();
        if ((local || !e.getKey().equals(driverId)) && max > 0) {
          count++;
          minUnified = Math.min(minUnified, max);
        }
      }
      if (count >= (local ? 1 : expected) || System.nanoTime() > deadline) {
        if (count == 0) {
          throw new IllegalStateException("no executor registered within " + waitMs + " ms"
              + " (spark.scheduler.maxRegisteredResourcesWaitingTime): check the cluster"
              + " (workers, spark.executor.memory, spark.cores.max)");
        }
        if (count < expected) {
          LOG.warn("only {} of {} expected executors registered within {} ms; planning for {}",
              count, expected, waitMs, count);
        }
        int cores;
        if (local) {
          cores = sc.defaultParallelism();
        } else if (c.contains("spark.executor.cores")) {
          cores = c.getInt("spark.executor.cores", 1);
        } else if (lc.matches()) {
          cores = Integer.parseInt(lc.group(2));
        } else if (!c.contains("spark.default.parallelism")) {
          cores = Math.max(1, sc.defaultParallelism() / count);
        } else {
          cores = 1;
        }
        return new MemoryPlan.ExecutorResources(local ? 1 : count, cores,
            (long) (minUnified / fraction), minUnified, fraction, cacheSetting, local,
            local && c.getBoolean(LOCAL_HANDOFF_SETTING, true));
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for executors", ie);
      }
    }
  }

  /**
   * Plans balanced column ranges ({@link ColumnPartitioning#plan}), prepares each on an executor
   * from {@code source} and caches it in memory; returns once every partition is prepared, after
   * logging the memory held per executor. {@code partitions <= 0}: one range per executor core.
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
    refuseDynamicAllocation(sc.getConf());
    MemoryPlan.ExecutorResources r = resources(sc);
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
    refuseDynamicAllocation(sc.getConf());
    return prepare(sc, p, g, source, parts, w, resources(sc));
  }

  /**
   * Stops a job under dynamic allocation: the prepared partitions live in the memory of the
   * executors that prepared them and their count is planned from the executors present at start.
   *
   * @throws IllegalArgumentException naming the settings to use instead
   */
  static void refuseDynamicAllocation(org.apache.spark.SparkConf c) {
    if (c.getBoolean("spark.dynamicAllocation.enabled", false)) {
      throw new IllegalArgumentException("spark.dynamicAllocation.enabled=true is not supported:"
          + " the prepared partitions are cached in the memory of the executors that prepared"
          + " them and planned from the executors present at start, so an executor removed when"
          + " idle loses its partitions and one added later gets none; run with --conf"
          + " spark.dynamicAllocation.enabled=false and a fixed number of executors"
          + " (--num-executors / spark.executor.instances)");
    }
  }

  private static DistributedPirServer prepare(JavaSparkContext sc, Params p, Geometry g,
      RecordSourceFactory source, ColumnPartitioning parts, Workload w,
      MemoryPlan.ExecutorResources r) {
    if (parts.cols() != g.cols()) {
      throw new IllegalArgumentException("partitioning of " + parts.cols() + " columns for a"
          + " grid of " + g.cols());
    }
    MemoryPlan plan = MemoryPlan.of(p, g, parts, w.batch(), w.mode(), w.compact(), r,
        sc.getConf().getInt(FAN_IN_SETTING, MemoryPlan.DEFAULT_FAN_IN));
    LOG.info("memory plan: {}", plan.describe());
    plan.check();
    // each partition prefers the executor it is assigned: spread evenly over those registered
    Placement placement = new Placement(sc.sc(), parts, r.coresPerExecutor());
    placement.assignInitial();
    JavaRDD<PreparedPartition> rdd = JavaRDD.fromRDD(placement.indices(),
        scala.reflect.ClassTag$.MODULE$.<Integer>apply(Integer.class))
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
    LOG.info("prepared {} columns in {} partitions of width up to {} in {} s; PVEC bytes per"
        + " executor: {}", g.cols(), parts.count(), parts.width(),
        String.format("%.1f", (System.nanoTime() - t0) / 1e9), perExecutor);
    // Ask the block manager master, not getRDDStorageInfo: the latter reads the status store,
    // which the listener bus updates asynchronously (it lagged behind under load).
    org.apache.spark.storage.BlockManagerMaster master = sc.sc().env().blockManager().master();
    int cached = 0;
    for (int i = 0; i < parts.count(); i++) {
      if (master.contains(new org.apache.spark.storage.RDDBlockId(rdd.id(), i))) {
        cached++;
      }
    }
    if (cached < parts.count()) {
      rdd.unpersist(false);
      throw new IllegalStateException("only " + cached + " of " + parts.count() + " prepared"
          + " partitions stayed cached in memory (Spark evicts or refuses blocks that do not fit"
          + " its unified memory): raise spark.executor.memory (local mode: the driver heap) or"
          + " spark.memory.fraction, or use more executors");
    }
    placement.cached(rdd);
    // the scheduler may have given up on a busy preferred executor: even the spread out
    placement.rebalance();
    LOG.info("partitions per executor: {}", placement.counts());
    return new DistributedPirServer(sc, p, g, parts, rdd, plan, placement);
  }

  /** Test hook: in local mode, share by reference (true) or by broadcast (false). */
  void localHandoff(boolean on) {
    this.localHandoff = on && sc.isLocal();
  }

  /** Test hook: merge {@code f} spans per task of the executor-side fold (at least 2). */
  void fanIn(int f) {
    if (f < 2) {
      throw new IllegalArgumentException("fan-in " + f + " must be at least 2");
    }
    this.fanIn = f;
  }

  /**
   * Where the prepared partitions are: partitions per executor id, from the block manager
   * master (local mode: the driver's).
   */
  public Map<String, Integer> partitionsPerExecutor() {
    return placement.counts();
  }

  /**
   * Re-prepares lost partitions and evens out the partitions per executor ({@link
   * Placement#rebalance}); every batch does this first.
   */
  public Placement.Result rebalance() {
    lastPlacement = placement.rebalance();
    return lastPlacement;
  }

  /** What the last rebalance did (before the last batch, or an explicit {@link #rebalance}). */
  public Placement.Result lastPlacement() {
    return lastPlacement;
  }

  /** The memory plan checked when preparing. */
  public MemoryPlan memoryPlan() {
    return plan;
  }

  /**
   * Test hook: a query whose wire bytes have one of these SHA-256 digests (hex) fails on every
   * executor that expands it (executor expansion only); empty disables.
   */
  public void failQueriesOnExecutors(java.util.Set<String> digests) {
    this.failQueries = java.util.Set.copyOf(digests);
  }

  /** The hex SHA-256 the executors key a classic query's expansion by. */
  public static String queryDigest(byte[] wire) {
    return ExecutorCache.sha256(wire);
  }

  /**
   * The cached RDD of prepared partitions (benchmarks: in local mode its blocks are the very
   * objects the tasks answer over).
   */
  public JavaRDD<PreparedPartition> cachedPartitions() {
    return prepared;
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
   * A server over another version of the same grid (rows, columns, planes, record size): partition
   * {@code i} is prepared again from {@code source} when {@code changed.get(i)}, else this server's
   * cached partition is passed through (the same object). Returns once every new partition is
   * cached; this server stays usable until the caller unpersists it. {@code reprepared[0]} gets
   * the number of partitions prepared again.
   *
   * @throws IllegalArgumentException when {@code g} is not the same grid
   * @throws IllegalStateException when the new partitions could not all be cached
   */
  public DistributedPirServer withChangedPartitions(Geometry g, RecordSourceFactory source,
      java.util.BitSet changed, long[] reprepared) {
    if (g.rows() != geometry.rows() || g.cols() != geometry.cols()
        || g.planes() != geometry.planes() || g.recordSize() != geometry.recordSize()) {
      throw new IllegalArgumentException("new version has geometry " + g + ", not the grid "
          + geometry + " this server holds");
    }
    org.apache.spark.util.LongAccumulator fresh = sc.sc().longAccumulator("jpir re-prepared");
    JavaRDD<PreparedPartition> rdd = prepared.mapPartitionsWithIndex(
        new RefreshFn(new PrepareFn(params.id(), g, parts, source),
            (java.util.BitSet) changed.clone(), fresh), true)
        .setName("jpir prepared columns " + source.describe())
        .persist(StorageLevel.MEMORY_ONLY());
    rdd.count();
    org.apache.spark.storage.BlockManagerMaster master = sc.sc().env().blockManager().master();
    for (int i = 0; i < parts.count(); i++) {
      if (!master.contains(new org.apache.spark.storage.RDDBlockId(rdd.id(), i))) {
        rdd.unpersist(false);
        throw new IllegalStateException("partition " + i + " of the new version did not stay"
            + " cached (both versions are cached while switching): raise the executors' memory");
      }
    }
    reprepared[0] = fresh.value();
    // the placement follows the new version's blocks (they stay where the old ones were)
    placement.cached(rdd);
    return new DistributedPirServer(sc, params, g, parts, rdd, plan, placement);
  }

  /**
   * Partition {@code i} of the next version: prepared again when {@code changed.get(i)}, else the
   * cached one passed through. Lazy: a later version's task that computes this iterator without
   * consuming it (its partition changed again) prepares nothing here.
   */
  private record RefreshFn(PrepareFn prepare, java.util.BitSet changed,
      org.apache.spark.util.LongAccumulator fresh) implements
      org.apache.spark.api.java.function.Function2<Integer, java.util.Iterator<PreparedPartition>,
          java.util.Iterator<PreparedPartition>> {
    @Override
    public java.util.Iterator<PreparedPartition> call(Integer i,
        java.util.Iterator<PreparedPartition> old) {
      if (!changed.get(i)) {
        return old;
      }
      return new java.util.Iterator<>() {
        private boolean done;

        @Override
        public boolean hasNext() {
          return !done;
        }

        @Override
        public PreparedPartition next() {
          if (done) {
            throw new java.util.NoSuchElementException();
          }
          done = true;
          fresh.add(1);
          return prepare.call(i);
        }
      };
    }
  }

  /**
   * Test hook: the first attempt of the task for partition {@code p} fails with an exception
   * (Spark retries it when the master allows retries, e.g. {@code local[2,3]}); -1 disables.
   */
  public void failFirstAttemptOf(int partition) {
    this.failFirstAttemptOf = partition;
  }

  /** What one batch returns: an answer per query, in order, and the batch's statistics. */
  public record BatchResult(Answer[] answers, BatchStats stats) {}

  /**
   * Answers a batch of queries the driver accepted ({@link
   * org.jpir.core.query.QueryKind#accept}; any mix of kinds made for this database), expanded
   * where {@code mode} says: on the driver (the prepared matrices are broadcast, {@code 8 N
   * rows*limbs*2*glweLimbs} bytes per query) or on the executors (the queries' bytes as received
   * and each client's key bytes, once per batch, are broadcast; each executor expands each query
   * once). The fold's GGSWs come from the driver's share of each query.
   *
   * @throws IllegalArgumentException when a query was accepted for another server preset
   */
  public BatchResult answer(List<AcceptedQuery> queries, ExpandMode mode) {
    long t0 = System.nanoTime();
    int nq = queries.size();
    Pmat[] packing = new Pmat[nq];
    for (int i = 0; i < nq; i++) {
      AcceptedQuery q = queries.get(i);
      if (!q.expansion().server().equals(params)) {
        throw new IllegalArgumentException("query " + i + " of the batch (" + q.expansion().id()
            + ") serves preset " + q.expansion().server().id() + ", this database runs "
            + params.id());
      }
      packing[i] = q.packing();
    }
    if (mode == ExpandMode.DRIVER) {
      PreparedQuery[] expanded = new PreparedQuery[nq];
      for (int i = 0; i < nq; i++) {
        expanded[i] = queries.get(i).expand();
      }
      return answerPrepared(expanded, t0, System.nanoTime() - t0, packing);
    }
    QueryBatch payload = QueryBatch.of(queries);
    long batch = BATCHES.incrementAndGet();
    PreparedGgsw[][] ggsw = new PreparedGgsw[nq][];
    java.util.function.Supplier<PreparedGgsw[][]> source;
    if (localHandoff) {
      // local mode: the tasks' expansions sit in this JVM's executor cache; take their GGSWs
      // after the job instead of expanding them again on the driver before it
      source = () -> {
        for (int i = 0; i < nq; i++) {
          ggsw[i] = ExpandingAnswerFn.expanded(payload, i, geometry, batch, queryCacheBytes,
              new long[1]).ggsw();
        }
        return ggsw;
      };
    } else {
      for (int i = 0; i < nq; i++) {
        ggsw[i] = queries.get(i).phase2();
      }
      source = () -> ggsw;
    }
    long te = System.nanoTime() - t0;
    return onExecutors(payload, bp -> new ExpandingAnswerFn(params.id(), geometry, bp,
        failFirstAttemptOf, batch, queryCacheBytes, failQueries), nq, source, t0, te, packing);
  }

  /** Answers a batch of queries already prepared (same preset and geometry) in one pass. */
  public BatchResult answerPrepared(List<PreparedQuery> queries) {
    return answerPrepared(queries.toArray(new PreparedQuery[0]), System.nanoTime(), 0,
        new Pmat[queries.size()]);
  }

  /**
   * Answers queries the driver prepared, {@code expandNanos} of the time since {@code t0}
   * spent expanding them; query qi's answer shares one mask over the planes when {@code
   * packing[qi]} is its client's prepared packing key.
   */
  private BatchResult answerPrepared(PreparedQuery[] qs, long t0, long expandNanos,
      Pmat[] packing) {
    PreparedGgsw[][] ggsw = new PreparedGgsw[qs.length][];
    for (int qi = 0; qi < qs.length; qi++) {
      ggsw[qi] = qs[qi].ggsw();
    }
    return onExecutors(qs, bq -> new PreparedAnswerFn(params.id(), bq, failFirstAttemptOf),
        qs.length, () -> ggsw, t0, expandNanos, packing);
  }

  /**
   * Broadcasts {@code payload}, runs {@code fn} over every cached partition, folds the
   * partitions' spans into one answer per query ({@link #foldTree}), destroys the broadcast and
   * returns the answers with the batch's statistics (times from {@code t0}; {@code
   * driverExpandNanos} plus the executors' expansion times as the expansion time). Query qi's
   * answer shares one mask over the planes when {@code packing[qi]} (the client's prepared
   * packing key) is non-null.
   */
  private <T> BatchResult onExecutors(T payload,
      java.util.function.Function<Shared<T>, PartitionAnswerFn<T>> fn, int nq,
      java.util.function.Supplier<PreparedGgsw[][]> ggswSource, long t0, long driverExpandNanos,
      Pmat[] packing) {
    rebalance();
    java.util.function.Supplier<PreparedGgsw[][]> ggsw = memo(ggswSource);
    String batchTag = "batch-" + METRIC_BATCHES.incrementAndGet();
    String previous = sc.getLocalProperty(BatchMetricsListener.PROPERTY);
    sc.setLocalProperty(BatchMetricsListener.PROPERTY, batchTag);
    List<Long> broadcasts = new ArrayList<>();
    long[] driver = new long[4];
    FoldSpan root;
    SparkBatchMetrics metrics;
    try {
      Shared<T> b = share(payload, broadcasts, driver);
      try {
        root = foldTree(prepared.map(fn.apply(b)), ggsw, broadcasts, driver);
      } finally {
        b.destroy();
      }
    } finally {
      sc.setLocalProperty(BatchMetricsListener.PROPERTY, previous);
      // also when the batch failed: the listener forgets the batch's figures
      long tm = System.nanoTime();
      metrics = listener.finish(batchTag, broadcasts.stream().mapToLong(Long::longValue)
          .toArray());
      driver[3] = System.nanoTime() - tm;
    }
    long ta = System.nanoTime();
    Answer[] out = new Answer[nq];
    for (int qi = 0; qi < out.length; qi++) {
      Glwe[] roots = new Glwe[geometry.planes()];
      for (int pl = 0; pl < roots.length; pl++) {
        roots[pl] = root.nodes()[qi][pl][0];
      }
      out[qi] = packing[qi] != null
          ? driverServer.toSharedAnswer(roots, geometry, packing[qi])
          : driverServer.toAnswer(roots, geometry);
    }
    long t2 = System.nanoTime();
    driver[2] += t2 - ta;
    return new BatchResult(out, new BatchStats(nq, t2 - t0, root.phase1Nanos(),
        root.phase2Nanos(), root.foldNanos(), driverExpandNanos + root.expandNanos(), metrics,
        new DriverTimes(driver[0], driver[1], driver[2], driver[3])));
  }

  /**
   * The ordered fold of the partitions' spans: while more than {@link #fanIn} spans remain, a
   * shuffle groups each run of {@code fanIn} contiguous spans (span i goes to group i / fanIn)
   * and one task per group merges them in column order with the GGSWs of the levels above the
   * partitions (broadcast once per batch); the driver collects at most {@code fanIn} spans and
   * merges them into the root, so what it receives per query is bounded by {@code fanIn * (2
   * height + 1)} nodes per plane whatever the number of partitions.
   */
  private FoldSpan foldTree(JavaRDD<FoldSpan> spans, java.util.function.Supplier<PreparedGgsw[][]> ggsw,
      List<Long> broadcasts,
      long[] driver) {
    ColumnTree tree = new ColumnTree(geometry.cols());
    int n = parts.count();
    Shared<PreparedGgsw[][]> upper = null;
    try {
      JavaRDD<FoldSpan> cur = spans;
      if (n > fanIn) {
        int lowest = tree.lowestLevel(parts.bounds());
        // local mode: the merge tasks, which run after the partitions' tasks, read the GGSWs
        upper = localHandoff ? Shared.Local.lazy(memo(() -> FoldTasks.levelsFrom(ggsw.get(), lowest)))
            : share(FoldTasks.levelsFrom(ggsw.get(), lowest), broadcasts, driver);
      }
      while (n > fanIn) {
        int groups = (n + fanIn - 1) / fanIn;
        cur = cur.mapToPair(new GroupKeyFn(fanIn))
            .partitionBy(new GroupPartitioner(groups))
            .values()
            .mapPartitionsWithIndex(new MergeFn(params.id(), tree, upper), true);
        n = groups;
      }
      long tj = System.nanoTime();
      List<FoldSpan> top = new ArrayList<>(cur.collect());
      long tm = System.nanoTime();
      driver[1] += tm - tj;
      top.sort(Comparator.comparingInt(FoldSpan::first));
      FoldSpan root = tree.merge(driverServer, top, 0, ggsw.get(), "driver");
      driver[2] += System.nanoTime() - tm;
      if (root.first() != 0 || root.end() != geometry.cols() || root.nodeCount() != 1) {
        throw new IllegalStateException("the fold ended with " + root.nodeCount() + " nodes over"
            + " columns [" + root.first() + ", " + root.end() + ") of " + geometry.cols());
      }
      return root;
    } finally {
      if (upper != null) {
        upper.destroy();
      }
    }
  }

  /**
   * {@code value} for the tasks of this batch: by reference in local mode ({@link
   * #LOCAL_HANDOFF_SETTING}), else a broadcast whose id joins {@code broadcasts}; the time taken
   * joins {@code driver[0]}.
   */
  private <T> Shared<T> share(T value, List<Long> broadcasts, long[] driver) {
    long t0 = System.nanoTime();
    Shared<T> s;
    if (localHandoff) {
      s = new Shared.Local<>(value);
    } else {
      Broadcast<T> b = sc.broadcast(value);
      broadcasts.add(b.id());
      s = new Shared.Broadcasted<>(b);
    }
    driver[0] += System.nanoTime() - t0;
    return s;
  }

  /** {@code s}, called at most once (thread-safe). */
  static <T> java.util.function.Supplier<T> memo(java.util.function.Supplier<T> s) {
    Object[] v = new Object[1];
    return () -> {
      synchronized (v) {
        if (v[0] == null) {
          v[0] = s.get();
        }
        @SuppressWarnings("unchecked")
        T t = (T) v[0];
        return t;
      }
    };
  }

}
