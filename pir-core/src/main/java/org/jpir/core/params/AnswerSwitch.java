package org.jpir.core.params;

/**
 * The modulus switch of answers: the final GLWE (b, a) of each plane is rounded coefficient by
 * coefficient to {@code answerBitsB} bits (b) and {@code answerBitsA} bits (a), i.e. to the
 * nearest multiple of {@code 2^-bits} on the torus, and travels as those integers ({@code
 * [0, 2^bits)}, bit-packed by {@link org.jpir.core.wire.Wire}). The rounding of b adds {@code
 * u_b^2/12} to the noise variance and the rounding of a adds {@code N (2/3) u_a^2/12} through
 * a*s ({@link Noise#answerRounding}, {@link Noise#answerSwitch}). The bits of each preset come
 * from {@link #derive}: the fewest that keep the failure probability per coefficient at the
 * preset's largest geometry within its bound. Dependency: AnswerSwitch uses Noise, not the other
 * way.
 *
 * <p>Values: a torus value is handled as its 64-bit fixed-point image {@code v = round(x 2^64)
 * mod 2^64} (limb digits beyond 64 bits are rounded into it); switched to t bits it is {@code (v
 * + 2^(63-t)) >>> (64-t)}.
 */
public final class AnswerSwitch {
  private AnswerSwitch() {}

  /**
   * The 64-bit fixed-point image of the torus value with digits {@code d[off + i*stride]}, i <
   * limbs, of K bits (limb i weighs 2^-K(i+1)), rounded to the nearest multiple of 2^-64; digits
   * need not be normalized.
   */
  public static long fixed64(long[] d, int off, int stride, int limbs, int k) {
    long v = 0;
    double below = 0;
    for (int i = 0; i < limbs; i++) {
      int shift = 64 - k * (i + 1);
      long digit = d[off + i * stride];
      if (shift >= 0) {
        v += digit << shift;
      } else {
        below += Math.scalb((double) digit, shift);
      }
    }
    return v + Math.round(below);
  }

  /** The 64-bit fixed-point value {@code v} rounded to {@code bits} bits: in [0, 2^bits). */
  public static long round(long v, int bits) {
    return bits >= 64 ? v : (v + (1L << (63 - bits))) >>> (64 - bits);
  }

  /**
   * Writes the switched value {@code w} (of {@code bits} bits) as {@code limbs} signed digits of K
   * bits, {@code out[off + i*stride]}, centered in {@code [-2^(K-1), 2^(K-1))} (needs {@code K
   * limbs <= 64} and {@code bits <= K limbs}).
   */
  public static void toDigits(long w, int bits, int k, int limbs, long[] out, int off, int stride) {
    int total = k * limbs;
    long v = bits >= 64 ? w : w << (64 - bits);
    long y = total >= 64 ? v : v >>> (64 - total);
    long half = 1L << (k - 1);
    long mask = (1L << k) - 1;
    for (int i = limbs - 1; i >= 0; i--) {
      long d = y & mask;
      if (d >= half) {
        d -= 1L << k;
      }
      out[off + i * stride] = d;
      y = (y - d) >>> k;
    }
  }

  /**
   * Coefficients of b the last plane of an answer needs for geometry {@code g}: those that hold
   * record bytes when every slot holds one record ({@code ceil(bytes in the last plane / bytes
   * per coefficient)}: the whole record for one plane, {@code recordSize - (planes - 1)
   * polyBytes} for a record spanning planes), else N; the other planes carry N. The count depends
   * only on the geometry, never on the index.
   */
  public static int bCoefficients(Params p, Geometry g) {
    if (g.recordsPerPoly() == 1) {
      int b = p.bytesPerCoefficient();
      long last = g.recordSize() - (long) (g.planes() - 1) * p.bytesPerPolynomial();
      return (int) Math.min(p.n(), (last + b - 1) / b);
    }
    return p.n();
  }

  /**
   * {@code p} with the fewest answer bits (least {@code bitsB + bitsA}; ties: fewer bits of a)
   * that keep {@link Noise#log2FailureProbability} of {@code variance + }{@link
   * Noise#answerSwitch}{@code (N, bitsB, bitsA)} at most {@code maxLog2Failure}; {@code
   * variance} is the answer's noise before the switch at the preset's largest geometry.
   *
   * @throws IllegalArgumentException when even {@code K answerLimbs} bits do not meet the bound
   */
  public static Params derive(Params p, double variance, double maxLog2Failure) {
    int max = Math.min(64, p.base2k() * p.answerLimbs());
    int bestB = -1;
    int bestA = -1;
    for (int a = p.plaintextBits() + 1; a <= max; a++) {
      for (int b = p.plaintextBits() + 1; b <= max; b++) {
        double v = variance + Noise.answerSwitch(p.n(), b, a);
        if (Noise.log2FailureProbability(p, v) <= maxLog2Failure) {
          if (bestA < 0 || a + b < bestA + bestB) {
            bestA = a;
            bestB = b;
          }
          break;
        }
      }
    }
    if (bestA < 0) {
      throw new IllegalArgumentException("preset " + p.id() + ": no answer modulus of at most "
          + max + " bits keeps the failure probability below 2^" + maxLog2Failure);
    }
    return p.withAnswerBits(bestB, bestA);
  }
}
