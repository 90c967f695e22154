package org.jpir.spark;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.jpir.datasets.progress.Progress;
import scala.collection.Iterator;

/**
 * Progress of preparing the database on the executors: while open, the Spark jobs the calling
 * thread starts run in the job group {@value #GROUP}, and a listener counts their finished tasks
 * (partitions prepared of the total, and raw database bytes per second, from {@code rawBytes}
 * spread evenly over the partitions). Shows nothing in {@link Progress.Mode#QUIET}.
 */
final class PrepareProgress extends SparkListener implements AutoCloseable {
  /** The job group of the prepare pass. */
  static final String GROUP = "jpir-prepare";

  private final JavaSparkContext sc;
  private final Progress.Mode mode;
  private final PrintStream out;
  private final long rawBytes;
  private final Set<Integer> stages = ConcurrentHashMap.newKeySet();
  private final long start = System.nanoTime();
  private Progress bar;
  private long total;
  private long done;

  private PrepareProgress(JavaSparkContext sc, Progress.Mode mode, PrintStream out,
      long rawBytes) {
    this.sc = sc;
    this.mode = mode;
    this.out = out;
    this.rawBytes = rawBytes;
  }

  /** Starts counting the prepare jobs the calling thread runs until {@link #close}. */
  static PrepareProgress start(JavaSparkContext sc, Progress.Mode mode, PrintStream out,
      long rawBytes) {
    PrepareProgress p = new PrepareProgress(sc, mode, out, rawBytes);
    sc.setJobGroup(GROUP, "preparing the database columns", false);
    sc.sc().addSparkListener(p);
    return p;
  }

  @Override
  public void onJobStart(SparkListenerJobStart job) {
    Properties props = job.properties();
    if (props == null || !GROUP.equals(props.getProperty("spark.jobGroup.id"))) {
      return;
    }
    long tasks = 0;
    Iterator<StageInfo> it = job.stageInfos().iterator();
    while (it.hasNext()) {
      StageInfo s = it.next();
      stages.add(s.stageId());
      tasks += s.numTasks();
    }
    synchronized (this) {
      total += tasks;
      if (bar == null) {
        bar = Progress.start("prepare", total, "partitions", 1, mode, out);
      }
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd task) {
    if (!stages.contains(task.stageId()) || !task.taskInfo().successful()) {
      return;
    }
    synchronized (this) {
      done++;
      if (bar != null) {
        bar.stepTo(done);
        double s = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
        bar.note(String.format(Locale.ROOT, "%.1f MB/s of raw database",
            rawBytes * (double) Math.min(done, total) / Math.max(1, total) / s / 1e6));
      }
    }
  }

  /** Partitions prepared so far (tasks of the group's jobs that succeeded). */
  synchronized long done() {
    return done;
  }

  /** Stops listening, clears the job group and shows the final state. */
  @Override
  public void close() {
    sc.sc().removeSparkListener(this);
    sc.clearJobGroup();
    synchronized (this) {
      if (bar != null) {
        bar.close();
      }
    }
  }
}
