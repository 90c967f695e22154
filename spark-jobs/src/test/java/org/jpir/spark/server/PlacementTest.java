package org.jpir.spark.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The driver's assignment of prepared partitions to executors ({@link Placement#spread}). */
class PlacementTest {
  private static final int[] SIX = {128, 128, 128, 128, 128, 128};

  @Test
  void aFirstPlacementDealsThePartitionsEvenlyWidestFirst() {
    String[] t = Placement.spread(new String[6], SIX, List.of("0", "1", "2"));
    assertArrayEquals(new String[] {"0", "1", "2", "0", "1", "2"}, t);
    // 7 ranges of 144 or 136 on 3 executors: 3, 2, 2, and the 3 hold the fewest columns
    int[] seven = {144, 144, 144, 144, 144, 144, 136};
    Map<String, Integer> c = counts(Placement.spread(new String[7], seven, List.of("a", "b",
        "c")));
    assertEquals(Map.of("a", 3, "b", 2, "c", 2), c);
    assertThrows(IllegalArgumentException.class, () -> Placement.spread(new String[1], new int[]
        {1}, List.of()));
  }

  @Test
  void lostPartitionsGoToTheExecutorsHoldingFewestAndAReplacementGetsItsShare() {
    // executor 0 died: its partitions 0 and 3 are lost
    String[] now = {null, "1", "2", null, "1", "2"};
    String[] t = Placement.spread(now, SIX, List.of("1", "2"));
    assertEquals(Map.of("1", 3, "2", 3), counts(t));
    for (int i : new int[] {1, 2, 4, 5}) {
      assertEquals(now[i], t[i], "partition " + i + " stays");
    }
    // the replacement 3 registers: one partition moves from each survivor, the others stay
    String[] r = Placement.spread(t, SIX, List.of("1", "2", "3"));
    assertEquals(Map.of("1", 2, "2", 2, "3", 2), counts(r));
    int moved = 0;
    for (int i = 0; i < 6; i++) {
      moved += r[i].equals(t[i]) ? 0 : 1;
    }
    assertEquals(2, moved, "only what the replacement takes moves");
    // a partition on an executor that is gone counts as lost; a balanced placement stays
    String[] gone = Placement.spread(new String[] {"9", "1", "2", "1", "2", "3"}, SIX,
        List.of("1", "2", "3"));
    assertEquals("3", gone[0]);
    assertArrayEquals(r, Placement.spread(r, SIX, List.of("1", "2", "3")));
  }

  @Test
  void countsDifferByAtMostOneForAnyStart() {
    Random rnd = new Random(3);
    for (int trial = 0; trial < 500; trial++) {
      int n = 1 + rnd.nextInt(40);
      int e = 1 + rnd.nextInt(9);
      List<String> ex = new java.util.ArrayList<>();
      for (int i = 0; i < e; i++) {
        ex.add(Integer.toString(i));
      }
      String[] now = new String[n];
      int[] w = new int[n];
      for (int i = 0; i < n; i++) {
        int k = rnd.nextInt(e + 2);
        now[i] = k < e ? ex.get(k) : k == e ? null : "gone";
        w[i] = 1 + rnd.nextInt(200);
      }
      String[] t = Placement.spread(now, w, ex);
      Map<String, Integer> c = counts(t);
      int max = c.values().stream().max(Integer::compare).orElseThrow();
      int min = ex.stream().mapToInt(x -> c.getOrDefault(x, 0)).min().orElseThrow();
      assertTrue(max - min <= 1, "counts " + c + " over " + ex);
      assertTrue(java.util.Arrays.stream(t).allMatch(ex::contains));
    }
  }

  private static Map<String, Integer> counts(String[] t) {
    Map<String, Integer> c = new HashMap<>();
    for (String s : t) {
      c.merge(s, 1, Integer::sum);
    }
    return c;
  }
}
