package org.jpir.core.params;

import org.apache.commons.math3.special.Erf;

/**
 * Closed-form noise estimates (variances on the torus) for every operation of the scheme, and
 * the failure probability they imply. Conventions: a digit uniform in {@code [-2^(K-1),
 * 2^(K-1))} has {@code E[d^2] = (2^(2K) - 1)/12 + 1/4}; database digits are bounded by their
 * worst case {@code 2^(2(K-1))}; a ternary secret coefficient has {@code E[s^2] = 2/3}.
 *
 * <p>Dependency: Noise reads compact parameters through {@link Compact} and never uses {@link
 * CompactParams}, which implements it and uses Noise (one way: CompactParams -> Noise).
 */
public final class Noise {
  private Noise() {}

  /**
   * What the compact-query estimates read of compact parameters (see {@link CompactParams}, the
   * one implementation, for the meaning of each value).
   */
  public interface Compact {
    /** The server's parameters: database, phase 1, phase 2 and answer. */
    Params server();

    /** The parameters of every ciphertext the client makes (packed query, keys, GGSW of s). */
    Params keys();

    /** Gadget levels of the key-switching keys. */
    int ksLevels();

    /** Bits per digit of the key-switching gadget (K when the digits are the limbs). */
    int ksBits();

    /** Bits to which the b parts of the packed query GLWEs are rounded. */
    int queryBits();

    /** Bits to which the b parts of the evaluation keys are rounded. */
    int keyBits();

    /** The form the server prepares the key-switching keys in (default: their own limbs). */
    default DigitForm ksForm() {
      return DigitForm.limbsOf(keys());
    }

    /** Bits a phase-1 row keeps after its rounding ({@code K glweLimbs} of the server: none). */
    default int phase1Bits() {
      return server().base2k() * server().glweLimbs();
    }

    /**
     * The bound on the FFT's error in a phase-1 output coefficient at {@code rows} rows ({@link
     * Phase1Digits#productError}; 0 where the products are exact).
     */
    default double phase1ProductError(int rows) {
      return 0;
    }

    /** Expansion depth of the phase-1 rows of a rows x cols query (at its layout). */
    int phase1Depth(int rows, int cols);

    /** Expansion depth of the phase-2 GGSW rows of a rows x cols query (at its layout). */
    int phase2Depth(int rows, int cols);

    /** Slots of the phase-1 packed ciphertext: rows * plaintextLimbs. */
    default int phase1Slots(int rows) {
      return rows * server().plaintextLimbs();
    }

    /** Slots of the phase-2 packed ciphertext: CMux levels * ggswLevels. */
    default int phase2Slots(int cols) {
      return Geometry.levels(cols) * server().ggswLevels();
    }

    /** Expansion depth for a slot count: ceil(log2 slots) (0 for at most one slot). */
    static int depth(int slots) {
      return slots <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(slots - 1);
    }
  }

  /** E[d^2] of a uniform digit of K bits. */
  public static double uniformDigitSquare(int k) {
    return (Math.pow(2, 2 * k) - 1) / 12 + 0.25;
  }

  /** Fresh encryption: {@code (sigma^2 + 1/12) q^-2} (rounded Gaussian). */
  public static double fresh(Params p) {
    return (p.sigma() * p.sigma() + 1.0 / 12) * Math.pow(2, -2 * p.logQ());
  }

  /**
   * Phase 1 over {@code rows} database rows: the sum of {@code rows * plaintextLimbs * N} fresh
   * noises times database digits of at most {@code 2^(databaseDigitBits-1)} (worst case).
   */
  public static double phase1(Params p, int rows) {
    return (double) rows * p.plaintextLimbs() * p.n() * databaseDigitSquare(p) * fresh(p);
  }

  /** The worst-case square of a database digit: {@code 2^(2 (databaseDigitBits - 1))}. */
  static double databaseDigitSquare(Params p) {
    return Math.pow(2, 2 * (p.databaseDigitBits() - 1));
  }

  /**
   * Noise added by one external product (and so by one CMux level): {@code 2 L N E[d^2]} fresh
   * noises of the GGSW rows (d a ggswBits-bit digit), plus the input's decomposition rounding
   * ({@code u^2/12} on b and {@code N (2/3) u^2/12} through a*s, {@code u = 2^-(ggswBits L)}),
   * plus the FFT's rounding where the prepared GGSW's digits are not exact ({@link
   * #ggswProductError}).
   */
  public static double externalProduct(Params p) {
    int lg = p.ggswLevels();
    double u2 = Math.pow(2, -2 * p.ggswBits() * lg);
    return 2.0 * lg * p.n() * uniformDigitSquare(p.ggswBits()) * fresh(p)
        + u2 / 12 * (1 + p.n() * 2.0 / 3) + ggswProductError(p);
  }

  /** The modulus switch of the answer: {@link #answerSwitch} at the preset's bits. */
  public static double answerRounding(Params p) {
    return answerSwitch(p.n(), p.answerBitsB(), p.answerBitsA());
  }

  /**
   * The variance the answer's modulus switch ({@link AnswerSwitch}) adds at N: {@code (r(bitsB)
   * + N (2/3) r(bitsA)) / 12}, where {@code r(64) = 2^-128} (one rounding to 64 bits) and {@code
   * r(t) = 2^-2t + 2^-128} below (the rounding to 64 bits that precedes the rounding to t bits).
   */
  public static double answerSwitch(int n, int bitsB, int bitsA) {
    return (roundingSquare(bitsB) + n * 2.0 / 3 * roundingSquare(bitsA)) / 12;
  }

  private static double roundingSquare(int bits) {
    return (bits >= 64 ? 0 : Math.pow(2, -2.0 * bits)) + Math.pow(2, -128);
  }

  /** The noise variance of a decrypted answer for a rows x cols database. */
  public static double answer(Params p, int rows, int cols) {
    return answerBeforeSwitch(p, rows, cols) + answerRounding(p);
  }

  /** The answer's noise variance before its modulus switch: phase 1 and the CMux levels. */
  public static double answerBeforeSwitch(Params p, int rows, int cols) {
    return phase1(p, rows) + Geometry.levels(cols) * externalProduct(p);
  }

  // ---- compact queries -------------------------------------------------------

  /**
   * The variance a rounding of b to {@code bits} bits adds to a ciphertext of {@code logQ} bits
   * ({@link org.jpir.core.lwe.BPacking}): {@code 2^(-2 bits) / 12}, zero when nothing is dropped.
   */
  public static double bRounding(int bits, int logQ) {
    return bits >= logQ ? 0 : Math.pow(2, -2.0 * bits) / 12;
  }

  /** A packed query's fresh noise: the encryption's plus the rounding of its b part. */
  public static double queryFresh(Compact cp) {
    return fresh(cp.keys()) + bRounding(cp.queryBits(), cp.keys().logQ());
  }

  /**
   * The noise of an evaluation key's row (automorphism key or GGSW(s)), which the gadget digits
   * multiply: the encryption's plus the rounding of its b part.
   */
  public static double keyFresh(Compact cp) {
    return fresh(cp.keys()) + bRounding(cp.keyBits(), cp.keys().logQ());
  }

  /** Rounding a GLWE to {@code limbs} limbs: {@link #roundingToBits} at {@code K limbs} bits. */
  public static double rounding(Params p, int limbs) {
    return roundingToBits(p, p.base2k() * limbs);
  }

  /** Rounding a GLWE to {@code bits} bits: {@code u^2/12 (1 + N 2/3)}, {@code u = 2^-bits}. */
  public static double roundingToBits(Params p, int bits) {
    double u2 = Math.pow(2, -2.0 * bits);
    return u2 / 12 * (1 + p.n() * 2.0 / 3);
  }

  /**
   * Noise added by one automorphism key switch: {@code ksLevels N E[d^2]} key-row noises ({@link
   * #keyFresh}: the rounding of the keys' b enters here, multiplied by the ksBits-bit gadget
   * digits of a(X^p)), plus the rounding of a(X^p) to those digits times s(X^p) ({@code N
   * (2/3) u^2/12}, {@code u = 2^-(ksBits ksLevels)}, zero when no bit is dropped), plus the
   * rounding of the keys to the server's prepared form ({@link DigitForm#roundingVariance}).
   */
  public static double keySwitch(Compact cp) {
    return keySwitchOwnForm(cp)
        + cp.ksForm().roundingVariance(cp.keys(), cp.ksLevels(), cp.ksBits());
  }

  /**
   * {@link #keySwitch} with the keys prepared in their own limbs ({@link DigitForm#limbsOf}):
   * the digits' key-row noise and the truncation of a(X^p).
   */
  public static double keySwitchOwnForm(Compact cp) {
    Params k = cp.keys();
    int l = cp.ksLevels();
    int span = cp.ksBits() * l;
    double u2 = Math.pow(2, -2.0 * span);
    double trunc = span < k.logQ() ? k.n() * 2.0 / 3 * u2 / 12 : 0;
    return l * k.n() * uniformDigitSquare(cp.ksBits()) * keyFresh(cp) + trunc;
  }

  /**
   * Bound on the noise variance of every coefficient of an expanded ciphertext, for a packed
   * ciphertext of {@code slots} slots (depth {@code l = ceil(log2 slots)}): each level maps e to
   * {@code e + Aut(e) + e_ks} (a coefficient fixed by the automorphism doubles, so at most 4x
   * the variance), hence {@code 4^l queryFresh + (4^l - 1)/3 keySwitch}: the rounding of the
   * query's b ({@link #queryFresh}) grows as the fresh noise does. A subtree with one used slot
   * is multiplied by {@code 2^(levels left)} instead, the same 4x per level without key switch.
   */
  public static double expansion(Compact cp, int slots) {
    return expansionAtDepth(cp, Compact.depth(slots));
  }

  /** {@link #expansion} at depth l: {@code 4^l queryFresh + (4^l - 1)/3 keySwitch}. */
  public static double expansionAtDepth(Compact cp, int l) {
    double f = Math.pow(4, l);
    return f * queryFresh(cp) + (f - 1) / 3 * keySwitch(cp);
  }

  /** A phase-1 row of a compact query: expansion, then rounding to its phase-1 digits. */
  public static double compactRow(Compact cp, int rows) {
    return compactRowAtDepth(cp, Compact.depth(cp.phase1Slots(rows)));
  }

  /** {@link #compactRow} for an expansion of depth l. */
  public static double compactRowAtDepth(Compact cp, int l) {
    return expansionAtDepth(cp, l) + roundingToBits(cp.server(), cp.phase1Bits());
  }

  /**
   * The external product with the GGSW of s that makes a GGSW row {@code GLWE(mu g_j s)} from an
   * expanded {@code GLWE(mu g_j)} of variance {@code v0}: {@code s e} ({@code N (2/3) v0}), the
   * GGSW's digit noise {@code 2 Ls N E[d^2] keyFresh}, and the input's rounding to Ls digits times
   * s and s^2 ({@code u^2/12 (N 2/3 + N^2 8/9)}: a coefficient of s^2 sums N/2 distinct products
   * s_i s_j each twice, so {@code E[(s^2)_k^2] <= 4 (N/2) 4/9 = 8N/9}).
   */
  public static double ggswConversion(Compact cp, double v0) {
    Params k = cp.keys();
    int ls = k.ggswLevels();
    double n = k.n();
    double u2 = Math.pow(2, -2.0 * k.ggswBits() * ls);
    return n * 2.0 / 3 * v0 + 2.0 * ls * n * uniformDigitSquare(k.ggswBits()) * keyFresh(cp)
        + u2 / 12 * (n * 2.0 / 3 + n * n * 8.0 / 9);
  }

  /**
   * One CMux level with GGSWs built by expansion: {@code L N E[d^2] (v0 + v1)} (rows of the two
   * halves, after rounding to the server's limbs) plus the input's decomposition rounding.
   */
  public static double compactExternalProduct(Compact cp, int cols) {
    return compactExternalProductAtDepth(cp, Compact.depth(Math.max(1,
        cp.phase2Slots(cols))));
  }

  /**
   * {@link #compactExternalProduct} with GGSW rows expanded at depth l: the GGSW rows rounded to
   * the CMux tree's limbs ({@link Params#foldLimbs}), and the CMux's output rounded to them
   * ({@link #foldRounding}).
   */
  public static double compactExternalProductAtDepth(Compact cp, int l) {
    Params s = cp.server();
    double v0 = expansionAtDepth(cp, l);
    double r = rounding(s, s.foldLimbs());
    double v1 = ggswConversion(cp, v0) + r;
    int lg = s.ggswLevels();
    return lg * s.n() * uniformDigitSquare(s.ggswBits()) * (v0 + r + v1)
        + roundingToBits(s, s.ggswBits() * lg) + foldRounding(s)
        + ggswProductError(s, s.foldLimbs());
  }

  /**
   * The FFT's rounding in an external product with a GGSW prepared as {@link DigitForm#ggswOf}
   * of p ({@link DigitForm#productError} E; 0 where the products are exact), counted as phase 1
   * counts its own: {@code E^2 (1 + N 2/3)}, the a part's times the secret as for a rounding.
   */
  public static double ggswProductError(Params p) {
    return ggswProductError(p, p.glweLimbs());
  }

  /** {@link #ggswProductError(Params)} for GGSW rows of {@code limbs} limbs of p. */
  public static double ggswProductError(Params p, int limbs) {
    double e = DigitForm.ggswOf(p, limbs).productError(p, 2 * p.ggswLevels(), p.ggswBits());
    return e * e * (1 + p.n() * 2.0 / 3);
  }

  /**
   * Rounding a ciphertext of the CMux tree to its limbs ({@link Params#foldLimbs}): {@link
   * #rounding} at those limbs, or 0 where they are all of the server's limbs (nothing is cut).
   */
  public static double foldRounding(Params s) {
    return s.foldLimbs() < s.glweLimbs() ? rounding(s, s.foldLimbs()) : 0;
  }

  /**
   * Phase 1 of a compact query: {@code rows * plaintextLimbs * N * 2^(2(databaseDigitBits-1))}
   * times a row's, plus the FFT's rounding of the sums where they are not exact ({@link
   * Compact#phase1ProductError} E, counted as a variance: {@code E^2 (1 + N 2/3)}, the a part's
   * times the secret as for a rounding).
   */
  public static double compactPhase1(Compact cp, int rows) {
    return compactPhase1AtDepth(cp, rows, Compact.depth(cp.phase1Slots(rows)));
  }

  /** {@link #compactPhase1} with rows expanded at depth l. */
  public static double compactPhase1AtDepth(Compact cp, int rows, int l) {
    Params s = cp.server();
    double e = cp.phase1ProductError(rows);
    return (double) rows * s.plaintextLimbs() * s.n() * databaseDigitSquare(s)
        * compactRowAtDepth(cp, l) + e * e * (1 + s.n() * 2.0 / 3);
  }

  /** The noise variance of a decrypted answer to a compact query on a rows x cols database. */
  public static double compactAnswer(Compact cp, int rows, int cols) {
    return compactAnswerBeforeSwitch(cp, rows, cols) + answerRounding(cp.server());
  }

  /** A compact answer's noise variance before its modulus switch, at the query's layout. */
  public static double compactAnswerBeforeSwitch(Compact cp, int rows, int cols) {
    return compactAnswerBeforeSwitchAt(cp, rows, cols, cp.phase1Depth(rows, cols),
        cp.phase2Depth(rows, cols));
  }

  /**
   * The noise variance of a decrypted compact answer whose phase-1 rows and phase-2 GGSW rows
   * were expanded at depths l1 and l2 (a packed query: both L).
   */
  public static double compactAnswerAt(Compact cp, int rows, int cols, int l1, int l2) {
    return compactAnswerBeforeSwitchAt(cp, rows, cols, l1, l2) + answerRounding(cp.server());
  }

  /** {@link #compactAnswerAt} before the modulus switch. */
  public static double compactAnswerBeforeSwitchAt(Compact cp, int rows, int cols, int l1,
      int l2) {
    // the phase-1 outputs are rounded once to the CMux tree's limbs
    return compactPhase1AtDepth(cp, rows, l1) + foldRounding(cp.server())
        + Geometry.levels(cols) * compactExternalProductAtDepth(cp, l2);
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

  /**
   * Below this x, {@link Erf#erfc} (commons-math3, relative error near 1e-15) is a normal double
   * ({@code erfc(26) ~ 5.6e-296 ~ 2^-980}); it underflows near 26.6.
   */
  static final double ERFC_UNDERFLOW = 26;

  /**
   * log2 erfc(x) for x >= 0: commons-math3's {@link Erf#erfc} while it is a normal double, beyond
   * that the asymptotic series of log erfc, {@code -x^2 - ln(x sqrt pi) + ln(1 - 1/(2x^2) +
   * 3/(4x^4) - 15/(8x^6))}, whose relative error there is below {@code 105/(16 x^8) < 4e-11}.
   */
  static double log2Erfc(double x) {
    if (x < ERFC_UNDERFLOW) {
      return Math.log(Erf.erfc(x)) / Math.log(2);
    }
    double x2 = x * x;
    double series = 1 - 1 / (2 * x2) + 3 / (4 * x2 * x2) - 15 / (8 * x2 * x2 * x2);
    return (-x2 - Math.log(x * Math.sqrt(Math.PI)) + Math.log(series)) / Math.log(2);
  }
}
