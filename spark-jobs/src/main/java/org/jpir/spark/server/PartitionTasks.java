package org.jpir.spark.server;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedEvaluationKeys;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpansion;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.spark.source.RecordSourceFactory;
import org.jpir.vmp.KernelProvider;
import org.jpir.core.server.ColumnTree;
import org.jpir.core.server.FoldSpan;

/**
 * What runs on the executors for a {@link DistributedPirServer}: preparing a partition, answering
 * it for a batch (with the queries prepared on the driver, or expanded there from their bytes),
 * and the per-JVM caches of expanded queries and prepared keys.
 */
final class PartitionTasks {
  private static final Logger LOG = LogManager.getLogger(PartitionTasks.class);

  private PartitionTasks() {}

  /**
   * Expands the broadcast {@link QueryBatch} on an executor (each query once per executor and
   * batch, through {@link ExecutorQueries}; each client's keys once per executor, through {@link
   * ExecutorKeys}), then answers its partition.
   */
  static final class ExpandingAnswerFn extends PartitionAnswerFn<QueryBatch> {
    private static final long serialVersionUID = 1L;
    private final Geometry geometry;
    private final long batch;
    private final long cacheBytes;
    private final java.util.Set<String> failQueries;

    ExpandingAnswerFn(String paramsId, Geometry geometry, Shared<QueryBatch> payload,
        int failFirstAttemptOf, long batch, long cacheBytes, java.util.Set<String> failQueries) {
      super(paramsId, payload, failFirstAttemptOf);
      this.geometry = geometry;
      this.batch = batch;
      this.cacheBytes = cacheBytes;
      this.failQueries = new java.util.HashSet<>(failQueries);
    }

    @Override
    PreparedQuery[] queries(QueryBatch b, long[] nanos, double position) {
      int nq = b.size();
      PreparedQuery[] qs = new PreparedQuery[nq];
      int start = (int) (position * nq);
      for (int k = 0; k < nq; k++) {
        int i = (start + k) % nq;
        if (!failQueries.isEmpty() && failQueries.contains(ExecutorCache.sha256(b.query(i)))) {
          throw new IllegalStateException("injected executor failure of query " + i
              + " of the batch");
        }
        qs[i] = expanded(b, i, geometry, batch, cacheBytes, nanos);
      }
      return qs;
    }

    /**
     * Query i of {@code b}, expanded in this JVM once per batch (cached by the batch's number,
     * unique in the driver, and i: no hashing of the query's or the keys' bytes per task); the
     * time an expansion takes joins {@code nanos[0]}.
     */
    static PreparedQuery expanded(QueryBatch b, int i, Geometry g, long batch, long cacheBytes,
        long[] nanos) {
      QueryExpansion ex = QueryExpansion.byId(b.expansionId(i));
      byte[] query = b.query(i);
      byte[] keys = b.keys(i);
      return ExecutorQueries.CACHE.get("batch " + batch + " query " + i, batch,
          MemoryPlan.expandedQueryBytes(ex.server(), g), cacheBytes, () -> {
            PreparedEvaluationKeys pk = keys == null ? null
                : ExecutorKeys.get(ex, b.keysDigest(i), keys, cacheBytes);
            long t0 = System.nanoTime();
            PreparedQuery pq = ex.expand(query, pk, g);
            nanos[0] += System.nanoTime() - t0;
            return pq;
          });
    }
  }

  /**
   * Expanded queries (compact or classic) cached per executor JVM by batch and position, bounded
   * in bytes, released when a newer batch starts on the executor.
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
    static final ExecutorCache<PreparedEvaluationKeys> CACHE =
        new ExecutorCache<>("prepared evaluation keys");

    private ExecutorKeys() {}

    /** The keys {@code wire} (whose SHA-256 is {@code digest}, computed by the driver). */
    static PreparedEvaluationKeys get(QueryExpansion ex, String digest,
        byte[] wire, long limit) {
      return CACHE.get(ex.id() + ":" + digest, 0, ex.preparedKeysBytes(), limit,
          () -> ex.prepareKeys(wire));
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
