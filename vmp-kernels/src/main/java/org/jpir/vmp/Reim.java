package org.jpir.vmp;

/**
 * Conversions between int64 coefficient polynomials (znx) and the reim layout, and pointwise
 * operations on transforms. reim of p: {@code buf[off + j] = p_j} and {@code buf[off + m + j] =
 * p_{j+m}} for {@code 0 <= j < m = N/2} (a plain cast, in order).
 */
public final class Reim {
  private Reim() {}

  /** {@code dst[dstOff + j] = (double) src[srcOff + j]} for j < N. */
  public static void fromZnx(int n, long[] src, int srcOff, double[] dst, int dstOff) {
    Checks.ringDegree(n);
    Checks.range("fromZnx source", src, srcOff, n);
    Checks.range("fromZnx destination", dst, dstOff, n);
    for (int j = 0; j < n; j++) {
      dst[dstOff + j] = src[srcOff + j];
    }
  }

  /**
   * {@code dst[dstOff + j] = round(src[srcOff + j] / m)} (to nearest), for j < N: the way back
   * from {@link FftPlan#ifft}, which multiplies by m.
   */
  public static void toZnx(int n, double[] src, int srcOff, long[] dst, int dstOff) {
    Checks.ringDegree(n);
    Checks.range("toZnx source", src, srcOff, n);
    Checks.range("toZnx destination", dst, dstOff, n);
    double inv = 2.0 / n;
    for (int j = 0; j < n; j++) {
      dst[dstOff + j] = (long) Math.rint(src[srcOff + j] * inv);
    }
  }
}
