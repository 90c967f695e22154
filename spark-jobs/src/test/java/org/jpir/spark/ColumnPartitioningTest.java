package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ColumnPartitioningTest {
  @Test
  void plannedRangesAreBalancedCoveringOrderedAlignedAndNoNarrowerThanThePhase1Chunk() {
    for (int cols : new int[] {1, 5, 37, 69, 127, 128, 129, 300, 1000, 1024, 4100, 70001}) {
      int phase1 = org.jpir.core.PirServer.chunkColumns(cols);
      for (int parts = 1; parts <= 40; parts += 3) {
        for (int storage : new int[] {1, 64, 256, 4096}) {
          for (int slots : new int[] {1, 2, parts, 64}) {
            check(cols, parts, storage, slots, phase1);
          }
        }
      }
    }
    // not power-of-two widths: 10 ranges of 3 or 4 chunks of 128 over 35 chunks
    ColumnPartitioning odd = ColumnPartitioning.plan(35 * 128, 10, 1);
    assertEquals(10, odd.count());
    assertTrue(java.util.stream.IntStream.range(0, 10).anyMatch(i -> odd.size(i) == 384));
    assertTrue(java.util.stream.IntStream.range(0, 10).anyMatch(i -> odd.size(i) == 512));
    assertThrows(IllegalArgumentException.class, () -> ColumnPartitioning.of(new int[] {0, 3, 3},
        1));
    assertThrows(IllegalArgumentException.class, () -> ColumnPartitioning.of(new int[] {1, 3},
        1));
    assertThrows(IllegalArgumentException.class, () -> ColumnPartitioning.plan(10, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> ColumnPartitioning.plan(10, 1, 1, 0));
  }

  /** The planner's contract for one input (see {@link ColumnPartitioning#plan}). */
  private static void check(int cols, int parts, int storage, int slots, int phase1) {
    ColumnPartitioning cp = ColumnPartitioning.plan(cols, parts, storage, slots);
    String what = cols + " cols, " + parts + " parts, chunks of " + storage + ", " + slots
        + " slots: " + cp;
    int wideUnit = storage > phase1 && (cols + storage - 1) / storage >= parts ? storage : phase1;
    int wide = Math.min(parts, (cols + wideUnit - 1) / wideUnit);
    int busy = Math.min(slots, cols);
    int unit = cp.unit();
    if (wide >= busy) {
      // enough ranges of at least the phase-1 chunk for every slot
      assertEquals(wideUnit, unit, what);
      assertEquals(wide, cp.count(), what);
      for (int i = 0; i < cp.count() - 1; i++) {
        assertTrue(cp.size(i) >= phase1, "no narrower than the phase-1 chunk: " + what);
      }
    } else {
      // a small database: one range per slot, narrower than the phase-1 chunk
      assertEquals(busy, cp.count(), "no idle slot: " + what);
      assertEquals(1, Integer.bitCount(unit), what);
      assertTrue(unit <= phase1, what);
      int units = (cols + unit - 1) / unit;
      assertTrue(unit == 1 || units >= 4 * busy, "four units per range: " + what);
      assertTrue(unit == phase1 || (cols + 2 * unit - 1) / (2 * unit) < 4 * busy,
          "the largest such unit: " + what);
    }
    int covered = 0;
    int max = 0;
    for (int i = 0; i < cp.count(); i++) {
      assertEquals(covered, cp.first(i), "ordered and contiguous: " + what);
      assertEquals(0, cp.first(i) % unit, "aligned: " + what);
      assertTrue(cp.size(i) >= 1, what);
      covered += cp.size(i);
      max = Math.max(max, cp.size(i));
    }
    assertEquals(cols, covered, "covers: " + what);
    assertEquals(cols, cp.cols());
    // balanced: whole units differ by at most one; only the last range may be short
    int maxUnits = (max + unit - 1) / unit;
    for (int i = 0; i < cp.count() - 1; i++) {
      assertTrue(maxUnits - cp.size(i) / unit <= 1, "balanced: " + what);
    }
    assertEquals(max, cp.width());
  }

  @Test
  void aSmallDatabaseStillGetsOneRangePerCore() {
    // 64 MiB of 1 KiB records at onionpir-4096-128: 69 columns, one phase-1 chunk of 128, so
    // ranges no narrower than the chunk would leave one of two cores idle
    ColumnPartitioning two = ColumnPartitioning.plan(69, 2, 128);
    assertEquals(2, two.count(), two.toString());
    assertEquals(32, two.size(0));
    assertEquals(37, two.size(1));
    // the task slots decide, not the partitions asked: 8 asked on 2 slots, 1 asked on 3
    assertEquals(2, ColumnPartitioning.plan(69, 8, 1, 2).count());
    assertEquals(3, ColumnPartitioning.plan(69, 1, 1, 3).count());
    // never more ranges than columns
    assertEquals(5, ColumnPartitioning.plan(5, 16, 1).count());
    assertEquals(1, ColumnPartitioning.plan(5, 16, 1).unit());
    // a large database keeps ranges of at least the phase-1 chunk
    ColumnPartitioning big = ColumnPartitioning.plan(70001, 40, 4096);
    assertEquals(40, big.count());
    assertTrue(big.unit() >= 128, big.toString());
  }

  @Test
  void dynamicAllocationIsRefusedWithTheSettingsToUse() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DistributedPirServer.refuseDynamicAllocation(new org.apache.spark.SparkConf(false)
            .set("spark.dynamicAllocation.enabled", "true")));
    assertTrue(e.getMessage().contains("spark.dynamicAllocation.enabled=false")
        && e.getMessage().contains("spark.executor.instances"), e.getMessage());
    DistributedPirServer.refuseDynamicAllocation(new org.apache.spark.SparkConf(false));
  }

  @Test
  void databaseSpecParsesSyntheticAndNamesBadInput() {
    DatabaseSpec s = DatabaseSpec.parse("synthetic:100x64:5");
    assertEquals(100, s.count());
    assertEquals(64, s.recordSize());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DatabaseSpec.parse("synthetic:100"));
    assertTrue(e.getMessage().contains("synthetic:<count>x<recordSize>"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> DatabaseSpec.parse("nosuchfs://x/db"));
    assertTrue(e.getMessage().contains("unknown database"), e.getMessage());
  }
}
