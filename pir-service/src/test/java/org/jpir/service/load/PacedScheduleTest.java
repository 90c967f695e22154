package org.jpir.service.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The open-loop schedule: the right number of sends, evenly spaced, inside the window. */
class PacedScheduleTest {
  /** Every send of every client, sorted. */
  private static List<Long> all(PacedSchedule s) {
    List<Long> t = new ArrayList<>();
    for (int c = 0; c < s.clients(); c++) {
      for (int k = 0; k < s.sends(c); k++) {
        t.add(s.offsetNanos(c, k));
      }
    }
    Collections.sort(t);
    return t;
  }

  @Test
  void sendsOfAllClientsAreEvenlySpacedAtTheRateInsideTheWindow() {
    PacedSchedule s = new PacedSchedule(32, 3.5, 60_000_000_000L);
    List<Long> t = all(s);
    assertEquals(210, t.size(), "3.5 queries/s for 60 s");
    assertEquals(210, s.total());
    assertEquals(0L, t.get(0));
    assertTrue(t.get(t.size() - 1) < 60_000_000_000L);
    for (int i = 1; i < t.size(); i++) {
      long gap = t.get(i) - t.get(i - 1);
      assertTrue(Math.abs(gap - 1e9 / 3.5) <= 1, "gap " + gap + " at " + i);
    }
  }

  @Test
  void eachClientSendsEveryClientsOverRateSecondsStartingAtItsOwnPhase() {
    PacedSchedule s = new PacedSchedule(4, 2.0, 10_000_000_000L);
    assertEquals(2_000_000_000L, s.intervalNanos());
    for (int c = 0; c < 4; c++) {
      assertEquals(c * 500_000_000L, s.offsetNanos(c, 0));
      assertEquals(5, s.sends(c), "client " + c);
      for (int k = 1; k < s.sends(c); k++) {
        assertEquals(s.intervalNanos(), s.offsetNanos(c, k) - s.offsetNanos(c, k - 1));
      }
    }
  }

  @Test
  void unevenCountsSplitTheWindowsSendsAmongTheClientsInTurn() {
    // 7 sends fit in 1 s at 6.5 queries/s (0, 1/6.5, ..., 6/6.5 < 1): clients 0-2 get 3, 2, 2
    PacedSchedule s = new PacedSchedule(3, 6.5, 1_000_000_000L);
    assertEquals(7, s.total());
    assertEquals(3, s.sends(0));
    assertEquals(2, s.sends(1));
    assertEquals(2, s.sends(2));
    assertEquals(7, all(s).size());
    // a send exactly at the window's end is outside it
    assertEquals(2, new PacedSchedule(1, 2.0, 1_000_000_000L).total());
    // more clients than sends: the last clients send nothing
    PacedSchedule few = new PacedSchedule(10, 1.0, 3_000_000_000L);
    assertEquals(3, few.total());
    assertEquals(1, few.sends(2));
    assertEquals(0, few.sends(3));
  }

  @Test
  void refusesNonsense() {
    assertThrows(IllegalArgumentException.class, () -> new PacedSchedule(0, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new PacedSchedule(1, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new PacedSchedule(1, Double.NaN, 1));
    assertThrows(IllegalArgumentException.class, () -> new PacedSchedule(1, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new PacedSchedule(2, 1, 5).sends(2));
  }
}
