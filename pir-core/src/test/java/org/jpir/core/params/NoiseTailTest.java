package org.jpir.core.params;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The failure probability's log2 erfc against values computed independently at 50 digits. */
class NoiseTailTest {
  /** {x, log2 erfc(x)} from mpmath 1.3 ({@code mp.dps = 50; log(erfc(x), 2)}). */
  private static final double[][] REFERENCE = {
      {0.5, -1.0603969120141556747},
      {3, -15.466214597195473333},
      {5.0366, -39.782687982490511401}, // about 2^-40, the plain presets' bound
      {8, -96.169289640557462624},
      {20, -582.22749028292762118},
      {25.999, -980.71402643297139574}, // the last x below the switch to the series
      {26, -980.78910053995455033},
      {40, -2314.4601920724865782},
      {100, -14434.420085269882381}};

  @Test
  void log2ErfcMatchesTheReferenceFarIntoTheTail() {
    for (double[] r : REFERENCE) {
      double got = Noise.log2Erfc(r[0]);
      // relative 1e-13 below the switch (commons-math3's erfc), 1e-12 on the series beyond
      double tol = Math.abs(r[1]) * (r[0] < Noise.ERFC_UNDERFLOW ? 1e-13 : 1e-12);
      assertEquals(r[1], got, tol, "log2 erfc(" + r[0] + ")");
    }
  }

  @Test
  void log2ErfcIsContinuousAndDecreasingAcrossTheSwitch() {
    double prev = Noise.log2Erfc(0);
    assertEquals(0.0, prev, 1e-15);
    for (double x = 0.25; x <= 40; x += 0.25) {
      double v = Noise.log2Erfc(x);
      assertTrue(v < prev, "log2 erfc decreases at x = " + x);
      prev = v;
    }
    double below = Noise.log2Erfc(Math.nextDown(Noise.ERFC_UNDERFLOW));
    double at = Noise.log2Erfc(Noise.ERFC_UNDERFLOW);
    assertEquals(below, at, Math.abs(at) * 1e-12);
  }
}
