package org.jpir.spark.server;

import org.jpir.spark.source.DatabaseSpec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jpir.core.server.PirServer;
import org.junit.jupiter.api.Test;

class ColumnPartitioningTest {
  @Test
  void plannedRangesAreBalancedCoveringOrderedAlignedAndNoNarrowerThanThePhase1Chunk() {
    for (int cols : new int[] {1, 2, 5, 37, 69, 127, 128, 129, 143, 300, 1000, 1023, 1024, 4100,
        70001}) {
      int phase1 = PirServer.chunkColumns(cols);
      for (int parts = 1; parts <= 40; parts += 3) {
        for (int storage : new int[] {1, 2, 64, 256, 4096}) {
          for (int slots : new int[] {1, 2, 3, 7, parts, 64}) {
            check(cols, parts, storage, slots, phase1);
          }
        }
      }
    }
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
    int busy = Math.min(slots, cols);
    int unit = cp.unit();
    int k = cp.count();
    // covering, ordered, contiguous, aligned
    int covered = 0;
    for (int i = 0; i < k; i++) {
      assertEquals(covered, cp.first(i), "ordered and contiguous: " + what);
      assertEquals(0, cp.first(i) % unit, "aligned: " + what);
      assertTrue(cp.size(i) >= 1, what);
      covered += cp.size(i);
    }
    assertEquals(cols, covered, "covers: " + what);
    assertEquals(cols, cp.cols());
    // no idle slot, never more ranges than asked unless slots would idle
    assertTrue(k >= busy, "no idle slot: " + what);
    assertTrue(k <= Math.max(parts, busy), "no more than asked: " + what);
    // balanced: widths differ by at most one unit, and the unit is at most 1/8 of a range when
    // the grid has 8 columns per range
    assertTrue(cp.width() - cp.minWidth() <= unit, "balanced: " + what);
    assertEquals(1, Integer.bitCount(unit), what);
    assertTrue(unit <= Math.max(phase1, storage), what);
    long units = (cols + unit - 1) / unit;
    int share = Math.min(k, slots);
    assertTrue(unit == 1 || units >= 8L * share, "eight units per busy slot: " + what);
    assertTrue(2 * unit > Math.max(phase1, storage)
        || (cols + 2L * unit - 1) / (2 * unit) < 8L * share, "the largest such unit: " + what);
    // the storage chunk: boundaries on it whenever the unit is a multiple of it
    assertTrue(unit % storage != 0 || cp.alignedTo(storage), what);
    if (k > busy) {
      // more ranges than slots only when each still holds a phase-1 chunk
      assertTrue(cp.minWidth() >= Math.min(phase1, cols), "no narrower than the chunk: " + what);
    } else if (k > 1 && k < Math.min(parts, cols / phase1)) {
      throw new AssertionError("fewer ranges than asked although they would fit: " + what);
    }
  }

  @Test
  void oddSizesGetEvenRanges() {
    // 143 columns on 2 slots: not 128 + 15 (the second core idling), two halves on units of 8
    ColumnPartitioning two = ColumnPartitioning.plan(143, 2, 1, 2);
    assertArrayEquals(new int[] {0, 72, 143}, two.bounds(), two.toString());
    assertEquals(8, two.unit());
    // an explicit --partitions above what the chunk allows keeps ranges of a chunk or more
    ColumnPartitioning asked = ColumnPartitioning.plan(143, 8, 1, 1);
    assertEquals(1, asked.count(), asked.toString());
    // 1000 columns on 7 slots: 7 ranges of 136..144 (units of 16), all above the chunk of 128
    ColumnPartitioning seven = ColumnPartitioning.plan(1000, 7, 1, 7);
    assertEquals(7, seven.count(), seven.toString());
    assertEquals(16, seven.unit());
    assertEquals(144, seven.width());
    assertEquals(136, seven.minWidth());
    // storage chunks of 2 columns: the same ranges, which already fall on them
    assertArrayEquals(seven.bounds(), ColumnPartitioning.plan(1000, 7, 2, 7).bounds());
    assertTrue(ColumnPartitioning.plan(1000, 7, 2, 7).alignedTo(2));
    // one column, and fewer columns than slots: one range per column
    assertArrayEquals(new int[] {0, 1}, ColumnPartitioning.plan(1, 4, 1, 4).bounds());
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, ColumnPartitioning.plan(5, 16, 1, 8)
        .bounds());
    // 35 chunks of 128 over 10 slots: 10 ranges of 448 +- 32, not 3 or 4 whole chunks
    ColumnPartitioning odd = ColumnPartitioning.plan(35 * 128, 10, 1);
    assertEquals(10, odd.count());
    assertTrue(odd.width() - odd.minWidth() <= odd.unit() && odd.unit() == 32, odd.toString());
    // 16 ranges asked on 2 slots: 8 per slot, so whole chunks of 128 keep the slots' totals
    // within an eighth (15 x 128 + 165 over 2085 columns)
    ColumnPartitioning waves = ColumnPartitioning.plan(16 * 128 + 37, 16, 1, 2);
    assertEquals(16, waves.count());
    assertEquals(128, waves.unit(), waves.toString());
    assertEquals(165, waves.width());
  }

  @Test
  void aSmallDatabaseStillGetsOneRangePerCore() {
    // 64 MiB of 1 KiB records at onionpir-4096-128: 69 columns, one phase-1 chunk of 128, so
    // ranges no narrower than the chunk would leave one of two cores idle
    ColumnPartitioning two = ColumnPartitioning.plan(69, 2, 128);
    assertEquals(2, two.count(), two.toString());
    assertEquals(36, two.size(0));
    assertEquals(33, two.size(1));
    // the task slots decide, not the partitions asked: 8 asked on 2 slots, 1 asked on 3
    assertEquals(2, ColumnPartitioning.plan(69, 8, 1, 2).count());
    assertEquals(3, ColumnPartitioning.plan(69, 1, 1, 3).count());
    // never more ranges than columns
    assertEquals(5, ColumnPartitioning.plan(5, 16, 1).count());
    assertEquals(1, ColumnPartitioning.plan(5, 16, 1).unit());
    // a large database keeps ranges of whole phase-1 chunks, on the storage chunks
    ColumnPartitioning big = ColumnPartitioning.plan(70001, 40, 4096);
    assertEquals(40, big.count());
    assertEquals(128, big.unit(), big.toString());
    ColumnPartitioning stored = ColumnPartitioning.plan(70001, 20, 256, 20);
    assertEquals(256, stored.unit(), stored.toString());
    assertTrue(stored.alignedTo(256));
  }

  @Test
  void dynamicAllocationIsRefusedWithTheSettingsToUse() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SparkResources.refuseDynamicAllocation(new org.apache.spark.SparkConf(false)
            .set("spark.dynamicAllocation.enabled", "true")));
    assertTrue(e.getMessage().contains("spark.dynamicAllocation.enabled=false")
        && e.getMessage().contains("spark.executor.instances"), e.getMessage());
    SparkResources.refuseDynamicAllocation(new org.apache.spark.SparkConf(false));
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
