package org.jpir.vmp;

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

  /**
   * Coefficient k of the negacyclic product in long arithmetic: exact as long as every partial sum
   * stays below 2^63, which holds when {@code ||a||_inf ||b||_inf N < 2^63}.
   */
  static long coefficient(long[] a, long[] b, int k) {
    int n = a.length;
    long s = 0;
    for (int i = 0; i <= k; i++) {
      s += a[i] * b[k - i];
    }
    for (int i = k + 1; i < n; i++) {
      s -= a[i] * b[k - i + n];
    }
    return s;
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
