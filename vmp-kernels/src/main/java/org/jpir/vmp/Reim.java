package org.jpir.vmp;

/**
 * Conversions between int64 coefficient polynomials (znx) and the reim layout, and pointwise
 * operations on transforms. reim of p: {@code buf[off + j] = p_j} and {@code buf[off + m + j] =
 * p_{j+m}} for {@code 0 <= j < m = N/2} (a plain cast, in order).
 */
public final class Reim {
  /**
   * The conversions' kernel: the Vector API's before Java 25, whose C2 leaves the scalar loops
   * scalar (3.8x slower for {@link #toZnx}, 21x for {@link #fromZnx} at N = 2048 on JDK 17),
   * else the scalar loops, which C2 vectorizes there as fast or faster.
   */
  private static final ZnxKernel CONV = Runtime.version().feature() >= 25 ? new RefZnx()
      : KernelProvider.get().znxKernel();

  private Reim() {}

  /** {@code dst[dstOff + j] = (double) src[srcOff + j]} for j < N. */
  public static void fromZnx(int n, long[] src, int srcOff, double[] dst, int dstOff) {
    Checks.ringDegree(n);
    Checks.range("fromZnx source", src, srcOff, n);
    Checks.range("fromZnx destination", dst, dstOff, n);
    CONV.fromZnx(n, src, srcOff, dst, dstOff);
  }

  /**
   * {@code dst[dstOff + j] = round(src[srcOff + j] / m)} (to nearest), for j < N: the way back
   * from {@link FftPlan#ifft}, which multiplies by m.
   */
  public static void toZnx(int n, double[] src, int srcOff, long[] dst, int dstOff) {
    Checks.ringDegree(n);
    Checks.range("toZnx source", src, srcOff, n);
    Checks.range("toZnx destination", dst, dstOff, n);
    CONV.toZnx(n, src, srcOff, null, 0, dst, dstOff);
  }
  /**
   * {@code dst[dstOff + j] = round(src[srcOff + j] / m) + add[addOff + j]} for j < N: {@link
   * #toZnx} plus an integer polynomial; dst may alias add exactly (each index is read before it
   * is written).
   */
  public static void toZnxAdd(int n, double[] src, int srcOff, long[] add, int addOff,
      long[] dst, int dstOff) {
    Checks.ringDegree(n);
    Checks.range("toZnxAdd source", src, srcOff, n);
    Checks.range("toZnxAdd addend", add, addOff, n);
    Checks.range("toZnxAdd destination", dst, dstOff, n);
    CONV.toZnx(n, src, srcOff, add, addOff, dst, dstOff);
  }

  /**
   * Slotwise complex product of two transforms: {@code res_j = a_j * b_j} for {@code j < m}, with
   * {@code x_j = x[xOff + j] + i x[xOff + m + j]}. {@code res} may alias {@code a} or {@code b}
   * exactly (same offset). After {@link FftPlan#ifft} and {@link #toZnx} this gives the negacyclic
   * product, exactly within the bound stated in {@link FftPlan}.
   */
  public static void mul(int n, double[] a, int aOff, double[] b, int bOff, double[] res,
      int resOff) {
    product(n, "mul", false, a, aOff, b, bOff, res, resOff);
  }

  /**
   * Slotwise complex multiply-accumulate: {@code res_j += a_j * b_j} for {@code j < m} (layout as
   * in {@link #mul}). Summing K products before one inverse transform stays exact while {@code
   * A + B + log2(N) + log2(K) <= }{@value FftPlan#EXACT_PRODUCT_BITS}.
   */
  public static void mulAdd(int n, double[] a, int aOff, double[] b, int bOff, double[] res,
      int resOff) {
    product(n, "mulAdd", true, a, aOff, b, bOff, res, resOff);
  }

  /** {@code res[resOff + k] = a[aOff + k] + b[bOff + k]} for {@code k < N}. */
  public static void add(int n, double[] a, int aOff, double[] b, int bOff, double[] res,
      int resOff) {
    check3(n, "add", a, aOff, b, bOff, res, resOff);
    for (int k = 0; k < n; k++) {
      res[resOff + k] = a[aOff + k] + b[bOff + k];
    }
  }

  /** {@code res[resOff + k] = a[aOff + k] - b[bOff + k]} for {@code k < N}. */
  public static void sub(int n, double[] a, int aOff, double[] b, int bOff, double[] res,
      int resOff) {
    check3(n, "sub", a, aOff, b, bOff, res, resOff);
    for (int k = 0; k < n; k++) {
      res[resOff + k] = a[aOff + k] - b[bOff + k];
    }
  }

  // res_j = a_j * b_j, or res_j += a_j * b_j when accumulating; a_j and b_j read before res_j
  // is written, so that res may alias a or b
  private static void product(int n, String op, boolean accumulate, double[] a, int aOff,
      double[] b, int bOff, double[] res, int resOff) {
    check3(n, op, a, aOff, b, bOff, res, resOff);
    int m = n >> 1;
    for (int j = 0; j < m; j++) {
      double ar = a[aOff + j];
      double ai = a[aOff + m + j];
      double br = b[bOff + j];
      double bi = b[bOff + m + j];
      double re = ar * br - ai * bi;
      double im = ar * bi + ai * br;
      if (accumulate) {
        res[resOff + j] += re;
        res[resOff + m + j] += im;
      } else {
        res[resOff + j] = re;
        res[resOff + m + j] = im;
      }
    }
  }

  private static void check3(int n, String op, double[] a, int aOff, double[] b, int bOff,
      double[] res, int resOff) {
    Checks.ringDegree(n);
    Checks.range(op, "a", a, aOff, n);
    Checks.range(op, "b", b, bOff, n);
    Checks.range(op, "res", res, resOff, n);
  }
}
