package org.jpir.spark.server;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.function.PairFunction;
import org.apache.spark.broadcast.Broadcast;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.server.BatchSteps;
import org.jpir.core.server.FoldSpan;
import org.jpir.core.server.KeySource;
import org.jpir.core.server.QueryBatch;
import org.jpir.core.wire.Answer;
import org.jpir.spark.server.DistributedPirServer.BatchResult;
import org.jpir.spark.server.DistributedPirServer.BatchStats;
import org.jpir.spark.server.DistributedPirServer.DriverTimes;
import scala.Tuple2;

/**
 * Spark as the transport of {@link BatchSteps}: one batch is broadcast as the bytes the driver
 * received and its key fingerprints ({@link BatchSteps#ship}); the key bytes of each fingerprint
 * travel in a broadcast of their own, made once and reused by later batches ({@link
 * KeyBroadcasts}), whose handles the tasks carry; the task of every cached partition answers its
 * column range ({@link BatchSteps#answerRange}, which expands each query once per executor JVM
 * and fetches a fingerprint's bytes only where that JVM's prepared keys miss); while
 * more than {@code fanIn} spans remain, a shuffle sends span i to group {@code i / fanIn} and one
 * task per group merges its spans ({@link BatchSteps#merge}, with the GGSWs of that JVM's
 * expansions); the driver merges the last spans into the root ({@link BatchSteps#root}) and makes
 * the answers ({@link BatchSteps#answers}). The closures hold no logic beyond calling the steps.
 */
public final class BatchTransport {
  private final JavaSparkContext sc;
  private final PreparedTable table;
  private final BatchSteps steps;
  private final BatchMetricsListener listener;
  private final int fanIn;
  private final Faults faults;

  /**
   * The transport over {@code table}'s partitions, folding {@code fanIn} spans per task, with
   * {@code faults} injected into the tasks.
   *
   * @throws IllegalArgumentException when {@code fanIn < 2}
   */
  BatchTransport(JavaSparkContext sc, PreparedTable table, long cacheBytes, int fanIn,
      Faults faults) {
    if (fanIn < 2) {
      throw new IllegalArgumentException(DistributedPirServer.FAN_IN_SETTING + " = " + fanIn
          + " must be at least 2");
    }
    this.sc = sc;
    this.table = table;
    this.steps = new BatchSteps(table.params(), table.geometry(), cacheBytes);
    this.listener = BatchMetricsListener.on(sc.sc());
    this.fanIn = fanIn;
    this.faults = faults;
  }

  /**
   * Answers {@code queries} (accepted by their kind for this database) in one pass over the
   * partitions, after re-placing lost or uneven partitions ({@link Placement#rebalance}): an
   * answer per query, in order, and the batch's statistics.
   *
   * @throws IllegalArgumentException when a query was accepted for another server preset
   */
  public BatchResult answer(List<AcceptedQuery> queries) {
    table.placement().rebalance();
    long t0 = System.nanoTime();
    QueryBatch batch = steps.ship(queries);
    String tag = "batch-" + batch.number();
    String previous = sc.getLocalProperty(BatchMetricsListener.PROPERTY);
    sc.setLocalProperty(BatchMetricsListener.PROPERTY, tag);
    long[] driver = new long[4]; // broadcast, job, merge, metrics
    long[] driverExpand = new long[1];
    List<Long> broadcasts = new ArrayList<>();
    FoldSpan root;
    SparkBatchMetrics metrics;
    try {
      long tb = System.nanoTime();
      try (KeyBroadcasts.Lease keys = KeyBroadcasts.on(sc).lease(sc, batch)) {
        for (long id : keys.broadcastIds()) {
          broadcasts.add(id);
        }
        Broadcast<QueryBatch> shared = sc.broadcast(batch);
        broadcasts.add(shared.id());
        driver[0] = System.nanoTime() - tb;
        try {
          long tj = System.nanoTime();
          List<FoldSpan> top = fold(table.rdd().map(new RangeFn(steps, shared, keys.source(),
              faults)), shared, keys.source());
          long tm = System.nanoTime();
          driver[1] = tm - tj;
          root = steps.root(batch, top, driverExpand);
          driver[2] = System.nanoTime() - tm - driverExpand[0];
        } finally {
          shared.destroy();
        }
      }
    } finally {
      sc.setLocalProperty(BatchMetricsListener.PROPERTY, previous);
      // also when the batch failed: the listener forgets the batch's figures
      long tm = System.nanoTime();
      metrics = listener.finish(tag, broadcasts.stream().mapToLong(Long::longValue).toArray());
      driver[3] = System.nanoTime() - tm;
    }
    long ta = System.nanoTime();
    Answer[] out = steps.answers(batch, root);
    long t2 = System.nanoTime();
    driver[2] += t2 - ta;
    return new BatchResult(out, new BatchStats(out.length, t2 - t0, root.phase1Nanos(),
        root.phase2Nanos(), root.foldNanos(), driverExpand[0] + root.expandNanos(), metrics,
        new DriverTimes(driver[0], driver[1], driver[2], driver[3])));
  }

  /**
   * The spans left after the executors' ordered fold: while more than {@link #fanIn} remain,
   * each run of {@code fanIn} contiguous spans merges in one task, so the driver receives at most
   * {@code fanIn * (2 height + 1)} nodes per query and plane whatever the number of partitions.
   */
  private List<FoldSpan> fold(JavaRDD<FoldSpan> spans, Broadcast<QueryBatch> shared,
      KeySource keys) {
    JavaRDD<FoldSpan> cur = spans;
    int n = table.partitioning().count();
    while (n > fanIn) {
      int groups = (n + fanIn - 1) / fanIn;
      cur = cur.mapToPair(new GroupKeyFn(fanIn))
          .partitionBy(new GroupPartitioner(groups))
          .values()
          .mapPartitionsWithIndex(new MergeFn(steps, shared, keys), true);
      n = groups;
    }
    return cur.collect();
  }

  /** A partition's task: the injected faults, then {@link BatchSteps#answerRange}. */
  private record RangeFn(BatchSteps steps, Broadcast<QueryBatch> batch, KeySource keys,
      Faults faults) implements Function<PreparedPartition, FoldSpan> {
    @Override
    public FoldSpan call(PreparedPartition pp) {
      TaskContext tc = TaskContext.get();
      faults.check(pp.index(), tc == null ? 0 : tc.attemptNumber(), batch.value());
      return steps.answerRange(batch.value(), keys, pp.database(), pp.index(),
          PreparedTable.executorId());
    }
  }

  /** Keys span i by its group {@code i / fanIn} of the next tree level. */
  private record GroupKeyFn(int fanIn) implements PairFunction<FoldSpan, Integer, FoldSpan> {
    @Override
    public Tuple2<Integer, FoldSpan> call(FoldSpan s) {
      return new Tuple2<>(s.index() / fanIn, s);
    }
  }

  /** Group g of a tree level goes to partition g. */
  private static final class GroupPartitioner extends Partitioner {
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

  /** One group's task: {@link BatchSteps#merge} of its spans into the span of index = group. */
  private record MergeFn(BatchSteps steps, Broadcast<QueryBatch> batch, KeySource keys)
      implements Function2<Integer, Iterator<FoldSpan>, Iterator<FoldSpan>> {
    @Override
    public Iterator<FoldSpan> call(Integer group, Iterator<FoldSpan> it) {
      List<FoldSpan> in = new ArrayList<>();
      it.forEachRemaining(in::add);
      return in.isEmpty() ? Collections.emptyIterator() : List.of(steps.merge(batch.value(),
          keys, in, group, PreparedTable.executorId())).iterator();
    }
  }
}
