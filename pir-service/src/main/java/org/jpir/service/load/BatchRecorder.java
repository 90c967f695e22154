package org.jpir.service.load;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jpir.service.batch.BatchListener;
import org.jpir.spark.server.DistributedPirServer;

/**
 * The service's figures per micro-batch, as its batch listener hears them (the seam the
 * Prometheus metrics use): each micro-batch's size, calls and wall time, stamped with the time
 * the listener heard of it (just after its answers went out), and each Spark batch's statistics.
 */
final class BatchRecorder implements BatchListener {
  /** One micro-batch: it ended at {@code endNanos} after {@code seconds}. */
  record MicroBatch(long endNanos, int queries, int calls, double seconds) {
    long startNanos() {
      return endNanos - Math.round(seconds * 1e9);
    }
  }

  private final List<MicroBatch> micro = new CopyOnWriteArrayList<>();
  private final List<DistributedPirServer.BatchStats> spark = new CopyOnWriteArrayList<>();

  @Override
  public void answered(Stats s) {
    micro.add(new MicroBatch(System.nanoTime(), s.queries(), s.calls(), s.seconds()));
  }

  @Override
  public void sparkBatch(DistributedPirServer.BatchStats s) {
    spark.add(s);
  }

  /** How many micro-batches were heard of so far (a mark for {@link #microSince}). */
  int microMark() {
    return micro.size();
  }

  /** How many Spark batches were heard of so far (a mark for {@link #sparkSince}). */
  int sparkMark() {
    return spark.size();
  }

  /** The micro-batches heard of since {@code mark}. */
  List<MicroBatch> microSince(int mark) {
    return List.copyOf(micro.subList(mark, micro.size()));
  }

  /** The Spark batches heard of since {@code mark}. */
  List<DistributedPirServer.BatchStats> sparkSince(int mark) {
    return List.copyOf(spark.subList(mark, spark.size()));
  }
}
