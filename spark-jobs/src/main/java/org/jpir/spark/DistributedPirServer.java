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
  private final MemoryPlan plan;
  private final long queryCacheBytes;
  private int failFirstAttemptOf = -1;
  private java.util.Set<String> failQueries = java.util.Set.of();
  /** Batch ids, increasing in this driver JVM: executors release the entries of older batches. */
  private static final java.util.concurrent.atomic.AtomicLong BATCHES =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * Where compact queries are expanded: on the driver, which then broadcasts the prepared
   * matrices (network: {@code 8 N rows*limbs*2*glweLimbs} bytes per query per executor), or on
   * every executor from the broadcast compact query and evaluation keys (network: ~0.1 MiB per
   * query plus the keys; compute: every partition repeats the phase-1 expansion).
   */
  public enum ExpandMode { DRIVER, EXECUTOR }

  /** Statistics of one batch. */
  public record BatchStats(int queries, long wallNanos, long phase1Nanos, long phase2Nanos,
      long foldNanos, long expandNanos) {}

  private DistributedPirServer(JavaSparkContext sc, Params params, Geometry geometry,
      ColumnPartitioning parts, JavaRDD<PreparedPartition> prepared, MemoryPlan plan) {
    this.sc = sc;
    this.params = params;
    this.geometry = geometry;
    this.parts = parts;
    this.prepared = prepared;
    this.driverServer = new PirServer(params);
    this.plan = plan;
    this.queryCacheBytes = plan.queryCacheBytes();
  }

  /** What a job will run on the prepared database: batches of {@code batch} queries. */
  public record Workload(int batch, ExpandMode mode, org.jpir.core.CompactParams compact) {
    /** One classic query at a time, expanded on the executors. */
    public static Workload single() {
      return new Workload(1, ExpandMode.EXECUTOR, null);
    }
  }

  /** The executors' resources: Spark's unified memory per executor, cores, the cache setting. */
  static MemoryPlan.ExecutorResources resources(JavaSparkContext sc) {
    org.apache.spark.SparkConf c = sc.getConf();
    double fraction = c.getDouble("spark.memory.fraction", 0.6);
    long cacheSetting = c.getSizeAsBytes(MemoryPlan.CACHE_SETTING, "0");
    boolean local = sc.isLocal();
    org.apache.spark.storage.BlockManagerId self = SparkEnv.get().blockManager().blockManagerId();
    int expected = Math.max(1, c.getInt("spark.executor.instances", 1));
    long deadline = System.nanoTime() + 60_000_000_000L;
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
          throw new IllegalStateException("no executor registered within 60 s: check the"
              + " cluster (workers, spark.executor.memory, spark.cores.max)");
        }
        int cores = local ? sc.defaultParallelism() : c.getInt("spark.executor.cores", 1);
        return new MemoryPlan.ExecutorResources(local ? 1 : count, cores,
            (long) (minUnified / fraction), minUnified, fraction, cacheSetting, local);
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
   * Partitions the columns into at most {@code partitions} power-of-two ranges, prepares each on
   * an executor from {@code source} and caches it in memory; returns once every partition is
   * prepared, after logging the memory held per executor.
   */
  public static DistributedPirServer prepare(JavaSparkContext sc, Params p, Geometry g,
      RecordSourceFactory source, int partitions) {
    return prepare(sc, p, g, source, partitions, Workload.single());
  }

  /**
   * As {@link #prepare(JavaSparkContext, Params, Geometry, RecordSourceFactory, int)}, after
   * checking that every executor can hold its share for {@code w} ({@link MemoryPlan#check});
   * afterwards checks that every partition is cached.
   *
   * @throws IllegalArgumentException when the executors lack memory (the message names the
   *     settings to change)
   * @throws IllegalStateException when a prepared partition could not be cached
   */
  public static DistributedPirServer prepare(JavaSparkContext sc, Params p, Geometry g,
      RecordSourceFactory source, int partitions, Workload w) {
    ColumnPartitioning parts = ColumnPartitioning.forPartitions(g.cols(), partitions);
    MemoryPlan plan = MemoryPlan.of(p, g, parts, w.batch(), w.mode(), w.compact(),
        resources(sc));
    LOG.info("memory plan: {}", plan.describe());
    plan.check();
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
    return new DistributedPirServer(sc, p, g, parts, rdd, plan);
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
    Pmat[][] ggsw = new Pmat[qs.length][];
    for (int qi = 0; qi < qs.length; qi++) {
      ggsw[qi] = qs[qi].ggsw();
    }
    return onExecutors(qs, bq -> new PreparedAnswerFn(params.id(), bq, failFirstAttemptOf), ggsw,
        t0, 0, statsOut);
  }

  /**
   * Broadcasts {@code payload}, runs {@code fn} over every cached partition, destroys the
   * broadcast, folds the partitions' nodes with each query's GGSWs ({@code ggsw[q]}) and fills
   * {@code statsOut[0]} (times from {@code t0}; {@code driverExpandNanos} plus the executors'
   * expansion times as the expansion time).
   */
  private <T> Answer[] onExecutors(T payload,
      java.util.function.Function<Broadcast<T>, PartitionAnswerFn<T>> fn, Pmat[][] ggsw, long t0,
      long driverExpandNanos, BatchStats[] statsOut) {
    Broadcast<T> b = sc.broadcast(payload);
    List<PartialAnswer> partials;
    try {
      partials = new ArrayList<>(prepared.map(fn.apply(b)).collect());
    } finally {
      b.destroy();
    }
    long t1 = System.nanoTime();
    Answer[] out = fold(partials, ggsw);
    long t2 = System.nanoTime();
    if (statsOut != null && statsOut.length > 0) {
      long p1 = 0;
      long p2 = 0;
      long pe = 0;
      for (PartialAnswer pa : partials) {
        p1 += pa.phase1Nanos();
        p2 += pa.phase2Nanos();
        pe += pa.expandNanos();
      }
      statsOut[0] = new BatchStats(ggsw.length, t2 - t0, p1, p2, t2 - t1,
          driverExpandNanos + pe);
    }
    return out;
  }

  /** Answers queries the driver expanded since {@code t0}, counting that time as expansion. */
  private Answer[] expandedOnDriver(List<PreparedQuery> prepared, long t0,
      BatchStats[] statsOut) {
    long te = System.nanoTime() - t0;
    Answer[] a = answerBatch(prepared, statsOut);
    if (statsOut != null && statsOut.length > 0) {
      BatchStats b = statsOut[0];
      statsOut[0] = new BatchStats(b.queries(), b.wallNanos() + te, b.phase1Nanos(),
          b.phase2Nanos(), b.foldNanos(), te);
    }
    return a;
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
    if (mode == ExpandMode.DRIVER) {
      List<PreparedQuery> expanded = new ArrayList<>();
      for (CompactQuery q : queries) {
        expanded.add(ex.expand(q, geometry, store, null));
      }
      return expandedOnDriver(expanded, t0, statsOut);
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
        failFirstAttemptOf, batch, queryCacheBytes), ggsw, t0, te, statsOut);
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
      return expandedOnDriver(expanded, t0, statsOut);
    }
    int nq = queries.size();
    byte[][] payload = new byte[nq][];
    Pmat[][] ggsw = new Pmat[nq][];
    for (int i = 0; i < nq; i++) {
      ggsw[i] = ex.expandPhase2(queries.get(i), geometry);
      payload[i] = Wire.writeQuery(queries.get(i));
    }
    long te = System.nanoTime() - t0;
    long batch = BATCHES.incrementAndGet();
    return onExecutors(payload, bp -> new ClientAnswerFn(params.id(), geometry, bp,
        failFirstAttemptOf, batch, queryCacheBytes, failQueries), ggsw, t0, te, statsOut);
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

    ClientAnswerFn(String paramsId, Geometry geometry, Broadcast<byte[][]> payload,
        int failFirstAttemptOf, long batch, long cacheBytes, java.util.Set<String> failQueries) {
      super(paramsId, payload, failFirstAttemptOf);
      this.geometry = geometry;
      this.batch = batch;
      this.cacheBytes = cacheBytes;
      this.failQueries = new java.util.HashSet<>(failQueries);
    }

    @Override
    PreparedQuery[] queries(byte[][] pl, long[] nanos) {
      Params p = Presets.byId(paramsId);
      PreparedQuery[] qs = new PreparedQuery[pl.length];
      long t0 = System.nanoTime();
      long size = MemoryPlan.expandedQueryBytes(p, geometry);
      for (int i = 0; i < pl.length; i++) {
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

  /** The driver's fold of partition nodes, per query, with each query's GGSWs. */
  private Answer[] fold(List<PartialAnswer> partials, Pmat[][] ggsw) {
    partials.sort(Comparator.comparingInt(PartialAnswer::partition));
    Answer[] out = new Answer[ggsw.length];
    int levels = Noise.levels(geometry.cols());
    for (int qi = 0; qi < ggsw.length; qi++) {
      Glwe[] roots = new Glwe[geometry.planes()];
      for (int pl = 0; pl < roots.length; pl++) {
        List<Glwe> nodes = new ArrayList<>(partials.size());
        for (PartialAnswer pa : partials) {
          nodes.add(pa.nodes()[qi][pl]);
        }
        roots[pl] = driverServer.fold(nodes, parts.level(), levels, ggsw[qi]).get(0);
      }
      out[qi] = driverServer.toAnswer(roots);
    }
    return out;
  }

  /** Expands the broadcast compact queries on an executor, then answers its partition. */
  static final class CompactAnswerFn extends PartitionAnswerFn<byte[][]> {
    private static final long serialVersionUID = 1L;
    private final Geometry geometry;
    private final long batch;
    private final long cacheBytes;

    CompactAnswerFn(String serverParamsId, Geometry geometry, Broadcast<byte[][]> payload,
        int failFirstAttemptOf, long batch, long cacheBytes) {
      super(serverParamsId, payload, failFirstAttemptOf);
      this.geometry = geometry;
      this.batch = batch;
      this.cacheBytes = cacheBytes;
    }

    @Override
    PreparedQuery[] queries(byte[][] pl, long[] nanos) {
      org.jpir.core.CompactParams cp = org.jpir.core.CompactParams.byId(paramsId);
      int nq = pl.length / 2;
      CompactExpander ex = new CompactExpander(cp);
      CompactExpander.Timings et = new CompactExpander.Timings();
      PreparedQuery[] qs = new PreparedQuery[nq];
      long size = MemoryPlan.expandedQueryBytes(cp.server(), geometry);
      for (int i = 0; i < nq; i++) {
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
      implements Function<PreparedPartition, PartialAnswer> {
    private static final long serialVersionUID = 1L;
    final String paramsId;
    final Broadcast<T> payload;
    private final int failFirstAttemptOf;

    PartitionAnswerFn(String paramsId, Broadcast<T> payload, int failFirstAttemptOf) {
      this.paramsId = paramsId;
      this.payload = payload;
      this.failFirstAttemptOf = failFirstAttemptOf;
    }

    /** The prepared queries of the batch; adds the time spent expanding to {@code nanos[0]}. */
    abstract PreparedQuery[] queries(T value, long[] nanos);

    @Override
    public PartialAnswer call(PreparedPartition pp) {
      TaskContext tc = TaskContext.get();
      if (pp.index() == failFirstAttemptOf && tc != null && tc.attemptNumber() == 0) {
        throw new IllegalStateException("injected failure of the first attempt of partition "
            + pp.index());
      }
      long[] expandNanos = new long[1];
      PreparedQuery[] qs = queries(payload.value(), expandNanos);
      PirServer server = new PirServer(Presets.byId(paramsId));
      PirServer.Timings t = new PirServer.Timings();
      Glwe[][] nodes = server.answerRange(pp.database(), qs, t);
      return new PartialAnswer(pp.index(), nodes, t.phase1Nanos, t.phase2Nanos, expandNanos[0],
          executorId());
    }
  }

  /** Answers the broadcast prepared queries (expanded on the driver). */
  static final class PreparedAnswerFn extends PartitionAnswerFn<PreparedQuery[]> {
    private static final long serialVersionUID = 1L;

    PreparedAnswerFn(String paramsId, Broadcast<PreparedQuery[]> queries,
        int failFirstAttemptOf) {
      super(paramsId, queries, failFirstAttemptOf);
    }

    @Override
    PreparedQuery[] queries(PreparedQuery[] value, long[] nanos) {
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
