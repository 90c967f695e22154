package org.jpir.spark;

import org.apache.spark.SparkConf;
import org.jpir.vmp.JvmOptions;

/**
 * The Spark configuration every jpir job uses: Kryo with registration required and our
 * registrator, the project's JVM options for executors (from the one definition in the parent
 * pom, {@link JvmOptions}), and a large enough Kryo buffer for prepared matrices. The master is
 * never hard-coded: it comes from spark-submit / {@code spark.master}, or the caller's default
 * for local runs.
 */
public final class SparkSetup {
  private SparkSetup() {}

  /** The configuration; {@code defaultMaster} applies only when no master was given. */
  public static SparkConf conf(String appName, String defaultMaster) {
    SparkConf c = new SparkConf().setAppName(appName);
    if (!c.contains("spark.master") && defaultMaster != null) {
      c.setMaster(defaultMaster);
    }
    c.set("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
    c.set("spark.kryo.registrationRequired", "true");
    c.set("spark.kryo.registrator", PirKryoRegistrator.class.getName());
    c.setIfMissing("spark.kryoserializer.buffer.max", "1024m");
    // bulk copies for the large double[] of prepared matrices instead of per-element writes
    c.setIfMissing("spark.kryo.unsafe", "true");
    // ciphertexts and prepared matrices are uniformly random: compressing them only costs time
    c.setIfMissing("spark.broadcast.compress", "false");
    // prepared matrices are ~100 MiB: fetch them in few large pieces, not hundreds of 4 MiB ones
    c.setIfMissing("spark.broadcast.blockSize", "64m");
    c.setIfMissing("spark.ui.enabled", "false");
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
    c.setIfMissing("spark.driver.extraJavaOptions", opts);
    return c;
  }
}
