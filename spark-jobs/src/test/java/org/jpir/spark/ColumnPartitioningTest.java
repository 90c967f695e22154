package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ColumnPartitioningTest {
  @Test
  void rangesArePowerOfTwoWideContiguousAndCoverEveryColumn() {
    for (int cols = 1; cols < 300; cols += 7) {
      for (int parts = 1; parts < 12; parts++) {
        ColumnPartitioning cp = ColumnPartitioning.forPartitions(cols, parts);
        assertTrue(cp.count() >= Math.min(parts, cols) && cp.count() <= 2 * parts + 1,
            cols + " cols into " + parts + ": " + cp.count());
        assertEquals(1, Integer.bitCount(cp.width()));
        int covered = 0;
        for (int i = 0; i < cp.count(); i++) {
          assertEquals(covered, cp.first(i));
          assertEquals(0, cp.first(i) % cp.width(), "aligned");
          covered += cp.size(i);
          assertTrue(cp.size(i) >= 1 && cp.size(i) <= cp.width());
        }
        assertEquals(cols, covered);
      }
    }
    assertThrows(IllegalArgumentException.class, () -> new ColumnPartitioning(10, 3));
  }

  @Test
  void databaseSpecParsesSyntheticAndNamesBadInput() {
    DatabaseSpec s = DatabaseSpec.parse("synthetic:100x64:5");
    assertEquals(100, s.count());
    assertEquals(64, s.recordSize());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DatabaseSpec.parse("synthetic:100"));
    assertTrue(e.getMessage().contains("synthetic:<count>x<recordSize>"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> DatabaseSpec.parse("ftp://x"));
    assertTrue(e.getMessage().contains("unknown database"), e.getMessage());
  }
}
