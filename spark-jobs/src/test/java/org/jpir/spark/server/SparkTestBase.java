package org.jpir.spark.server;

import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.spark.SparkSetup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * One local Spark context per test class: {@code local[2,3]} (2 threads, each task tried up to 3
 * times, so injected failures are retried), with the jobs' own configuration (Kryo with
 * registration required).
 */
public abstract class SparkTestBase {
  /** The test class's local Spark context. */
  protected static JavaSparkContext sc;

  /** Starts the context before the class's first test. */
  @BeforeAll
  public static void startSpark() {
    sc = new JavaSparkContext(SparkSetup.conf("jpir-test", "local[2,3]"));
    sc.setLogLevel("WARN");
  }

  /** Stops it after the last. */
  @AfterAll
  public static void stopSpark() {
    if (sc != null) {
      sc.stop();
      sc = null;
    }
  }
}
