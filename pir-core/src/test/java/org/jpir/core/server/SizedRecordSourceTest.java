package org.jpir.core.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SizedRecordSourceTest {
  @Test
  void refusesEmptySourcesAndNamesTheRangeOfABadIndex() {
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> new SyntheticRecords(0, 8, 1));
    assertTrue(empty.getMessage().contains("0 x 8"), empty.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new SyntheticRecords(4, 0, 1));
    SyntheticRecords s = new SyntheticRecords(5, 13, 7);
    assertEquals(5, s.recordCount());
    assertEquals(13, s.recordSize());
    for (long bad : new long[] {-1, 5, Long.MAX_VALUE}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> s.read(bad, new byte[13], 0));
      assertTrue(e.getMessage().contains("record " + bad + " out of range [0, 5)"),
          e.getMessage());
    }
  }

  @Test
  void syntheticRecordsAreAFunctionOfSeedAndIndexOnly() {
    SyntheticRecords a = new SyntheticRecords(100, 21, 3);
    SyntheticRecords b = new SyntheticRecords(1000, 21, 3);
    byte[] x = new byte[25];
    a.read(42, x, 4);
    assertArrayEquals(b.record(42), java.util.Arrays.copyOfRange(x, 4, 25));
    assertTrue(!java.util.Arrays.equals(a.record(42), a.record(43)));
    assertTrue(!java.util.Arrays.equals(a.record(42), new SyntheticRecords(100, 21, 4).record(42)));
  }
}
