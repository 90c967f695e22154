package org.jpir.core;

/**
 * Closed-form noise estimates (variances on the torus) for every operation of the scheme, and
 * the failure probability they imply. Conventions: a digit uniform in {@code [-2^(K-1),
 * 2^(K-1))} has {@code E[d^2] = (2^(2K) - 1)/12 + 1/4}; database digits are bounded by their
 * worst case {@code 2^(2(K-1))}; a ternary secret coefficient has {@code E[s^2] = 2/3}.
 */
public final class Noise {
  private Noise() {}

  /** E[d^2] of a uniform digit of K bits. */
  static double uniformDigitSquare(int k) {
    return (Math.pow(2, 2 * k) - 1) / 12 + 0.25;
  }

  /** Fresh encryption: {@code (sigma^2 + 1/12) q^-2} (rounded Gaussian). */
  public static double fresh(Params p) {
    return (p.sigma() * p.sigma() + 1.0 / 12) * Math.pow(2, -2 * p.logQ());
  }

  /**
   * Phase 1 over {@code rows} database rows: the sum of {@code rows * plaintextLimbs * N} fresh
   * noises times database digits of at most {@code 2^(K-1)} (worst case).
   */
  public static double phase1(Params p, int rows) {
    double dbDigit = Math.pow(2, 2 * (p.base2k() - 1));
    return (double) rows * p.plaintextLimbs() * p.n() * dbDigit * fresh(p);
  }

  /**
   * Noise added by one external product (and so by one CMux level): {@code 2 L N E[d^2]} fresh
   * noises of the GGSW rows, plus the rounding of the input to L limbs ({@code u^2/12} on b and
   * {@code N (2/3) u^2/12} through a*s, {@code u = 2^(-K L)}).
   */
  public static double externalProduct(Params p) {
    int lg = p.ggswLevels();
    double u2 = Math.pow(2, -2 * p.base2k() * lg);
    return 2.0 * lg * p.n() * uniformDigitSquare(p.base2k()) * fresh(p)
        + u2 / 12 * (1 + p.n() * 2.0 / 3);
  }

  /** Rounding the answer to answerLimbs limbs: {@code u^2/12 (1 + N 2/3)}. */
  public static double answerRounding(Params p) {
    double u2 = Math.pow(2, -2 * p.base2k() * p.answerLimbs());
    return u2 / 12 * (1 + p.n() * 2.0 / 3);
  }

  /** Number of CMux levels for {@code cols} columns: ceil(log2 cols). */
  public static int levels(int cols) {
    return cols <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(cols - 1);
  }

  /** The noise variance of a decrypted answer for a rows x cols database. */
  public static double answer(Params p, int rows, int cols) {
    return phase1(p, rows) + levels(cols) * externalProduct(p) + answerRounding(p);
  }

  /** Decoding is correct while |noise| is below this: half a unit of the plaintext precision. */
  public static double margin(Params p) {
    return Math.pow(2, -(p.plaintextBits() + 1));
  }

  /**
   * log2 of the probability that one coefficient of an answer fails to decode, for a Gaussian
   * noise of the given variance: {@code log2 erfc(margin / (sigma sqrt 2))}.
   */
  public static double log2FailureProbability(Params p, double variance) {
    double x = margin(p) / Math.sqrt(2 * variance);
    return log2Erfc(x);
  }

  /** log2 erfc(x), accurate for x >= 0 (continued-fraction tail for x > 3). */
  static double log2Erfc(double x) {
    if (x < 3) {
      return Math.log(erfcSmall(x)) / Math.log(2);
    }
    // erfc(x) = exp(-x^2)/(x sqrt(pi)) * (1 - 1/(2x^2) + 3/(4x^4) - ...)
    double x2 = x * x;
    double series = 1 - 1 / (2 * x2) + 3 / (4 * x2 * x2) - 15 / (8 * x2 * x2 * x2);
    return (-x2 - Math.log(x * Math.sqrt(Math.PI)) + Math.log(series)) / Math.log(2);
  }

  /** erfc by the Abramowitz-Stegun 7.1.26 rational approximation (error below 1.5e-7). */
  private static double erfcSmall(double x) {
    double t = 1 / (1 + 0.3275911 * x);
    double y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
        + t * 1.061405429))));
    return y * Math.exp(-x * x);
  }
}
