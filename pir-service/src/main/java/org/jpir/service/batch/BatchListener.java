package org.jpir.service.batch;

import org.jpir.spark.server.DistributedPirServer;

/**
 * Told about each micro-batch after it was answered, on the micro-batcher's thread (keep it
 * short): the seam for metrics (Prometheus) without touching the batcher. Nothing here depends on
 * a queried index: counts and times only.
 */
@FunctionalInterface
public interface BatchListener {
  /** Listens to nothing. */
  BatchListener NONE = s -> { };

  /**
   * One micro-batch's figures.
   *
   * @param number the micro-batch's number (1, 2, ...)
   * @param queries queries handed to the answer path
   * @param calls calls (or directory units) taken
   * @param seconds wall time of the micro-batch
   * @param dropped queries dropped because every caller went away
   * @param outdated queries whose config id was no longer served
   * @param queued queries waiting when it ended
   */
  record Stats(long number, int queries, int calls, double seconds, int dropped, int outdated,
      int queued) {}

  /** Called once per micro-batch. */
  void answered(Stats s);

  /**
   * Called once per Spark batch answered inside a micro-batch, with the answer path's figures
   * (expansion, phase 1, phase 2 times; counts and times only). Nothing by default.
   */
  default void sparkBatch(DistributedPirServer.BatchStats s) {
  }
}
