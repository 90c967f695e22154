package org.jpir.spark;

import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.SparkTestBase;
import org.jpir.spark.source.SyntheticSourceFactory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.datasets.progress.Progress;
import org.junit.jupiter.api.Test;

class PrepareProgressTest extends SparkTestBase {
  static final Params P = Presets.TEST_INSECURE_256;

  @Test
  void countsEveryPreparedPartitionAndOnlyThose() throws Exception {
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 37, 1792, 3);
    Geometry g = Geometry.of(P, 8 * 37, 1792, 8);
    // a thread started before the group is set (Spark's job properties are inherited by
    // threads started later) runs a job of 4 tasks outside the group while it is open
    java.util.concurrent.ExecutorService other = java.util.concurrent.Executors
        .newSingleThreadExecutor();
    other.submit(() -> sc.parallelize(java.util.List.of(0), 1).count()).get();
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrepareProgress shown;
    int parts;
    try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      try (PrepareProgress p = PrepareProgress.start(sc, Progress.Mode.LINES, out,
          g.rawBytes())) {
        shown = p;
        other.submit(() -> sc.parallelize(java.util.List.of(1, 2, 3, 4), 4).count()).get();
        DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src, 3);
        parts = server.partitioning().count(); // the planner decides (2 slots here)
        server.unpersist();
        // the listener bus is asynchronous: wait for it to deliver the task ends
        sc.sc().listenerBus().waitUntilEmpty(10_000);
      }
    }
    other.shutdown();
    assertTrue(parts >= 2, "a test of several partitions: " + parts);
    assertEquals(parts, shown.done());
    String text = buf.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("prepare: " + parts + " / " + parts + " partitions (100%)"), text);
    assertTrue(text.contains("MB/s of raw database"), text);
    assertNull(sc.getLocalProperty("spark.jobGroup.id"), "the job group is cleared");
  }
}
