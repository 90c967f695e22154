package org.jpir.core.params;

import org.jpir.vmp.Znx;

/**
 * A gadget of {@code levels} signed digits of {@code bits} bits on a torus held in base-2^K limbs:
 * {@code g_i = 2^(-bits (i+1))}, i = 0 .. levels - 1. The decomposition of x gives digits
 * {@code d_i} in {@code [-2^(bits-1), 2^(bits-1))} with {@code sum_i d_i g_i = x} rounded to
 * {@code bits * levels} bits, modulo 1. With {@code bits == K} the digits are the limbs of x
 * normalized to {@code levels} limbs (exactly {@link Znx#normalize}, the digits every preset used
 * before finer gadgets); finer gadgets trade more levels for smaller digits, which is what keeps
 * key switching and external products quiet at N = 2048.
 */
public final class Gadget {
  private final int k;
  private final int bits;
  private final int levels;
  private final int topLimbs;

  /**
   * The gadget of {@code levels} digits of {@code bits} bits over K-bit limbs.
   *
   * @throws IllegalArgumentException unless {@code 1 <= bits <= K <= 16}, {@code levels >= 1}
   *     and, for digits finer than the limbs, they span at most 62 bits in limbs of at most 64
   */
  public Gadget(int k, int bits, int levels) {
    if (k < 1 || k > 16 || bits < 1 || bits > k || levels < 1
        || (bits < k && (long) bits * levels > 62)) {
      throw new IllegalArgumentException("gadget of " + levels + " digits of " + bits
          + " bits over " + k + "-bit limbs: need 1 <= bits <= K <= 16, levels >= 1 and, below"
          + " K, bits * levels <= 62");
    }
    this.k = k;
    this.bits = bits;
    this.levels = levels;
    this.topLimbs = bits == k ? levels : (bits * levels + k - 1) / k;
    if (bits < k && topLimbs * k > 64) {
      throw new IllegalArgumentException("gadget of " + levels + " x " + bits + " bits needs "
          + topLimbs + " limbs of " + k + " bits, more than 64 bits");
    }
  }

  /** Bits per digit. */
  public int bits() {
    return bits;
  }

  /** Number of digits (levels). */
  public int levels() {
    return levels;
  }

  /** Bits the digits span: {@code bits * levels}; the decomposition rounds x to them. */
  public int precision() {
    return bits * levels;
  }

  /**
   * Scratch longs {@link #decompose} needs: {@code N * (ceil(bits * levels / K) + 1)} (0 at bits
   * = K).
   */
  public int scratchLength(int n) {
    return bits == k ? 0 : Znx.gadgetDigitsTmpLength(n, topLimbs);
  }

  /**
   * Digit i of x's coefficient j into {@code dst[dOff + i*N + j]}, for x of {@code srcLimbs}
   * limbs at {@code src[sOff + l*N + j]} (any integer digits that {@link Znx#normalize} takes).
   * {@code carry} holds N longs, {@code scratch} {@link #scratchLength} (unused when bits == K).
   */
  public void decompose(int n, long[] src, int sOff, int srcLimbs, long[] dst, int dOff,
      long[] carry, long[] scratch) {
    if (bits == k) {
      Znx.normalize(n, k, src, sOff, srcLimbs, dst, dOff, levels, carry);
      return;
    }
    Znx.gadgetDigits(n, k, src, sOff, srcLimbs, topLimbs, bits, levels, dst, dOff, scratch);
  }

  /** Whether {@link #decomposeImage} applies: digits finer than the limbs. */
  public boolean decomposesImages() {
    return bits < k;
  }

  /**
   * {@link #decompose} of the automorphism image {@code aut(src)}, digit i of coefficient j as a
   * double at {@code dst[dOff + i*N + j]}: bitwise {@link Znx#permute} of every limb, decompose
   * and {@code Reim.fromZnx} of every digit, in one pass (digits finer than the limbs only).
   *
   * @throws IllegalStateException unless {@link #decomposesImages}
   */
  public void decomposeImage(Znx.Automorphism aut, long[] src, int sOff, int srcLimbs,
      double[] dst, int dOff) {
    if (!decomposesImages()) {
      throw new IllegalStateException("the image decomposition needs digits finer than the "
          + k + "-bit limbs, not " + bits + " bits");
    }
    Znx.imageGadgetDigits(aut, k, src, sOff, srcLimbs, topLimbs, bits, levels, dst, dOff);
  }

  /**
   * Adds {@code m * g_level} (N small integer coefficients, times {@code 2^-extra}) to the torus
   * polynomial {@code msg} held in limbs (limb l at {@code msg[l*N]}, any integer digits), for
   * messages of gadget rows: {@code 2^-(bits (level+1) + extra)} is a power of two inside the
   * limbs.
   *
   * @throws IllegalArgumentException when that power lies below the {@code msg.length / N}
   *     limbs, or m does not have N coefficients
   */
  public void addScaled(long[] msg, int n, int level, long[] m, int extra) {
    if (level < 0 || level >= levels || m.length != n || extra < 0) {
      throw new IllegalArgumentException("gadget row " + level + " of " + levels + " (extra "
          + extra + ") with " + m.length + " coefficients at N = " + n);
    }
    addPowerOfTwo(msg, n, k, bits * (level + 1) + extra, m);
  }

  /**
   * Adds {@code m * 2^-e} (N small integer coefficients; e >= 1) to the torus polynomial {@code
   * msg} in K-bit limbs: {@code m << (K (l+1) - e)} at limb {@code l = ceil(e / K) - 1}.
   *
   * @throws IllegalArgumentException when {@code 2^-e} lies below the limbs of msg
   */
  public static void addPowerOfTwo(long[] msg, int n, int k, int e, long[] m) {
    int limb = (e + k - 1) / k - 1;
    int shift = k * (limb + 1) - e;
    if (e < 1 || (long) (limb + 1) * n > msg.length || m.length != n) {
      throw new IllegalArgumentException("2^-" + e + " (" + m.length + " coefficients at N = "
          + n + ") lies outside the " + msg.length / n + " limbs of " + k + " bits");
    }
    for (int j = 0; j < n; j++) {
      msg[limb * n + j] += m[j] << shift;
    }
  }

  /** {@link #addPowerOfTwo} of the single coefficient {@code value} at index j. */
  public static void addPowerOfTwo(long[] msg, int n, int k, int e, int j, long value) {
    int limb = (e + k - 1) / k - 1;
    int shift = k * (limb + 1) - e;
    if (e < 1 || (long) (limb + 1) * n > msg.length || j < 0 || j >= n) {
      throw new IllegalArgumentException("2^-" + e + " at coefficient " + j + " (N = " + n
          + ") lies outside the " + msg.length / n + " limbs of " + k + " bits");
    }
    msg[limb * n + j] += value << shift;
  }

  /** {@link #addScaled} of the single coefficient {@code value} at index {@code j}. */
  public void addScaled(long[] msg, int n, int level, int j, long value, int extra) {
    if (level < 0 || level >= levels || extra < 0) {
      throw new IllegalArgumentException("gadget row " + level + " of " + levels + " (extra "
          + extra + ")");
    }
    addPowerOfTwo(msg, n, k, bits * (level + 1) + extra, j, value);
  }
}
