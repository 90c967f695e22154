package org.jpir.vmp;

/**
 * The hot loops of base-2^K normalization and gadget decomposition (internal, handed out by
 * {@link KernelProvider}; implementations {@code RefZnx} and {@code PanamaZnx}). Exact integer
 * arithmetic: every implementation gives identical results. No argument checks (done by {@link
 * Znx}).
 */
interface ZnxKernel {
  /**
   * One limb of normalization. For {@code j < n}: {@code x = (a == null ? 0 : a[aOff + j]) +
   * carry[j]}; {@code d} = the low K bits of x as a signed digit in {@code [-2^(K-1), 2^(K-1))};
   * {@code carry[j] = (x - d) >> K}; and, when {@code res != null}, {@code res[resOff + j] = d}.
   */
  void normalizeStep(int n, int base2k, long[] a, int aOff, long[] carry, long[] res, int resOff);

  /**
   * {@link Znx#normalize} of {@code aSize} limbs into {@code resSize} limbs (limb i at {@code
   * off + i*N}), the carries starting at 0; {@code res} may be {@code a} at the same offset.
   * {@code tmp} holds N longs of scratch an implementation may use.
   */
  void normalize(int n, int base2k, long[] a, int aOff, int aSize, long[] res, int resOff,
      int resSize, long[] tmp);

  /**
   * Gadget digits of a limb vector. Per coefficient j: normalize {@code a}'s {@code aSize} limbs
   * to {@code topLimbs} (as {@link #normalize}), {@code v = sum_l d_l 2^(K (topLimbs-1-l))}
   * (wrapping), rounded to its top {@code bits levels} bits: {@code v = (v + 2^(drop-1)) >> drop}
   * when {@code drop = K topLimbs - bits levels > 0}; then for {@code i = levels-1 .. 0}: {@code
   * dst[dOff + i*N + j] = d} = the low {@code bits} bits of v as a signed digit, {@code v = (v -
   * d) >> bits}. {@code tmp} holds {@code (topLimbs + 1) * N} longs of scratch.
   */
  void gadgetDigits(int n, int base2k, long[] a, int aOff, int aSize, int topLimbs, int bits,
      int levels, long[] dst, int dOff, long[] tmp);

  /**
   * Re-digits a limb vector. Per coefficient j: {@code v = sum_l a[aOff + l*N + j] 2^(fromBits
   * (aLimbs-1-l))} (wrapping), scaled by {@code 2^shift}, {@code shift = toBits resLimbs -
   * fromBits aLimbs} (a right shift rounds half up), then split into {@code resLimbs} signed
   * digits of {@code toBits} bits, least significant at limb {@code resLimbs - 1}: {@code d} =
   * the low toBits bits of v as a signed digit, {@code res[resOff + i*N + j] = d}, {@code v = (v
   * - d) >> toBits}; what is left above limb 0 (the torus' integer part) is dropped.
   */
  void rebase(int n, int fromBits, long[] a, int aOff, int aLimbs, int toBits, long[] res,
      int resOff, int resLimbs);

  /**
   * One node of the expansion trace. For {@code j < n}, with {@code x = d[dOff + j]} and {@code
   * t = k[kOff + j]}: {@code d[dOff + j] = x + t}, and {@code (x - t) X^(-step)} into {@code
   * odd[oddOff ..]}: {@code odd[oddOff + j - step] = x - t} for {@code j >= step}, {@code
   * odd[oddOff + n - step + j] = t - x} for {@code j < step} (0 < step < n). odd must not
   * overlap d or k.
   */
  void traceSplit(int n, int step, long[] k, int kOff, long[] d, int dOff, long[] odd,
      int oddOff);

  /** {@code dst[dstOff + j] = (double) src[srcOff + j]} for j &lt; n ({@link Reim#fromZnx}). */
  void fromZnx(int n, long[] src, int srcOff, double[] dst, int dstOff);

  /**
   * {@code dst[dstOff + j] = (long) Math.rint(src[srcOff + j] * (2.0 / n))}, plus {@code
   * add[addOff + j]} unless add is null, for j &lt; n ({@link Reim#toZnx}, {@link
   * Reim#toZnxAdd}); dst may alias add exactly.
   */
  void toZnx(int n, double[] src, int srcOff, long[] add, int addOff, long[] dst, int dstOff);

  /**
   * A signed permutation of coefficients: {@code dst[dstOff + i] = (src[srcOff + from[i]] ^
   * neg[i]) - neg[i]} for i &lt; n (neg[i] is 0 or -1: -1 negates); dst must not overlap src.
   */
  void permute(int n, long[] src, int srcOff, int[] from, long[] neg, long[] dst, int dstOff);

  /**
   * {@link #permute} added into dst: {@code dst[dstOff + i] += (src[srcOff + from[i]] ^ neg[i]) -
   * neg[i]} for i &lt; n; dst must not overlap src.
   */
  void permuteAdd(int n, long[] src, int srcOff, int[] from, long[] neg, long[] dst,
      int dstOff);

  /**
   * {@link #gadgetDigits} of the signed permutation of every limb of a (limb l read as {@link
   * #permute} reads {@code a[aOff + l*N ..]}), each digit stored as a double: {@code dst[dOff +
   * i*N + j] = (double) d_i(j)}. Bitwise what permute, gadgetDigits and {@link #fromZnx} give in
   * turn; needs no scratch.
   */
  void imageGadgetDigits(int n, int base2k, long[] a, int aOff, int aSize, int[] from,
      long[] neg, int topLimbs, int bits, int levels, double[] dst, int dOff);
}
