package org.jpir.spark;

import org.jpir.spark.server.PirKryoRegistrator;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class SparkSetupTest {
  /** Sets spark.* system properties (what spark-submit --conf does) around {@code body}. */
  static SparkConf withSystemConf(Map<String, String> conf, java.util.function.Supplier<SparkConf>
      body) {
    Map<String, String> saved = new java.util.HashMap<>();
    for (String k : conf.keySet()) {
      saved.put(k, System.getProperty(k));
      System.setProperty(k, conf.get(k));
    }
    try {
      return body.get();
    } finally {
      for (Map.Entry<String, String> e : saved.entrySet()) {
        if (e.getValue() == null) {
          System.clearProperty(e.getKey());
        } else {
          System.setProperty(e.getKey(), e.getValue());
        }
      }
    }
  }

  @Test
  void theUsersConfWinsAndOnlyMissingSettingsAreFilledIn() {
    SparkConf c = withSystemConf(Map.of(
        "spark.serializer", "org.apache.spark.serializer.JavaSerializer",
        "spark.kryo.registrationRequired", "false",
        "spark.kryo.unsafe", "false",
        "spark.broadcast.blockSize", "4m",
        "spark.app.name", "mine",
        "spark.master", "local[1]",
        "spark.ui.enabled", "true",
        "spark.executor.extraJavaOptions", "-Dmine=1"), () -> SparkSetup.conf("jpir", "local[2]"));
    assertEquals("org.apache.spark.serializer.JavaSerializer", c.get("spark.serializer"));
    assertEquals("false", c.get("spark.kryo.registrationRequired"));
    assertEquals("false", c.get("spark.kryo.unsafe"));
    assertEquals("4m", c.get("spark.broadcast.blockSize"));
    assertEquals("mine", c.get("spark.app.name"));
    assertEquals("local[1]", c.get("spark.master"));
    assertEquals("true", c.get("spark.ui.enabled"));
    // added to, not replaced: the user's option stays first, the Vector API module follows
    String ex = c.get("spark.executor.extraJavaOptions");
    assertTrue(ex.startsWith("-Dmine=1 ") && ex.contains("jdk.incubator.vector"), ex);
    // missing ones are filled in
    assertEquals(PirKryoRegistrator.class.getName(), c.get("spark.kryo.registrator"));
    assertEquals("false", c.get("spark.broadcast.compress"));
    // the driver's JVM is already running: its options are the user's business (README)
    assertFalse(c.contains("spark.driver.extraJavaOptions"));
  }

  @Test
  void theJobWaitsForAllExecutorsUnlessTheUserSaysOtherwise() {
    SparkConf unset = SparkSetup.conf("jpir", "local[2]");
    assertEquals("1.0", unset.get("spark.scheduler.minRegisteredResourcesRatio"));
    // the wait's bound stays Spark's own default unless the user sets it
    assertFalse(unset.contains("spark.scheduler.maxRegisteredResourcesWaitingTime"));
    SparkConf user = withSystemConf(Map.of("spark.scheduler.minRegisteredResourcesRatio", "0.5",
        "spark.scheduler.maxRegisteredResourcesWaitingTime", "90s"),
        () -> SparkSetup.conf("jpir", "local[2]"));
    assertEquals("0.5", user.get("spark.scheduler.minRegisteredResourcesRatio"));
    assertEquals("90s", user.get("spark.scheduler.maxRegisteredResourcesWaitingTime"));
  }

  @Test
  void ourRegistratorJoinsTheUsersListAndTheEventLogIsOnlyAddedWhenMissing() {
    SparkConf c = withSystemConf(Map.of("spark.kryo.registrator", "com.example.Reg"),
        () -> SparkSetup.conf("jpir", "local[2]"));
    assertEquals("com.example.Reg," + PirKryoRegistrator.class.getName(),
        c.get("spark.kryo.registrator"));
    assertEquals("local[2]", c.get("spark.master"));
    assertEquals("jpir", c.get("spark.app.name"));
    SparkConf again = withSystemConf(Map.of("spark.kryo.registrator", c.get(
        "spark.kryo.registrator")), () -> SparkSetup.conf("jpir", "local[2]"));
    assertEquals(c.get("spark.kryo.registrator"), again.get("spark.kryo.registrator"),
        "not added twice");
    SparkConf log = SparkSetup.eventLog(new SparkConf(false), "file:///tmp/ev");
    assertEquals("true", log.get("spark.eventLog.enabled"));
    assertEquals("file:///tmp/ev", log.get(SparkSetup.EVENT_LOG_DIR));
    SparkConf user = new SparkConf(false).set("spark.eventLog.enabled", "false")
        .set(SparkSetup.EVENT_LOG_DIR, "hdfs://nn/logs");
    SparkSetup.eventLog(user, "file:///tmp/ev");
    assertEquals("false", user.get("spark.eventLog.enabled"));
    assertEquals("hdfs://nn/logs", user.get(SparkSetup.EVENT_LOG_DIR));
    assertFalse(SparkSetup.eventLog(new SparkConf(false), null).contains("spark.eventLog.enabled"));
  }
}
