package org.jpir.service.batch;

/**
 * The micro-batcher's settings.
 *
 * @param maxQueries the size bound: most queries in one micro-batch (also the most one call
 *     may carry, since a call's queries are never split)
 * @param maxWaitMillis the time bound: a micro-batch starts at the latest this long after its
 *     oldest query was queued
 * @param maxQueued the bounded queue: most queries waiting; beyond it a call is refused with
 *     {@code RESOURCE_EXHAUSTED} and a retry hint
 * @param sparkBatch queries per Spark batch inside a micro-batch (the batch the databases'
 *     memory plans were checked for)
 * @param pollMillis how often an idle service looks for new data versions
 */
public record BatchSettings(int maxQueries, long maxWaitMillis, int maxQueued, int sparkBatch,
    long pollMillis) {
  /** Validates; the message names the setting. */
  public BatchSettings {
    if (maxQueries < 1) {
      throw new IllegalArgumentException("micro-batch size bound " + maxQueries + " must be >= 1");
    }
    if (maxWaitMillis < 0) {
      throw new IllegalArgumentException("micro-batch time bound " + maxWaitMillis
          + " ms must be >= 0");
    }
    if (maxQueued < maxQueries) {
      throw new IllegalArgumentException("queue bound " + maxQueued + " must be at least the"
          + " micro-batch size bound " + maxQueries);
    }
    if (sparkBatch < 1) {
      throw new IllegalArgumentException("Spark batch " + sparkBatch + " must be >= 1");
    }
    if (pollMillis < 1) {
      throw new IllegalArgumentException("poll interval " + pollMillis + " ms must be >= 1");
    }
  }

  /** One micro-batch in flight at a time: the batcher answers on one thread. */
  public static final int IN_FLIGHT = 1;
}
