package org.jpir.core.lwe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PrgTest {
  @Test
  void sameSeedAndStreamRegenerateTheSameMaskOthersDiffer() {
    byte[] seed = new byte[32];
    seed[3] = 7;
    long[] a = new long[10000];
    long[] b = new long[10000];
    long[] c = new long[10000];
    new Prg(seed, 5).fillUniformDigits(a, 0, a.length, 16);
    new Prg(seed, 5).fillUniformDigits(b, 0, b.length, 16);
    new Prg(seed, 6).fillUniformDigits(c, 0, c.length, 16);
    assertArrayEquals(a, b);
    assertFalse(Arrays.equals(a, c));
  }

  @Test
  void digitsAreUniformInRangeAndGaussianHasItsSigma() {
    Prg prg = new Prg(new byte[32], 0);
    long[] d = new long[1 << 16];
    prg.fillUniformDigits(d, 0, d.length, 12);
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    double mean = 0;
    for (long v : d) {
      min = Math.min(min, v);
      max = Math.max(max, v);
      mean += v;
    }
    assertEquals(-2048, min);
    assertEquals(2047, max);
    assertTrue(Math.abs(mean / d.length) < 20, "mean " + mean / d.length);
    double s2 = 0;
    int n = 200000;
    int[] tern = new int[3];
    for (int i = 0; i < n; i++) {
      long g = prg.nextDiscreteGaussian(3.2);
      s2 += g * g;
      tern[prg.nextTernary() + 1]++;
    }
    double var = s2 / n;
    assertTrue(Math.abs(var - (3.2 * 3.2 + 1.0 / 12)) < 0.2, "variance " + var);
    for (int t : tern) {
      assertTrue(Math.abs(t - n / 3.0) < 2000, Arrays.toString(tern));
    }
    assertThrows(IllegalArgumentException.class, () -> new Prg(new byte[16], 0));
  }
}
