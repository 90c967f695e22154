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
import org.jpir.core.CompactExpander;
import org.jpir.core.CompactQuery;
import org.jpir.core.EvaluationKeyStore;
import org.jpir.core.Wire;
import org.jpir.vmp.Pmat;
import org.jpir.core.Geometry;
import org.jpir.core.Glwe;
import org.jpir.core.Noise;
import org.jpir.core.Params;
import org.jpir.core.PirServer;
import org.jpir.core.PreparedDatabase;
import org.jpir.core.PreparedQuery;
import org.jpir.core.Presets;
import org.jpir.vmp.KernelProvider;

/**
 * The database as a cached RDD of prepared column ranges, and the batch answer over it: the
 * batch's queries are broadcast, every partition runs the batched phase-1 pass and its own CMux
 * sub-trees ({@link ColumnTree#answer}), the executors continue the fold as an ordered tree over
 * contiguous partitions ({@link ColumnTree#merge}), and the driver merges the few spans left into
 * one answer per query.
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
   * Where compact queries are expanded: on the driver, which then broadcasts the prepared
   * matrices (network: {@code 8 N rows*limbs*2*glweLimbs} bytes per query per executor), or on
   * every executor from the broadcast compact query and evaluation keys (network: ~0.1 MiB per
   * query plus the keys; compute: every partition repeats the phase-1 expansion).
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
  public record Workload(int batch, ExpandMode mode, org.jpir.core.CompactParams compact) {
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
  static DistributedPirServer prepare(JavaSparkContext sc, Params p, Geometry g,
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

  /** Answers a batch of prepared queries (same preset and geometry) in one pass. */
  public Answer[] answerBatch(List<PreparedQuery> queries, BatchStats[] statsOut) {
    return answerPrepared(queries, System.nanoTime(), 0, statsOut, null);
  }

  /**
   * Answers queries the driver prepared, {@code expandNanos} of the time since {@code t0}
   * spent expanding them; query qi's answer shares one mask over the planes when {@code
   * packing} (may be null) holds its client's prepared packing key.
   */
  private Answer[] answerPrepared(List<PreparedQuery> queries, long t0, long expandNanos,
      BatchStats[] statsOut, Pmat[] packing) {
    PreparedQuery[] qs = queries.toArray(new PreparedQuery[0]);
    Pmat[][] ggsw = new Pmat[qs.length][];
    for (int qi = 0; qi < qs.length; qi++) {
      ggsw[qi] = qs[qi].ggsw();
    }
    return onExecutors(qs, bq -> new PreparedAnswerFn(params.id(), bq, failFirstAttemptOf),
        qs.length, () -> ggsw, t0, expandNanos, statsOut, packing);
  }

  /**
   * Broadcasts {@code payload}, runs {@code fn} over every cached partition, folds the
   * partitions' spans into one answer per query ({@link #foldTree}), destroys the broadcast and
   * fills {@code statsOut[0]} (times from {@code t0}; {@code driverExpandNanos} plus the
   * executors' expansion times as the expansion time). Query qi's answer shares one mask over
   * the planes when {@code packing[qi]} (the client's prepared packing key) is non-null.
   */
  private <T> Answer[] onExecutors(T payload,
      java.util.function.Function<Shared<T>, PartitionAnswerFn<T>> fn, int nq,
      java.util.function.Supplier<Pmat[][]> ggswSource, long t0, long driverExpandNanos,
      BatchStats[] statsOut, Pmat[] packing) {
    rebalance();
    java.util.function.Supplier<Pmat[][]> ggsw = memo(ggswSource);
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
      out[qi] = packing != null && packing[qi] != null
          ? driverServer.toSharedAnswer(roots, geometry, packing[qi])
          : driverServer.toAnswer(roots, geometry);
    }
    long t2 = System.nanoTime();
    driver[2] += t2 - ta;
    if (statsOut != null && statsOut.length > 0) {
      statsOut[0] = new BatchStats(nq, t2 - t0, root.phase1Nanos(), root.phase2Nanos(),
          root.foldNanos(), driverExpandNanos + root.expandNanos(), metrics,
          new DriverTimes(driver[0], driver[1], driver[2], driver[3]));
    }
    return out;
  }

  /**
   * The ordered fold of the partitions' spans: while more than {@link #fanIn} spans remain, a
   * shuffle groups each run of {@code fanIn} contiguous spans (span i goes to group i / fanIn)
   * and one task per group merges them in column order with the GGSWs of the levels above the
   * partitions (broadcast once per batch); the driver collects at most {@code fanIn} spans and
   * merges them into the root, so what it receives per query is bounded by {@code fanIn * (2
   * height + 1)} nodes per plane whatever the number of partitions.
   */
  private FoldSpan foldTree(JavaRDD<FoldSpan> spans, java.util.function.Supplier<Pmat[][]> ggsw,
      List<Long> broadcasts,
      long[] driver) {
    ColumnTree tree = new ColumnTree(geometry.cols());
    int n = parts.count();
    Shared<Pmat[][]> upper = null;
    try {
      JavaRDD<FoldSpan> cur = spans;
      if (n > fanIn) {
        int lowest = tree.lowestLevel(parts.bounds());
        // local mode: the merge tasks, which run after the partitions' tasks, read the GGSWs
        upper = localHandoff ? LocalShared.lazy(memo(() -> levelsFrom(ggsw.get(), lowest)))
            : share(levelsFrom(ggsw.get(), lowest), broadcasts, driver);
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
      s = new LocalShared<>(value);
    } else {
      Broadcast<T> b = sc.broadcast(value);
      broadcasts.add(b.id());
      s = new BroadcastShared<>(b);
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

  /** A batch's value as its tasks read it; {@link #destroy} once the batch is done. */
  abstract static class Shared<T> implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** The value (on an executor or, in local mode, in the driver's JVM). */
    abstract T value();

    /** Releases the value; tasks started later fail. */
    abstract void destroy();
  }

  /** A Spark broadcast: serialized into pieces that every executor fetches once. */
  static final class BroadcastShared<T> extends Shared<T> {
    private static final long serialVersionUID = 1L;
    private final Broadcast<T> b;

    BroadcastShared(Broadcast<T> b) {
      this.b = b;
    }

    @Override
    T value() {
      return b.value();
    }

    @Override
    void destroy() {
      b.destroy();
    }
  }

  /**
   * The driver's object by reference (local mode: the tasks run in the driver's JVM); only an id
   * travels in the task closure.
   */
  static final class LocalShared<T> extends Shared<T> {
    private static final long serialVersionUID = 1L;
    private static final java.util.concurrent.ConcurrentHashMap<Long, Object> VALUES =
        new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.concurrent.atomic.AtomicLong IDS =
        new java.util.concurrent.atomic.AtomicLong();
    private final long id;

    LocalShared(T value) {
      this.id = IDS.incrementAndGet();
      VALUES.put(id, value);
    }

    private LocalShared(java.util.function.Supplier<T> value, boolean lazy) {
      this.id = IDS.incrementAndGet();
      VALUES.put(id, new Lazy(value));
    }

    /** A value computed by the first task that reads it ({@code value} must be thread-safe). */
    static <T> LocalShared<T> lazy(java.util.function.Supplier<T> value) {
      return new LocalShared<>(value, true);
    }

    /** The marker of a lazily computed value. */
    private record Lazy(java.util.function.Supplier<?> supplier) {}

    @Override
    @SuppressWarnings("unchecked")
    T value() {
      Object v = VALUES.get(id);
      if (v == null) {
        throw new IllegalStateException("batch value " + id + " is not in this JVM: local"
            + " hand-off works only in Spark local mode and during its batch");
      }
      return (T) (v instanceof Lazy l ? l.supplier().get() : v);
    }

    @Override
    void destroy() {
      VALUES.remove(id);
    }

    /** Values held now (tests: none after a batch). */
    static int held() {
      return VALUES.size();
    }
  }

  /** Each query's GGSWs of levels {@code >= from} (lower levels null: the tree never reads them). */
  static Pmat[][] levelsFrom(Pmat[][] ggsw, int from) {
    Pmat[][] out = new Pmat[ggsw.length][];
    for (int q = 0; q < ggsw.length; q++) {
      out[q] = new Pmat[ggsw[q].length];
      for (int t = from; t < ggsw[q].length; t++) {
        out[q][t] = ggsw[q][t];
      }
    }
    return out;
  }

  /** Keys span i by its group i / fanIn of the next tree level. */
  static final class GroupKeyFn
      implements org.apache.spark.api.java.function.PairFunction<FoldSpan, Integer, FoldSpan> {
    private static final long serialVersionUID = 1L;
    private final int fanIn;

    GroupKeyFn(int fanIn) {
      this.fanIn = fanIn;
    }

    @Override
    public scala.Tuple2<Integer, FoldSpan> call(FoldSpan s) {
      return new scala.Tuple2<>(s.index() / fanIn, s);
    }
  }

  /** Group g of a tree level goes to partition g. */
  static final class GroupPartitioner extends org.apache.spark.Partitioner {
    private static final long serialVersionUID = 1L;
    private final int groups;

    GroupPartitioner(int groups) {
      this.groups = groups;
    }

    @Override
    public int numPartitions() {
      return groups;
    }

    @Override
    public int getPartition(Object key) {
      return (Integer) key;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof GroupPartitioner gp && gp.groups == groups;
    }

    @Override
    public int hashCode() {
      return groups;
    }
  }

  /** Merges one group's spans in column order into the span of index = the group. */
  static final class MergeFn implements org.apache.spark.api.java.function.Function2<Integer,
      java.util.Iterator<FoldSpan>, java.util.Iterator<FoldSpan>> {
    private static final long serialVersionUID = 1L;
    private final String paramsId;
    private final ColumnTree tree;
    private final Shared<Pmat[][]> ggsw;

    MergeFn(String paramsId, ColumnTree tree, Shared<Pmat[][]> ggsw) {
      this.paramsId = paramsId;
      this.tree = tree;
      this.ggsw = ggsw;
    }

    @Override
    public java.util.Iterator<FoldSpan> call(Integer group, java.util.Iterator<FoldSpan> it) {
      List<FoldSpan> in = new ArrayList<>();
      it.forEachRemaining(in::add);
      if (in.isEmpty()) {
        return java.util.Collections.emptyIterator();
      }
      in.sort(Comparator.comparingInt(FoldSpan::first));
      PirServer server = new PirServer(Presets.byId(paramsId));
      return List.of(tree.merge(server, in, group, ggsw.value(), executorId())).iterator();
    }
  }

  /**
   * Answers a batch of compact queries (same preset and geometry), expanding them where {@code
   * mode} says. The driver always expands the phase-2 GGSWs itself (small) for its fold.
   *
   * @throws IllegalArgumentException when a query does not match the keys, preset or geometry
   */
  public Answer[] answerCompactBatch(org.jpir.core.CompactParams cp, List<CompactQuery> queries,
      EvaluationKeyStore store, ExpandMode mode, BatchStats[] statsOut) {
    if (!cp.server().equals(params)) {
      throw new IllegalArgumentException("compact preset " + cp.id() + " serves "
          + cp.server().id() + ", this database runs " + params.id());
    }
    CompactExpander ex = new CompactExpander(cp);
    long t0 = System.nanoTime();
    Pmat[] packing = new Pmat[queries.size()];
    for (int i = 0; i < packing.length; i++) {
      packing[i] = store.packingKey(queries.get(i).clientId(), geometry);
    }
    if (mode == ExpandMode.DRIVER) {
      List<PreparedQuery> expanded = new ArrayList<>();
      for (CompactQuery q : queries) {
        expanded.add(ex.expand(q, geometry, store, null));
      }
      return answerPrepared(expanded, t0, System.nanoTime() - t0, statsOut, packing);
    }
    int nq = queries.size();
    byte[][] payload = new byte[2 * nq][];
    Pmat[][] ggsw = new Pmat[nq][];
    long te = 0;
    for (int i = 0; i < nq; i++) {
      CompactQuery q = queries.get(i);
      if (q.rows() != geometry.rows() || q.cols() != geometry.cols()) {
        throw new IllegalArgumentException("compact query was made for " + q.rows() + " rows x "
            + q.cols() + " columns, the database has " + geometry.rows() + " x "
            + geometry.cols());
      }
      org.jpir.core.PreparedEvaluationKeys keys = store.get(q.clientId());
      if (keys.fingerprint() != q.keysFingerprint()) {
        throw new IllegalArgumentException("compact query of client '" + q.clientId()
            + "' was made for other evaluation keys than the server holds");
      }
      long a = System.nanoTime();
      ggsw[i] = ex.expandPhase2(q, keys, null);
      te += System.nanoTime() - a;
      payload[i] = Wire.writeCompactQuery(q);
      payload[nq + i] = store.wire(q.clientId());
    }
    long batch = BATCHES.incrementAndGet();
    return onExecutors(payload, bp -> new CompactAnswerFn(cp.server().id(), geometry, bp,
        failFirstAttemptOf, batch, queryCacheBytes), nq, () -> ggsw, t0, te, statsOut, packing);
  }

  /**
   * Answers a batch of classic client queries, expanding them where {@code mode} says: on the
   * driver (then the prepared matrices are broadcast, {@code 8 N rows*limbs*2*glweLimbs} bytes
   * each) or on every executor (then the seeded queries are broadcast, about 8x smaller, and each
   * executor expands each query once); the driver expands only the phase-2 GGSWs for its fold.
   *
   * @throws IllegalArgumentException when a query does not match the preset or the geometry
   */
  public Answer[] answerClientBatch(List<org.jpir.core.ClientQuery> queries, ExpandMode mode,
      BatchStats[] statsOut) {
    org.jpir.core.QueryExpander ex = new org.jpir.core.QueryExpander(params);
    long t0 = System.nanoTime();
    if (mode == ExpandMode.DRIVER) {
      List<PreparedQuery> expanded = new ArrayList<>();
      for (org.jpir.core.ClientQuery q : queries) {
        expanded.add(ex.expand(q, geometry));
      }
      return answerPrepared(expanded, t0, System.nanoTime() - t0, statsOut, null);
    }
    int nq = queries.size();
    byte[][] payload = new byte[nq][];
    Pmat[][] ggsw = new Pmat[nq][];
    for (int i = 0; i < nq; i++) {
      ex.check(queries.get(i), geometry);
      payload[i] = Wire.writeQuery(queries.get(i));
    }
    long batch = BATCHES.incrementAndGet();
    java.util.function.Supplier<Pmat[][]> source;
    if (localHandoff) {
      // local mode: the tasks' expansions sit in this JVM's executor cache; take their GGSWs
      // after the job instead of expanding them again on the driver before it
      long size = MemoryPlan.expandedQueryBytes(params, geometry);
      source = () -> {
        for (int i = 0; i < nq; i++) {
          byte[] bytes = payload[i];
          ggsw[i] = ExecutorQueries.CACHE.get(ExecutorCache.sha256(bytes), batch, size,
              queryCacheBytes, () -> new org.jpir.core.QueryExpander(params)
                  .expand(Wire.readQuery(bytes, params), geometry)).ggsw();
        }
        return ggsw;
      };
    } else {
      for (int i = 0; i < nq; i++) {
        ggsw[i] = ex.expandPhase2(queries.get(i), geometry);
      }
      source = () -> ggsw;
    }
    long te = System.nanoTime() - t0;
    return onExecutors(payload, bp -> new ClientAnswerFn(params.id(), geometry, bp,
        failFirstAttemptOf, batch, queryCacheBytes, failQueries), nq, source, t0, te, statsOut,
        null);
  }

  /**
   * Expands the broadcast classic queries on an executor (once per executor and batch, through
   * {@link ExecutorQueries}), then answers.
   */
  static final class ClientAnswerFn extends PartitionAnswerFn<byte[][]> {
    private static final long serialVersionUID = 1L;
    private final Geometry geometry;
    private final long batch;
    private final long cacheBytes;
    private final java.util.Set<String> failQueries;

    ClientAnswerFn(String paramsId, Geometry geometry, Shared<byte[][]> payload,
        int failFirstAttemptOf, long batch, long cacheBytes, java.util.Set<String> failQueries) {
      super(paramsId, payload, failFirstAttemptOf);
      this.geometry = geometry;
      this.batch = batch;
      this.cacheBytes = cacheBytes;
      this.failQueries = new java.util.HashSet<>(failQueries);
    }

    @Override
    PreparedQuery[] queries(byte[][] pl, long[] nanos, double position) {
      Params p = Presets.byId(paramsId);
      PreparedQuery[] qs = new PreparedQuery[pl.length];
      long t0 = System.nanoTime();
      long size = MemoryPlan.expandedQueryBytes(p, geometry);
      int start = (int) (position * pl.length);
      for (int k = 0; k < pl.length; k++) {
        int i = (start + k) % pl.length;
        byte[] bytes = pl[i];
        String key = ExecutorCache.sha256(bytes);
        if (failQueries.contains(key)) {
          throw new IllegalStateException("injected executor failure of query " + i
              + " of the batch");
        }
        qs[i] = ExecutorQueries.CACHE.get(key, batch, size, cacheBytes, () ->
            new org.jpir.core.QueryExpander(p).expand(Wire.readQuery(bytes, p), geometry));
      }
      nanos[0] += System.nanoTime() - t0;
      return qs;
    }
  }

  /** Expands the broadcast compact queries on an executor, then answers its partition. */
  static final class CompactAnswerFn extends PartitionAnswerFn<byte[][]> {
    private static final long serialVersionUID = 1L;
    private final Geometry geometry;
    private final long batch;
    private final long cacheBytes;

    CompactAnswerFn(String serverParamsId, Geometry geometry, Shared<byte[][]> payload,
        int failFirstAttemptOf, long batch, long cacheBytes) {
      super(serverParamsId, payload, failFirstAttemptOf);
      this.geometry = geometry;
      this.batch = batch;
      this.cacheBytes = cacheBytes;
    }

    @Override
    PreparedQuery[] queries(byte[][] pl, long[] nanos, double position) {
      org.jpir.core.CompactParams cp = org.jpir.core.CompactParams.byId(paramsId);
      int nq = pl.length / 2;
      CompactExpander ex = new CompactExpander(cp);
      CompactExpander.Timings et = new CompactExpander.Timings();
      PreparedQuery[] qs = new PreparedQuery[nq];
      long size = MemoryPlan.expandedQueryBytes(cp.server(), geometry);
      int start = (int) (position * nq);
      for (int k = 0; k < nq; k++) {
        int i = (start + k) % nq;
        byte[] query = pl[i];
        byte[] keys = pl[nq + i];
        qs[i] = ExecutorQueries.CACHE.get(ExecutorCache.sha256(query, keys), batch, size,
            cacheBytes, () -> ex.expand(Wire.readCompactQuery(query, cp),
                ExecutorKeys.get(cp, keys, cacheBytes), et));
      }
      nanos[0] += et.expandNanos;
      return qs;
    }
  }

  /**
   * Expanded queries (compact or classic) cached per executor JVM by a SHA-256 of their bytes,
   * bounded in bytes, released when a newer batch starts on the executor.
   */
  static final class ExecutorQueries {
    static final ExecutorCache<PreparedQuery> CACHE = new ExecutorCache<>("expanded queries");

    private ExecutorQueries() {}
  }

  /**
   * Prepared evaluation keys cached per executor JVM by the SHA-256 of their wire bytes (kept
   * across batches, oldest released first when the bound needs room).
   */
  static final class ExecutorKeys {
    static final ExecutorCache<org.jpir.core.PreparedEvaluationKeys> CACHE =
        new ExecutorCache<>("prepared evaluation keys");

    private ExecutorKeys() {}

    static org.jpir.core.PreparedEvaluationKeys get(org.jpir.core.CompactParams cp, byte[] wire,
        long limit) {
      long size = org.jpir.core.PreparedEvaluationKeys.bytesFor(cp);
      return CACHE.get(cp.id() + ":" + ExecutorCache.sha256(wire), 0, size, limit,
          () -> org.jpir.core.PreparedEvaluationKeys.prepare(cp, Wire.readEvaluationKeys(wire,
              cp)));
    }
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

  /**
   * A partition task: fails its first attempt when asked (test hook), gets the batch's prepared
   * queries from the broadcast value ({@link #queries}), and answers its column range.
   */
  abstract static class PartitionAnswerFn<T>
      implements Function<PreparedPartition, FoldSpan> {
    private static final long serialVersionUID = 1L;
    final String paramsId;
    final Shared<T> payload;
    private final int failFirstAttemptOf;

    PartitionAnswerFn(String paramsId, Shared<T> payload, int failFirstAttemptOf) {
      this.paramsId = paramsId;
      this.payload = payload;
      this.failFirstAttemptOf = failFirstAttemptOf;
    }

    /**
     * The prepared queries of the batch; adds the time spent expanding to {@code nanos[0]}.
     * {@code position} (the partition's first column / columns, in [0, 1)) is where an
     * executor-side expansion starts in the batch, so that the tasks of one executor expand
     * different queries at the same time instead of waiting for each other's.
     */
    abstract PreparedQuery[] queries(T value, long[] nanos, double position);

    @Override
    public FoldSpan call(PreparedPartition pp) {
      TaskContext tc = TaskContext.get();
      if (pp.index() == failFirstAttemptOf && tc != null && tc.attemptNumber() == 0) {
        throw new IllegalStateException("injected failure of the first attempt of partition "
            + pp.index());
      }
      long[] expandNanos = new long[1];
      double position = pp.database().firstColumn()
          / (double) pp.database().geometry().cols();
      PreparedQuery[] qs = queries(payload.value(), expandNanos, position);
      PirServer server = new PirServer(Presets.byId(paramsId));
      PirServer.Timings t = new PirServer.Timings();
      ColumnTree tree = new ColumnTree(pp.database().geometry().cols());
      return tree.answer(server, pp.database(), qs, pp.index(), t, expandNanos[0], executorId());
    }
  }

  /** Answers the broadcast prepared queries (expanded on the driver). */
  static final class PreparedAnswerFn extends PartitionAnswerFn<PreparedQuery[]> {
    private static final long serialVersionUID = 1L;

    PreparedAnswerFn(String paramsId, Shared<PreparedQuery[]> queries,
        int failFirstAttemptOf) {
      super(paramsId, queries, failFirstAttemptOf);
    }

    @Override
    PreparedQuery[] queries(PreparedQuery[] value, long[] nanos, double position) {
      return value;
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
      KernelProvider c = KernelProvider.get();
      if (!c.vector()) {
        LOG.error("executor {} runs the SCALAR kernels ({}): the Vector API is missing here;"
            + " check spark.executor.extraJavaOptions", executorId(), c);
      } else {
        LOG.info("executor {} kernels: {}", executorId(), c);
      }
    }
  }
}
