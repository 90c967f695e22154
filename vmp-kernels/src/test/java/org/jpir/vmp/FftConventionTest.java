package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FftConventionTest {

  @ParameterizedTest
  @ValueSource(ints = {16, 32, 64, 256})
  void slotJHoldsPolynomialAtBitReversedRoot(int n) {
    int m = n / 2;
    SplittableRandom rnd = new SplittableRandom(n);
    long[] p = new long[n];
    for (int j = 0; j < n; j++) {
      p[j] = rnd.nextInt(-1000, 1000);
    }
    double[] buf = new double[n];
    Reim.fromZnx(n, p, 0, buf, 0);
    FftPlan.of(n).fft(buf, 0);
    int bits = Integer.numberOfTrailingZeros(m);
    for (int j = 0; j < m; j++) {
      int rev = bits == 0 ? 0 : Integer.reverse(j) >>> (32 - bits);
      double ang = Math.PI * (1 + 4.0 * rev) / n;
      double sr = 0;
      double si = 0;
      for (int k = 0; k < n; k++) {
        sr += p[k] * Math.cos(ang * k);
        si += p[k] * Math.sin(ang * k);
      }
      assertEquals(sr, buf[j], 1e-6 * n, "re slot " + j);
      assertEquals(si, buf[m + j], 1e-6 * n, "im slot " + j);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {16, 64, 1024})
  void productOfTransformsIsNegacyclicProduct(int n) {
    int m = n / 2;
    SplittableRandom rnd = new SplittableRandom(7 * n);
    long[] a = new long[n];
    long[] b = new long[n];
    for (int j = 0; j < n; j++) {
      a[j] = rnd.nextInt(-(1 << 15), 1 << 15);
      b[j] = rnd.nextInt(-(1 << 15), 1 << 15);
    }
    long[] expect = new long[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        int k = i + j;
        if (k < n) {
          expect[k] += a[i] * b[j];
        } else {
          expect[k - n] -= a[i] * b[j];
        }
      }
    }
    double[] fa = new double[n];
    double[] fb = new double[n];
    Reim.fromZnx(n, a, 0, fa, 0);
    Reim.fromZnx(n, b, 0, fb, 0);
    FftPlan plan = FftPlan.of(n);
    plan.fft(fa, 0);
    plan.fft(fb, 0);
    double[] prod = new double[n];
    for (int j = 0; j < m; j++) {
      prod[j] = fa[j] * fb[j] - fa[m + j] * fb[m + j];
      prod[m + j] = fa[j] * fb[m + j] + fa[m + j] * fb[j];
    }
    plan.ifft(prod, 0);
    long[] got = new long[n];
    Reim.toZnx(n, prod, 0, got, 0);
    assertArrayEquals(expect, got);
  }
}
