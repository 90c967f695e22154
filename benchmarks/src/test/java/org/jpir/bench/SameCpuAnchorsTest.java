package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SameCpuAnchorsTest {
  @Test
  void medianOfMediansInSecondsAndOtherLinesIgnored() {
    SameCpuAnchors a = SameCpuAnchors.parse(List.of(
        "# sanity line",
        "ANCHOR spqlios_reim_fft_N4096 3.0 2.9 3.1 us",
        "ANCHOR spqlios_reim_fft_N4096 5.0 4.9 5.1 us",
        "ANCHOR spqlios_reim_fft_N4096 4.0 3.9 4.1 us",
        "ANCHOR spqlios_vmp_pvec_to_dft_16384:15:30 1.5 1.4 1.6 ms"));
    assertEquals(4.0e-6, a.seconds("spqlios_reim_fft_N4096").getAsDouble(), 1e-15);
    assertEquals(3, a.count("spqlios_reim_fft_N4096"));
    assertEquals(1.5e-3, a.seconds(SameCpuAnchors.name("applyPvecToDft", 16384, 15, 30))
        .getAsDouble(), 1e-15);
    assertTrue(a.seconds("spqlios_reim_ifft_N4096").isEmpty());
    assertFalse(a.isEmpty());
    assertTrue(SameCpuAnchors.NONE.isEmpty());
  }

  @Test
  void malformedLinesAreRefusedWithTheirLineNumber() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SameCpuAnchors.parse(List.of("x", "ANCHOR a 1.0 us")));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> SameCpuAnchors.parse(List.of("ANCHOR a 1.0 0.9 1.1 minutes")));
    assertTrue(e.getMessage().contains("unit"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> SameCpuAnchors.parse(List.of("ANCHOR a NaN 0.9 1.1 us")));
    assertThrows(IllegalArgumentException.class,
        () -> SameCpuAnchors.parse(List.of("ANCHOR a -1 0.9 1.1 us")));
  }

  @Test
  void targetsAreJudgedAgainstTheSameCpuFigureWhenThereIsOne() {
    JmhResults.Row row = new JmhResults.Row("org.jpir.bench.VmpBench.applyPvecToDft",
        Map.of("kernel", "panama", "shape", "16384:15:30"), "ms/op", new double[] {2.0},
        "25", List.of());
    Targets.Ceilings none = new Targets.Ceilings(java.util.Optional.empty(),
        java.util.Optional.empty());
    // 2.0 ms is within the Zen 4 figure (2.81 ms) but not within 1.5 ms measured here
    assertEquals("yes", Targets.judge(row, 2.0e-3, none).met());
    SameCpuAnchors here = SameCpuAnchors.parse(List.of(
        "ANCHOR spqlios_vmp_pvec_to_dft_16384:15:30 1.5 1.4 1.6 ms"));
    Targets.Verdict v = Targets.judge(row, 2.0e-3, none, here);
    assertEquals("**no**", v.met());
    assertTrue(v.target().contains("1.33x"), v.target());
    assertEquals("yes", Targets.judge(row, 1.4e-3, none, here).met());
  }
}
