package org.jpir.spark.server;

import java.util.Locale;

/**
 * What Spark spent on one batch, from its own task metrics and block updates
 * ({@link BatchMetricsListener}): task and stage counts; summed over tasks the scheduler delay
 * (task duration minus run, deserialization, result serialization and result fetch, as the Spark
 * UI computes it), the task deserialization, GC and run times (milliseconds); the serialized task
 * results sent to the driver, the bytes the fold's shuffles wrote, and the broadcast pieces the
 * driver wrote and the executors fetched (bytes); the task span (first task launch to last task
 * end) and the longest task's duration (milliseconds; sums of batches add them). The job's wall
 * time minus the span is what the driver and scheduler spend around the tasks; the span minus
 * the longest task, the imbalance between them.
 */
public record SparkBatchMetrics(int tasks, int stages, long schedulerDelayMs,
    long deserializeMs, long gcMs, long runMs, long resultBytes, long shuffleWriteBytes,
    long broadcastBytes, long broadcastFetchedBytes, long taskSpanMs, long longestTaskMs) {

  /** No tasks, nothing moved. */
  public static final SparkBatchMetrics NONE = new SparkBatchMetrics(0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0);

  /** Field-wise sum. */
  public SparkBatchMetrics plus(SparkBatchMetrics o) {
    return new SparkBatchMetrics(tasks + o.tasks, stages + o.stages,
        schedulerDelayMs + o.schedulerDelayMs, deserializeMs + o.deserializeMs, gcMs + o.gcMs,
        runMs + o.runMs, resultBytes + o.resultBytes, shuffleWriteBytes + o.shuffleWriteBytes,
        broadcastBytes + o.broadcastBytes, broadcastFetchedBytes + o.broadcastFetchedBytes,
        taskSpanMs + o.taskSpanMs, longestTaskMs + o.longestTaskMs);
  }

  /** One line for logs and the job summary. */
  public String describe() {
    return String.format(Locale.ROOT, "%d tasks in %d stages; scheduler delay %d ms, task"
        + " deserialization %d ms, GC %d ms, task run %d ms (summed over tasks); tasks span %d"
        + " ms, longest %d ms; results %s to the driver, fold shuffle %s, broadcast %s written +"
        + " %s fetched by executors", tasks, stages, schedulerDelayMs, deserializeMs, gcMs, runMs,
        taskSpanMs, longestTaskMs, kib(resultBytes), kib(shuffleWriteBytes), kib(broadcastBytes),
        kib(broadcastFetchedBytes));
  }

  /** The metrics as one JSON object. */
  public String json() {
    return String.format(Locale.ROOT, "{\"tasks\": %d, \"stages\": %d, \"scheduler_delay_ms\":"
        + " %d, \"task_deserialize_ms\": %d, \"gc_ms\": %d, \"task_run_ms\": %d,"
        + " \"result_bytes\": %d, \"shuffle_write_bytes\": %d, \"broadcast_bytes\": %d,"
        + " \"broadcast_fetched_bytes\": %d, \"task_span_ms\": %d, \"longest_task_ms\": %d}",
        tasks, stages, schedulerDelayMs, deserializeMs, gcMs, runMs, resultBytes,
        shuffleWriteBytes, broadcastBytes, broadcastFetchedBytes, taskSpanMs, longestTaskMs);
  }

  private static String kib(long b) {
    return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
  }
}
