package org.jpir.spark;

import java.util.Arrays;
import org.apache.spark.SparkConf;
import org.jpir.spark.server.PirKryoRegistrator;
import org.jpir.vmp.JvmOptions;

/**
 * The Spark configuration every jpir job uses, as defaults under the user's settings: whatever
 * {@code spark-submit --conf}, {@code spark-defaults.conf} or {@code -Dspark.*} already set is
 * kept, and only missing settings are filled in (Kryo with registration required and our
 * registrator, large Kryo buffers and broadcast blocks, no broadcast compression, the application
 * name, the master for local runs). Two settings are added to rather than replaced: our Kryo
 * registrator joins a user's list of registrators, and the project's JVM options ({@link
 * JvmOptions}) join {@code spark.executor.extraJavaOptions} when the user's lack the Vector API
 * module. The driver's JVM options are never set here: in client mode the driver JVM is already
 * running (spark-submit must be given them, see README).
 */
public final class SparkSetup {
  private SparkSetup() {}

  /** The setting that names the event log directory; {@link #eventLog} turns the log on. */
  public static final String EVENT_LOG_DIR = "spark.eventLog.dir";

  /** The configuration; {@code defaultMaster} applies only when no master was given. */
  public static SparkConf conf(String appName, String defaultMaster) {
    SparkConf c = new SparkConf();
    c.setIfMissing("spark.app.name", appName);
    if (!c.contains("spark.master") && defaultMaster != null) {
      c.setMaster(defaultMaster);
    }
    c.setIfMissing("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    c.setIfMissing("spark.kryo.registrationRequired", "true");
    String ours = PirKryoRegistrator.class.getName();
    String registrators = c.get("spark.kryo.registrator", "").trim();
    if (registrators.isEmpty()) {
      c.set("spark.kryo.registrator", ours);
    } else if (!Arrays.asList(registrators.split("\\s*,\\s*")).contains(ours)) {
      c.set("spark.kryo.registrator", registrators + "," + ours);
    }
    c.setIfMissing("spark.kryoserializer.buffer.max", "1024m");
    // partitions are planned from the executors present: wait for all of them (Spark's own wait
    // at start-up, bounded by spark.scheduler.maxRegisteredResourcesWaitingTime)
    c.setIfMissing("spark.scheduler.minRegisteredResourcesRatio", "1.0");
    // bulk copies for the large double[] of prepared matrices instead of per-element writes
    c.setIfMissing("spark.kryo.unsafe", "true");
    // ciphertexts and prepared matrices are uniformly random: compressing them only costs time
    c.setIfMissing("spark.broadcast.compress", "false");
    // prepared matrices are ~100 MiB: fetch them in few large pieces, not hundreds of 4 MiB ones
    c.setIfMissing("spark.broadcast.blockSize", "64m");
    String opts = JvmOptions.joined();
    String existing = c.get("spark.executor.extraJavaOptions", "");
    if (!existing.contains("jdk.incubator.vector")) {
      existing = (existing + " " + opts).trim();
    }
    // the test-only flag that lets insecure presets through reaches the executors too
    if (Boolean.getBoolean("jpir.allowInsecure") && !existing.contains("jpir.allowInsecure")) {
      existing = existing + " -Djpir.allowInsecure=true";
    }
    c.set("spark.executor.extraJavaOptions", existing);
    return c;
  }

  /**
   * Turns Spark's event log on into {@code dir} (a Hadoop path: {@code file:///...}, {@code
   * hdfs://...}) unless the user configured the event log already; null leaves {@code c} as is.
   */
  public static SparkConf eventLog(SparkConf c, String dir) {
    if (dir != null) {
      c.setIfMissing("spark.eventLog.enabled", "true");
      c.setIfMissing(EVENT_LOG_DIR, dir);
    }
    return c;
  }
}
