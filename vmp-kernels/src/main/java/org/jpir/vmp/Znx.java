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
   * overlap {@code a}. One call makes the table of {@link Automorphism#of}; callers that apply one
   * p many times keep the table and call {@link #permute}.
   *
   * @throws IllegalArgumentException if p is even (not an automorphism), on short or overlapping
   *     arrays
   */
  public static void automorphism(int n, int p, long[] a, int aOff, long[] res, int resOff) {
    permute(Automorphism.of(n, p), a, aOff, res, resOff);
  }

  /**
   * One node of the expansion trace: {@code odd = (d - k) X^(-step)} and {@code d = d + k} in
   * {@code Z[X]/(X^N+1)}, for {@code 0 < step < N}; odd must not overlap d or k.
   */
  public static void traceSplit(int n, int step, long[] k, int kOff, long[] d, int dOff,
      long[] odd, int oddOff) {
    check3(n, "traceSplit", k, kOff, d, dOff, odd, oddOff);
    if (step <= 0 || step >= n) {
      throw new IllegalArgumentException("traceSplit step " + step + " not in (0, " + n + ")");
    }
    requireDistinct("traceSplit", d, dOff, odd, oddOff, n);
    requireDistinct("traceSplit", k, kOff, odd, oddOff, n);
    KERNEL.traceSplit(n, step, k, kOff, d, dOff, odd, oddOff);
  }

  /**
   * The automorphism {@code X -> X^p} (p odd) of {@code Z[X]/(X^N+1)} as a signed permutation:
   * index i of the image is coefficient {@code from[i]} of the source, negated where {@code
   * neg[i] = -1} (coefficient j goes to {@code j p mod 2N}, negated at or above N).
   */
  public record Automorphism(int n, int p, int[] from, long[] neg) {
    /** The table of X -> X^p at ring degree n. */
    public static Automorphism of(int n, int p) {
      Checks.ringDegree(n);
      if ((p & 1) == 0) {
        throw new IllegalArgumentException("automorphism X -> X^p needs an odd p, got p=" + p);
      }
      int[] from = new int[n];
      long[] neg = new long[n];
      int twoN = 2 * n;
      int pm = Math.floorMod(p, twoN);
      int t = 0;
      for (int j = 0; j < n; j++) {
        int to = t < n ? t : t - n;
        from[to] = j;
        neg[to] = t < n ? 0 : -1;
        t += pm;
        if (t >= twoN) {
          t -= twoN;
        }
      }
      return new Automorphism(n, p, from, neg);
    }
  }

  /**
   * {@code dst = a(src)}: {@code dst[dstOff + i] = (src[srcOff + from[i]] ^ neg[i]) - neg[i]};
   * dst must not overlap src.
   *
   * @throws IllegalArgumentException on short or overlapping arrays
   */
  public static void permute(Automorphism a, long[] src, int srcOff, long[] dst, int dstOff) {
    int n = a.n();
    Checks.range("permute source", src, srcOff, n);
    Checks.range("permute destination", dst, dstOff, n);
    requireDistinct("permute", src, srcOff, dst, dstOff, n);
    KERNEL.permute(n, src, srcOff, a.from(), a.neg(), dst, dstOff);
  }

  /**
   * {@code dst += a(src)}: {@code dst[dstOff + i] += (src[srcOff + from[i]] ^ neg[i]) - neg[i]}
   * (wrapping); dst must not overlap src.
   *
   * @throws IllegalArgumentException on short or overlapping arrays
   */
  public static void permuteAdd(Automorphism a, long[] src, int srcOff, long[] dst,
      int dstOff) {
    int n = a.n();
    Checks.range("permuteAdd source", src, srcOff, n);
    Checks.range("permuteAdd destination", dst, dstOff, n);
    requireDistinct("permuteAdd", src, srcOff, dst, dstOff, n);
    KERNEL.permuteAdd(n, src, srcOff, a.from(), a.neg(), dst, dstOff);
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
    KERNEL.normalize(n, base2k, a, aOff, aSize, res, resOff, resSize, tmp);
  }

  /** Scratch length (longs) for {@link #gadgetDigits}: {@code (topLimbs + 1) * N}. */
  public static int gadgetDigitsTmpLength(int n, int topLimbs) {
    Checks.ringDegree(n);
    return (topLimbs + 1) * n;
  }

  /**
   * Signed gadget digits of a limb vector: per coefficient, a's {@code aSize} limbs (any integer
   * digits {@link #normalize} takes) normalized to {@code topLimbs} limbs and read as one
   * integer {@code v} of {@code K topLimbs} bits (at most 64), rounded (half up) to its top {@code
   * bits levels} bits, then split into {@code levels} digits of {@code bits} bits in {@code [-2^(bits-1),
   * 2^(bits-1))}, most significant first: digit i at {@code dst[dOff + i*N + j]}. Exact integer
   * arithmetic, identical in every kernel.
   *
   * @param tmp {@link #gadgetDigitsTmpLength} longs of scratch
   * @throws IllegalArgumentException when a size, offset or bit count is out of range
   */
  public static void gadgetDigits(int n, int base2k, long[] a, int aOff, int aSize, int topLimbs,
      int bits, int levels, long[] dst, int dOff, long[] tmp) {
    checkGadgetDigits(n, base2k, a, aOff, aSize, topLimbs, bits, levels);
    Checks.range("gadgetDigits result", dst, dOff, (long) levels * n);
    Checks.range("gadgetDigits scratch", tmp, 0, (long) (topLimbs + 1) * n);
    if (a == dst && aOff < dOff + (long) levels * n && dOff < aOff + (long) aSize * n) {
      throw new IllegalArgumentException("gadgetDigits: input and result overlap");
    }
    KERNEL.gadgetDigits(n, base2k, a, aOff, aSize, topLimbs, bits, levels, dst, dOff, tmp);
  }

  /**
   * {@link #gadgetDigits} of the automorphism image {@code aut(a)} (every limb permuted as {@link
   * #permute}), each digit stored as a double at {@code dst[dOff + i*N + j]}: bitwise what
   * permuting the limbs, gadgetDigits and {@link Reim#fromZnx} of every digit give, in one pass
   * over a without scratch (the key switch's digits, ready for their transforms).
   *
   * @throws IllegalArgumentException when a size, offset or bit count is out of range
   */
  public static void imageGadgetDigits(Automorphism aut, int base2k, long[] a, int aOff,
      int aSize, int topLimbs, int bits, int levels, double[] dst, int dOff) {
    int n = aut.n();
    checkGadgetDigits(n, base2k, a, aOff, aSize, topLimbs, bits, levels);
    Checks.range("imageGadgetDigits result", dst, dOff, (long) levels * n);
    KERNEL.imageGadgetDigits(n, base2k, a, aOff, aSize, aut.from(), aut.neg(), topLimbs, bits,
        levels, dst, dOff);
  }

  private static void checkGadgetDigits(int n, int base2k, long[] a, int aOff, int aSize,
      int topLimbs, int bits, int levels) {
    Checks.ringDegree(n);
    if (base2k < 1 || base2k > 62 || topLimbs < 1 || (long) topLimbs * base2k > 64 || bits < 1
        || bits > 62 || levels < 1 || (long) bits * levels > (long) topLimbs * base2k) {
      throw new IllegalArgumentException("gadget digits: K = " + base2k + ", " + topLimbs
          + " limbs, " + levels + " digits of " + bits + " bits: need K limbs <= 64 and at"
          + " least bits levels");
    }
    Checks.atLeast("gadgetDigits aSize", aSize, 1);
    Checks.range("gadgetDigits input", a, aOff, (long) aSize * n);
  }

  /**
   * Re-digits a torus limb vector from {@code aLimbs} limbs of {@code fromBits} bits (any integer
   * digits: the value is taken modulo 1) to {@code resLimbs} normalized signed digits of {@code
   * toBits} bits, exactly when the target holds at least the source's bits, else rounded (half up)
   * to them: per coefficient, {@code V(res) = round(V(a) 2^(toBits resLimbs - fromBits aLimbs))}
   * modulo {@code 2^(toBits resLimbs)}, with {@code V(x) = sum_l x_l 2^(bits (limbs-1-l))}.
   * Source and result must not overlap.
   *
   * @throws IllegalArgumentException when either side spans more than 64 bits, a size is out of
   *     range or the arrays overlap
   */
  public static void rebase(int n, int fromBits, long[] a, int aOff, int aLimbs, int toBits,
      long[] res, int resOff, int resLimbs) {
    Checks.ringDegree(n);
    if (fromBits < 1 || toBits < 1 || toBits > 62 || aLimbs < 1 || resLimbs < 1
        || (long) fromBits * aLimbs > 64 || (long) toBits * resLimbs > 64) {
      throw new IllegalArgumentException("rebase " + aLimbs + " limbs of " + fromBits
          + " bits to " + resLimbs + " of " + toBits + ": each side 1 to 64 bits");
    }
    Checks.range("rebase input", a, aOff, (long) aLimbs * n);
    Checks.range("rebase result", res, resOff, (long) resLimbs * n);
    if (a == res && aOff < resOff + (long) resLimbs * n && resOff < aOff + (long) aLimbs * n) {
      throw new IllegalArgumentException("rebase: input and result overlap");
    }
    KERNEL.rebase(n, fromBits, a, aOff, aLimbs, toBits, res, resOff, resLimbs);
  }

  private static void check2(int n, String op, long[] a, int aOff, long[] res, int resOff) {
    Checks.ringDegree(n);
    Checks.range(op, "input", a, aOff, n);
    Checks.range(op, "result", res, resOff, n);
  }

  private static void check3(int n, String op, long[] a, int aOff, long[] b, int bOff, long[] res,
      int resOff) {
    check2(n, op, a, aOff, res, resOff);
    Checks.range(op, "second input", b, bOff, n);
  }

  private static void requireDistinct(String op, long[] a, int aOff, long[] res, int resOff,
      int n) {
    if (a == res && Math.abs((long) aOff - resOff) < n) {
      throw new IllegalArgumentException(op + ": result overlaps the input; use another buffer");
    }
  }
}
