package org.jpir.spark.server;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerBlockUpdated;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.storage.BlockUpdatedInfo;
import org.apache.spark.storage.BroadcastBlockId;

/**
 * Collects {@link SparkBatchMetrics} per batch: the driver tags a batch's jobs with the local
 * property {@link #PROPERTY}, every task of a stage submitted under that tag is counted for the
 * batch, and the broadcast pieces of the batch's broadcasts (by id) are summed from the block
 * manager's updates (on the driver: written; elsewhere: fetched by an executor). One listener per
 * Spark context ({@link #on}).
 */
public final class BatchMetricsListener extends SparkListener {
  /** The local property that names the batch of the jobs the driver runs. */
  public static final String PROPERTY = "jpir.batch";
  private static final Map<SparkContext, BatchMetricsListener> BY_CONTEXT = new WeakHashMap<>();

  private final SparkContext sc;
  private final Map<Integer, String> stageBatch = new ConcurrentHashMap<>();
  private final Map<String, long[]> perBatch = new ConcurrentHashMap<>();
  private final Map<Long, long[]> perBroadcast = new ConcurrentHashMap<>();

  private BatchMetricsListener(SparkContext sc) {
    this.sc = sc;
  }

  /** The listener of {@code sc}, added to its listener bus on first use. */
  public static synchronized BatchMetricsListener on(SparkContext sc) {
    return BY_CONTEXT.computeIfAbsent(sc, c -> {
      BatchMetricsListener l = new BatchMetricsListener(c);
      c.addSparkListener(l);
      return l;
    });
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted s) {
    String batch = s.properties() == null ? null : s.properties().getProperty(PROPERTY);
    if (batch != null) {
      stageBatch.put(s.stageInfo().stageId(), batch);
      acc(batch)[1]++;
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    String batch = stageBatch.get(end.stageId());
    TaskMetrics m = end.taskMetrics();
    if (batch == null || m == null) {
      return;
    }
    TaskInfo ti = end.taskInfo();
    long duration = ti.finishTime() > 0 ? ti.duration() : 0;
    long fetch = ti.gettingResultTime() > 0 ? ti.finishTime() - ti.gettingResultTime() : 0;
    long delay = Math.max(0, duration - m.executorRunTime() - m.executorDeserializeTime()
        - m.resultSerializationTime() - fetch);
    long[] a = acc(batch);
    synchronized (a) {
      a[0]++;
      a[2] += delay;
      a[3] += m.executorDeserializeTime();
      a[4] += m.jvmGCTime();
      a[5] += m.executorRunTime();
      a[6] += m.resultSize();
      a[7] += m.shuffleWriteMetrics().bytesWritten();
      if (ti.finishTime() > 0) {
        a[8] = Math.min(a[8], ti.launchTime());
        a[9] = Math.max(a[9], ti.finishTime());
        a[10] = Math.max(a[10], duration);
      }
    }
  }

  @Override
  public void onBlockUpdated(SparkListenerBlockUpdated u) {
    BlockUpdatedInfo info = u.blockUpdatedInfo();
    if (info.blockId() instanceof BroadcastBlockId b && b.field().startsWith("piece")
        && info.storageLevel().isValid()) {
      long[] a = perBroadcast.computeIfAbsent(b.broadcastId(), k -> new long[2]);
      synchronized (a) {
        a[info.blockManagerId().isDriver() ? 0 : 1] += info.memSize() + info.diskSize();
      }
    }
  }

  private long[] acc(String batch) {
    return perBatch.computeIfAbsent(batch, k -> {
      long[] a = new long[11];
      a[8] = Long.MAX_VALUE;
      return a;
    });
  }

  /**
   * The metrics of {@code batch} with the pieces of {@code broadcastIds}, after the listener bus
   * has delivered every event posted so far; forgets them.
   */
  public SparkBatchMetrics finish(String batch, long... broadcastIds) {
    try {
      // private[spark] in Scala, public in the bytecode: the only way to know every task end of
      // the batch's jobs has been delivered
      sc.listenerBus().waitUntilEmpty(30_000);
    } catch (TimeoutException e) {
      // the figures then miss the events still queued
    }
    long[] a = perBatch.remove(batch);
    stageBatch.values().removeIf(batch::equals);
    long written = 0;
    long fetched = 0;
    for (long id : broadcastIds) {
      long[] b = perBroadcast.remove(id);
      if (b != null) {
        written += b[0];
        fetched += b[1];
      }
    }
    if (a == null) {
      return new SparkBatchMetrics(0, 0, 0, 0, 0, 0, 0, 0, written, fetched, 0, 0);
    }
    synchronized (a) {
      return new SparkBatchMetrics((int) a[0], (int) a[1], a[2], a[3], a[4], a[5], a[6], a[7],
          written, fetched, a[9] > a[8] ? a[9] - a[8] : 0, a[10]);
    }
  }
}
