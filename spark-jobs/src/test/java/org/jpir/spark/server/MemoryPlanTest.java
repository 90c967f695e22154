package org.jpir.spark.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.apache.spark.SparkEnv;
import org.apache.spark.broadcast.Broadcast;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

/** The memory plan counts what a batch's broadcast really occupies. */
class MemoryPlanTest extends SparkTestBase {
  static final Params PROD = Presets.ONIONPIR_4096;

  @Test
  void aBroadcastOccupiesTwoCopiesOfItsBytesInStorageMemory() {
    long payloadBytes = 24L << 20;
    byte[][] payload = new byte[6][(int) (payloadBytes / 6)];
    Random rnd = new Random(5);
    for (byte[] b : payload) {
      rnd.nextBytes(b);
    }
    long before = SparkEnv.get().memoryManager().storageMemoryUsed();
    Broadcast<byte[][]> b = sc.broadcast(payload);
    try {
      List<Integer> seen = sc.parallelize(List.of(0, 1), 2).map(i -> b.value()[i].length)
          .collect();
      assertEquals(List.of(payload[0].length, payload[1].length), seen);
      long held = SparkEnv.get().memoryManager().storageMemoryUsed() - before;
      double copies = held / (double) payloadBytes;
      assertTrue(Math.abs(copies - MemoryPlan.BROADCAST_COPIES) < 0.25, "storage memory held "
          + held + " bytes for a broadcast of " + payloadBytes + ": " + copies + " copies");
    } finally {
      b.destroy();
    }
  }

  @Test
  void aClusterPlanCountsTheBroadcastTwiceAndRefusesWhatOnlyFitsOnce() {
    Geometry g = Geometry.choose(PROD, 65536, 1024, 1024);
    ColumnPartitioning parts = ColumnPartitioning.plan(g.cols(), 2, 1, 2);
    long big = 64L << 30;
    MemoryPlan roomy = MemoryPlan.of(PROD, g, parts, 4, null,
        new MemoryPlan.ExecutorResources(2, 1, big, big / 2, 0.5, 0, false));
    // the broadcast carries the queries' wire bytes; each executor expands them
    assertEquals(4 * Wire.maxQueryBytes(PROD, g), roomy.broadcastBytes());
    assertEquals(2 * roomy.broadcastBytes(), roomy.broadcastHeld());
    assertEquals(4 * MemoryPlan.expandedQueryBytes(PROD, g), roomy.cacheNeed());
    assertEquals(roomy.pvecBytesPerExecutor() + roomy.broadcastHeld() + roomy.cacheNeed()
        + roomy.concurrentTasks() * roomy.scratchBytesPerTask(), roomy.totalNeed());
    roomy.check();
    // unified memory that holds the PVECs and the broadcast once, but not twice
    long unified = roomy.pvecBytesPerExecutor() + roomy.broadcastBytes() * 3 / 2;
    MemoryPlan tight = MemoryPlan.of(PROD, g, parts, 4, null,
        new MemoryPlan.ExecutorResources(2, 1, big, unified, unified / (double) big, 0, false));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, tight::check);
    assertTrue(e.getMessage().contains("held twice") && e.getMessage().contains(
        "spark.executor.memory"), e.getMessage());
  }

  @Test
  void aLocalPlanCountsTheBroadcastAndTheDriversQueryFiles() {
    Geometry g = Geometry.choose(PROD, 65536, 1024, 1024);
    ColumnPartitioning parts = ColumnPartitioning.plan(g.cols(), 2, 1, 2);
    long big = 64L << 30;
    MemoryPlan local = MemoryPlan.of(PROD, g, parts, 4, null,
        new MemoryPlan.ExecutorResources(1, 2, big, big / 2, 0.5, 0, true));
    assertEquals(4 * Wire.maxQueryBytes(PROD, g), local.broadcastBytes());
    assertEquals(4 * Wire.maxQueryBytes(PROD, g), local.driverBytes());
  }

  @Test
  void theFoldsFanInAddsNothingToTheBroadcast() {
    Geometry g = Geometry.choose(PROD, 1 << 20, 1024, 1024);
    ColumnPartitioning many = ColumnPartitioning.plan(g.cols(), 32, 1, 32);
    long big = 256L << 30;
    MemoryPlan plan = MemoryPlan.of(PROD, g, many, 2, null,
        new MemoryPlan.ExecutorResources(32, 1, big, big / 2, 0.5, 0, false), 2);
    // the merge tasks take their GGSWs from their JVM's expansions, not from a second broadcast
    assertEquals(2 * Wire.maxQueryBytes(PROD, g), plan.broadcastBytes());
  }
}
