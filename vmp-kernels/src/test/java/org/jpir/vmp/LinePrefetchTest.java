package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The native line prefetch: where it loads, its bounds, and the pass's prefetch queue. */
class LinePrefetchTest {

  @Test
  void loadsOnJava22PlusX8664LinuxAndSaysWhyElsewhere() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    boolean supported = Runtime.version().feature() >= 22 && os.startsWith("linux")
        && CpuInfo.x86(arch)
        && !"false".equals(System.getProperty(LinePrefetch.PROPERTY));
    if (supported) {
      assertNotNull(LinePrefetch.get(), LinePrefetch.why());
      assertTrue(LinePrefetch.why().startsWith("native prefetch ("), LinePrefetch.why());
    } else {
      assertNull(LinePrefetch.get());
      assertTrue(LinePrefetch.why().endsWith("tiles read ahead"), LinePrefetch.why());
    }
  }

  @Test
  void clampKeepsLinesInsideTheArray() {
    double[] a = new double[20];
    assertEquals(3, LinePrefetch.clamp(a, 0, 100)); // doubles 0, 8, 16
    assertEquals(1, LinePrefetch.clamp(a, 16, 5));
    assertEquals(2, LinePrefetch.clamp(a, 3, 2));
    assertEquals(0, LinePrefetch.clamp(a, 20, 1));
    assertEquals(0, LinePrefetch.clamp(a, -1, 1));
    assertEquals(0, LinePrefetch.clamp(a, 0, 0));
    assertEquals(0, LinePrefetch.clamp(a, 0, -4));
  }

  @Test
  void prefetchChangesNothingAtAnyBound() {
    LinePrefetch p = LinePrefetch.get();
    if (p == null) {
      return; // nothing native to call here (the loader test says why)
    }
    double[] a = new double[1000];
    for (int i = 0; i < a.length; i++) {
      a[i] = i * 0.5;
    }
    double[] before = a.clone();
    p.lines(a, 0, 125);
    p.lines(a, 999, 1000);
    p.lines(a, 1000, 1);
    p.lines(a, -8, 3);
    p.lines(a, 17, Integer.MAX_VALUE);
    p.lines(new double[0], 0, 1);
    assertArrayEquals(before, a);
  }

  @Test
  void queueIssuesEveryQueuedLineOnceInOrder() {
    List<String> calls = new ArrayList<>();
    double[] x = new double[800];
    double[] y = new double[800];
    PrefetchQueue q = new PrefetchQueue((a, off, lines) ->
        calls.add((a == x ? "x" : "y") + off + "+" + lines));
    q.add(x, 16, 5);
    q.add(y, 0, 3);
    q.add(x, 0, 0); // empty runs are dropped
    assertEquals(8, q.total());
    q.step(2);
    q.step(4);
    q.rest();
    q.step(1); // nothing left
    assertEquals(List.of("x16+2", "x32+3", "y0+1", "y8+2"), calls);
    calls.clear();
    q.clear();
    assertEquals(0, q.total());
    q.rest();
    assertTrue(calls.isEmpty());
    for (int i = 0; i < 12; i++) { // grows past its initial 8 runs
      q.add(y, 8 * i, 1);
    }
    q.step(5);
    q.rest();
    assertEquals(12, calls.size());
    assertEquals("y88+1", calls.get(11));
  }

  @Test
  void gaussTilesAreCutIntoNearlyEqualChunksOfAbout40Rows() {
    if (Integer.getInteger(Vmp.PREFETCH_ROWS_PROPERTY) != null) {
      return; // forced for this JVM
    }
    assertEquals(40, Vmp.prefetchRows(true, 320));
    assertEquals(40, Vmp.prefetchRows(true, 400));
    assertEquals(10, Vmp.prefetchRows(true, 10));
    assertEquals(80, Vmp.prefetchRows(false, 80)); // four products: the L1 panel
    assertEquals(8, Vmp.prefetchRows(false, 3));
    for (int panel = 1; panel <= 2000; panel++) {
      int c = Vmp.prefetchRows(true, panel);
      int chunks = (panel + c - 1) / c;
      int last = panel - (chunks - 1) * c;
      assertTrue(c >= 1 && c <= panel, "panel " + panel + ": chunk " + c);
      assertTrue(panel < 60 || (c >= 27 && c <= 60), "panel " + panel + ": chunk " + c);
      assertTrue(last >= 1 && c - last < chunks, "panel " + panel + ": chunk " + c + ", last "
          + last);
    }
  }
}
