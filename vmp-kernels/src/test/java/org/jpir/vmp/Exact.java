package org.jpir.vmp;

import java.math.BigInteger;

/** Exact integer negacyclic products, and the FFT product under test. */
final class Exact {
  private Exact() {}

  /** Naive O(N^2) negacyclic product; caller keeps |result| < 2^63. */
  static long[] negacyclic(long[] a, long[] b) {
    int n = a.length;
    long[] c = new long[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        int k = i + j;
        if (k < n) {
          c[k] += a[i] * b[j];
        } else {
          c[k - n] -= a[i] * b[j];
        }
      }
    }
    return c;
  }

  /** Coefficient k of the negacyclic product, exact (no overflow at any size). */
  static BigInteger coefficient(long[] a, long[] b, int k) {
    int n = a.length;
    // 128-bit accumulator as (hi, lo) with unsigned lo
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < n; i++) {
      int j = k - i;
      long x = a[i];
      long y;
      if (j >= 0) {
        y = b[j];
      } else {
        y = -b[j + n];
      }
      long pl = x * y;
      long ph = Math.multiplyHigh(x, y);
      long sl = lo + pl;
      hi += ph + (Long.compareUnsigned(sl, lo) < 0 ? 1 : 0);
      lo = sl;
    }
    return BigInteger.valueOf(hi).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(lo)));
  }

  /** toZnx(ifft(fft(a) * fft(b))) with the given plan. */
  static long[] fftProduct(FftPlan p, long[] a, long[] b) {
    int n = p.n();
    double[] fa = new double[n];
    double[] fb = new double[n];
    double[] prod = new double[n];
    Reim.fromZnx(n, a, 0, fa, 0);
    Reim.fromZnx(n, b, 0, fb, 0);
    p.fft(fa, 0);
    p.fft(fb, 0);
    Reim.mul(n, fa, 0, fb, 0, prod, 0);
    p.ifft(prod, 0);
    long[] got = new long[n];
    Reim.toZnx(n, prod, 0, got, 0);
    return got;
  }
}
