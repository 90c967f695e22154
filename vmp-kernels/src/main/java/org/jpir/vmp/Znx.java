package org.jpir.vmp;

/**
 * Operations on int64 coefficient polynomials of {@code Z[X]/(X^N+1)} ("znx") and on vectors of
 * them in base-2^K limbs.
 *
 * <p>Layouts: a polynomial is N consecutive longs, coefficient j at {@code off + j}. A limb
 * vector of {@code size} limbs holds limb i at {@code off + i*N}; limb 0 is the most significant,
 * so a torus value is {@code sum_i a_i * 2^(-K*(i+1))} (mod 1). All methods allow the result to
 * alias an input at the same offset except {@link #rotate} and {@link #automorphism}, which need
 * distinct buffers. Integer arithmetic wraps (two's complement) like Java's {@code long}.
 */
public final class Znx {
  /** The JVM-wide normalization kernel (scalar or Vector API, chosen by {@link KernelProvider}). */
  private static final ZnxKernel KERNEL = KernelProvider.get().znxKernel();

  private Znx() {}

  /** {@code res[j] = a[j] + b[j]} for j < N. */
  public static void add(int n, long[] a, int aOff, long[] b, int bOff, long[] res, int resOff) {
    check3(n, "add", a, aOff, b, bOff, res, resOff);
    for (int j = 0; j < n; j++) {
      res[resOff + j] = a[aOff + j] + b[bOff + j];
    }
  }

  /** {@code res[j] = a[j] - b[j]} for j < N. */
  public static void sub(int n, long[] a, int aOff, long[] b, int bOff, long[] res, int resOff) {
    check3(n, "sub", a, aOff, b, bOff, res, resOff);
    for (int j = 0; j < n; j++) {
      res[resOff + j] = a[aOff + j] - b[bOff + j];
    }
  }

  /** {@code res[j] = -a[j]} for j < N. */
  public static void negate(int n, long[] a, int aOff, long[] res, int resOff) {
    check2(n, "negate", a, aOff, res, resOff);
    for (int j = 0; j < n; j++) {
      res[resOff + j] = -a[aOff + j];
    }
  }

  /** {@code res[j] = a[j]} for j < N. */
  public static void copy(int n, long[] a, int aOff, long[] res, int resOff) {
    check2(n, "copy", a, aOff, res, resOff);
    System.arraycopy(a, aOff, res, resOff, n);
  }

  /**
   * {@code res = X^k * a} in {@code Z[X]/(X^N+1)} (negacyclic rotation), for any int k (taken
   * mod 2N; X^N = -1). {@code res} must not overlap {@code a}.
   */
  public static void rotate(int n, int k, long[] a, int aOff, long[] res, int resOff) {
    check2(n, "rotate", a, aOff, res, resOff);
    requireDistinct("rotate", a, aOff, res, resOff, n);
    int twoN = 2 * n;
    int s = Math.floorMod(k, twoN);
    for (int j = 0; j < n; j++) {
      int t = j + s;
      if (t >= twoN) {
        t -= twoN;
      }
      if (t < n) {
        res[resOff + t] = a[aOff + j];
      } else {
        res[resOff + t - n] = -a[aOff + j];
      }
    }
  }

  /**
   * {@code res(X) = a(X^p)} in {@code Z[X]/(X^N+1)} for odd p (any sign; taken mod 2N): coefficient
   * j moves to {@code j*p mod 2N}, negated when that lands at or above N. {@code res} must not
   * overlap {@code a}.
   *
   * @throws IllegalArgumentException if p is even (not an automorphism)
   */
  public static void automorphism(int n, int p, long[] a, int aOff, long[] res, int resOff) {
    check2(n, "automorphism", a, aOff, res, resOff);
    if ((p & 1) == 0) {
      throw new IllegalArgumentException("automorphism X -> X^p needs an odd p, got p=" + p);
    }
    requireDistinct("automorphism", a, aOff, res, resOff, n);
    int twoN = 2 * n;
    long pm = Math.floorMod(p, twoN);
    for (int j = 0; j < n; j++) {
      int t = (int) ((j * pm) % twoN);
      if (t < n) {
        res[resOff + t] = a[aOff + j];
      } else {
        res[resOff + t - n] = -a[aOff + j];
      }
    }
  }

  /** Scratch length (longs) for {@link #normalize}: N. */
  public static int normalizeTmpLength(int n) {
    Checks.ringDegree(n);
    return n;
  }

  /**
   * Base-2^K normalization of a limb vector with carries across limbs. On return every digit
   * lies in {@code [-2^(K-1), 2^(K-1))}. Per coefficient, with {@code V(x, S) = sum_{i<S} x_i *
   * 2^(K*(S-1-i))}: when {@code resSize >= aSize}, {@code V(res, resSize) = V(a, aSize) *
   * 2^(K*(resSize-aSize))} modulo {@code 2^(K*resSize)} (the torus value is kept exactly; the
   * carry out of limb 0 is dropped). When {@code resSize < aSize}, the limbs beyond resSize only
   * feed their carries, so the result is {@code a} rounded to resSize limbs: {@code |V(a, aSize) -
   * V(res, resSize) * 2^(K*d)| <= 2^(K*d) / 2 + ...} centered modulo {@code 2^(K*aSize)}, {@code d
   * = aSize - resSize} (at most half a unit of the last kept limb, plus the ties of the centered
   * digits). Exact as long as no limb plus its incoming carry overflows 63 bits.
   *
   * @param base2k K, in [1, 62]
   * @param tmp N longs of scratch (the carries)
   */
  public static void normalize(int n, int base2k, long[] a, int aOff, int aSize, long[] res,
      int resOff, int resSize, long[] tmp) {
    Checks.ringDegree(n);
    if (base2k < 1 || base2k > 62) {
      throw new IllegalArgumentException("base2k = " + base2k + " must be in [1, 62]");
    }
    Checks.atLeast("normalize aSize", aSize, 0);
    Checks.atLeast("normalize resSize", resSize, 1);
    Checks.range("normalize input", a, aOff, (long) aSize * n);
    Checks.range("normalize result", res, resOff, (long) resSize * n);
    Checks.range("normalize scratch", tmp, 0, n);
    if (a == res && aOff != resOff && Math.abs((long) aOff - resOff) < (long) Math.max(aSize,
        resSize) * n) {
      throw new IllegalArgumentException("normalize: input and result overlap at different offsets");
    }
    java.util.Arrays.fill(tmp, 0, n, 0L);
    // limbs below the result's precision only feed carries
    for (int i = aSize - 1; i >= resSize; i--) {
      KERNEL.normalizeStep(n, base2k, a, aOff + i * n, tmp, null, 0);
    }
    for (int i = resSize - 1; i >= 0; i--) {
      KERNEL.normalizeStep(n, base2k, i < aSize ? a : null, aOff + i * n, tmp, res,
          resOff + i * n);
    }
  }

  private static void check2(int n, String op, long[] a, int aOff, long[] res, int resOff) {
    Checks.ringDegree(n);
    Checks.range(op + " input", a, aOff, n);
    Checks.range(op + " result", res, resOff, n);
  }

  private static void check3(int n, String op, long[] a, int aOff, long[] b, int bOff, long[] res,
      int resOff) {
    check2(n, op, a, aOff, res, resOff);
    Checks.range(op + " second input", b, bOff, n);
  }

  private static void requireDistinct(String op, long[] a, int aOff, long[] res, int resOff,
      int n) {
    if (a == res && Math.abs((long) aOff - resOff) < n) {
      throw new IllegalArgumentException(op + ": result overlaps the input; use another buffer");
    }
  }
}
