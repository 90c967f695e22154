package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ColumnPartitioningTest {
  @Test
  void plannedRangesAreBalancedCoveringOrderedAlignedAndNoNarrowerThanThePhase1Chunk() {
    for (int cols : new int[] {1, 5, 37, 127, 128, 129, 300, 1000, 1024, 4100, 70001}) {
      int phase1 = org.jpir.core.PirServer.chunkColumns(cols);
      for (int parts = 1; parts <= 40; parts += 3) {
        for (int storage : new int[] {1, 64, 256, 4096}) {
          ColumnPartitioning cp = ColumnPartitioning.plan(cols, parts, storage);
          String what = cols + " cols, " + parts + " parts, chunks of " + storage + ": " + cp;
          int unit = cp.unit();
          assertTrue(unit == phase1 || unit == storage, what);
          assertTrue(unit >= phase1, what);
          int units = (cols + unit - 1) / unit;
          assertEquals(Math.min(parts, units), cp.count(), what);
          if (storage > phase1 && (cols + storage - 1) / storage >= parts) {
            assertEquals(storage, unit, "aligned to storage chunks when they suffice: " + what);
          }
          int covered = 0;
          int min = Integer.MAX_VALUE;
          int max = 0;
          for (int i = 0; i < cp.count(); i++) {
            assertEquals(covered, cp.first(i), "ordered and contiguous: " + what);
            assertEquals(0, cp.first(i) % unit, "aligned: " + what);
            covered += cp.size(i);
            if (i < cp.count() - 1) {
              assertTrue(cp.size(i) >= phase1, "no narrower than the phase-1 chunk: " + what);
            }
            min = Math.min(min, cp.size(i));
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
