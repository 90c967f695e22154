package org.jpir.spark.server;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.BlockManagerId;
import org.jpir.spark.server.MemoryPlan.ExecutorResources;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/** What a job's executors offer ({@link #of}), and the settings a prepared table cannot run under. */
final class SparkResources {
  private static final Logger LOG = LogManager.getLogger(SparkResources.class);
  /** {@code local-cluster[E, c, mem]}: E executors of c cores. */
  private static final Pattern LOCAL_CLUSTER = Pattern.compile(
      "local-cluster\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,.*\\]");

  private SparkResources() {}

  /**
   * The executors' resources: Spark's unified memory per executor, cores, the cache setting.
   * Waits (at most {@code spark.scheduler.maxRegisteredResourcesWaitingTime}, default 30 s) until
   * {@code spark.scheduler.minRegisteredResourcesRatio} (default 1 here) of the expected
   * executors ({@code spark.executor.instances}, else {@code spark.cores.max /
   * spark.executor.cores}, else E of {@code local-cluster[E,c,mem]}; at least one) have
   * registered. Cores per executor: {@code spark.executor.cores}, else c of local-cluster, else
   * the registered cores ({@code defaultParallelism} when {@code spark.default.parallelism} is
   * unset) shared by the executors.
   *
   * @throws IllegalStateException when no executor registers in time
   */
  static ExecutorResources of(JavaSparkContext sc) {
    SparkConf c = sc.getConf();
    double fraction = c.getDouble("spark.memory.fraction", 0.6);
    long cacheSetting = c.getSizeAsBytes(MemoryPlan.CACHE_SETTING, "0");
    boolean local = sc.isLocal();
    BlockManagerId self = SparkEnv.get().blockManager().blockManagerId();
    int instances = c.getInt("spark.executor.instances", 0);
    if (instances == 0 && c.contains("spark.cores.max") && c.contains("spark.executor.cores")) {
      instances = c.getInt("spark.cores.max", 1) / Math.max(1, c.getInt("spark.executor.cores",
          1));
    }
    Matcher lc = LOCAL_CLUSTER.matcher(sc.master());
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
      Map<String, Tuple2<Object, Object>> status =
          CollectionConverters.asJava(sc.sc().getExecutorMemoryStatus());
      String driverId = self.host() + ":" + self.port();
      for (Map.Entry<String, Tuple2<Object, Object>> e : status.entrySet()) {
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
        return new ExecutorResources(local ? 1 : count, cores, (long) (minUnified / fraction),
            minUnified, fraction, cacheSetting, local);
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
   * Stops a job under dynamic allocation: the prepared partitions live in the memory of the
   * executors that prepared them and their count is planned from the executors present at start.
   *
   * @throws IllegalArgumentException naming the settings to use instead
   */
  static void refuseDynamicAllocation(SparkConf c) {
    if (c.getBoolean("spark.dynamicAllocation.enabled", false)) {
      throw new IllegalArgumentException("spark.dynamicAllocation.enabled=true is not supported:"
          + " the prepared partitions are cached in the memory of the executors that prepared"
          + " them and planned from the executors present at start, so an executor removed when"
          + " idle loses its partitions and one added later gets none; run with --conf"
          + " spark.dynamicAllocation.enabled=false and a fixed number of executors"
          + " (--num-executors / spark.executor.instances)");
    }
  }
}
