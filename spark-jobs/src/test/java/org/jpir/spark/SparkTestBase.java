package org.jpir.spark;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * One local Spark context per test class: {@code local[2,3]} (2 threads, each task tried up to 3
 * times, so injected failures are retried), with the jobs' own configuration (Kryo with
 * registration required).
 */
abstract class SparkTestBase {
  static JavaSparkContext sc;

  @BeforeAll
  static void startSpark() {
    sc = new JavaSparkContext(SparkSetup.conf("jpir-test", "local[2,3]"));
    sc.setLogLevel("WARN");
  }

  @AfterAll
  static void stopSpark() {
    if (sc != null) {
      sc.stop();
      sc = null;
    }
  }
}
