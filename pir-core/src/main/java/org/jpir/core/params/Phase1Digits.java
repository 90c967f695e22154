package org.jpir.core.params;

import org.jpir.vmp.FftPlan;

/**
 * How a compact query's phase-1 rows travel through the database pass: each GLWE part (b, a) as
 * {@code limbs} signed digits of {@code limbBits} bits, so the phase-1 PMAT has {@code 2 limbs}
 * columns and the rows are rounded to {@code limbBits * limbs} bits. The server's own form is
 * its limbs ({@code K} bits, {@code glweLimbs}); a wider form ({@link CompactParams#derive})
 * carries the same rows in fewer, wider limbs where the noise budget absorbs the rounding:
 * several digits where the FFT keeps every product exact ({@link #maxLimbBits}), or one digit
 * whose product sums fit a long ({@link #maxRoundedLimbBits}) and are rounded by the FFT within
 * {@link #productError}, which the noise budget adds ({@link Noise#compactPhase1}).
 *
 * @param limbBits bits per digit, 1 to 62
 * @param limbs digits per GLWE part (a form other than the server's limbs spans at most 64
 *     bits, {@link org.jpir.vmp.Znx#rebase})
 */
public record Phase1Digits(int limbBits, int limbs) {
  /** Validates the ranges; the message names them. */
  public Phase1Digits {
    if (limbBits < 1 || limbBits > 62 || limbs < 1 || limbs > 64) {
      throw new IllegalArgumentException("phase-1 rows in " + limbs + " digits of " + limbBits
          + " bits: need 1 <= bits <= 62 and 1 <= limbs <= 64");
    }
  }

  /** The server's own form: its {@code glweLimbs} limbs of K bits. */
  public static Phase1Digits limbsOf(Params server) {
    return new Phase1Digits(server.base2k(), server.glweLimbs());
  }

  /** Whether this is the server's own form (phase 1 as the classic presets run it). */
  public boolean isLimbsOf(Params server) {
    return limbBits == server.base2k() && limbs == server.glweLimbs();
  }

  /** Bits a phase-1 row keeps: {@code limbBits * limbs}. */
  public int bits() {
    return limbBits * limbs;
  }

  /** Columns of the phase-1 PMAT: {@code 2 limbs}. */
  public int columns() {
    return 2 * limbs;
  }

  /**
   * The widest digits whose phase-1 products stay exact in the FFT ({@link
   * FftPlan#EXACT_PRODUCT_BITS}): a row digit below {@code 2^(w-1)} times a database digit of at
   * most {@code 2^B} ({@code B = plaintextBits - 1} scaled, else {@code K - 1}), summed over N
   * coefficients and {@code rows * plaintextLimbs} rows: {@code (w-1) + B + log2 N +
   * ceil(log2(rows plaintextLimbs)) <= 47}.
   */
  public static int maxLimbBits(Params server, int rows) {
    return FftPlan.EXACT_PRODUCT_BITS - sumBits(server, rows) + 1;
  }

  /**
   * The widest single digit whose phase-1 product sums still fit a long ({@link
   * FftPlan#ROUNDED_PRODUCT_BITS}): {@code (w-1) + B + log2 N + ceil(log2(rows plaintextLimbs))
   * <= 62}; the FFT rounds them within {@link #productError}.
   */
  public static int maxRoundedLimbBits(Params server, int rows) {
    return FftPlan.ROUNDED_PRODUCT_BITS - sumBits(server, rows) + 1;
  }

  /**
   * Bits of a phase-1 product sum of these digits at {@code rows} rows: {@code (w-1) + B + log2 N
   * + log2 K}.
   */
  public int productBits(Params server, int rows) {
    return limbBits - 1 + sumBits(server, rows);
  }

  /**
   * The bound on the FFT's error in a phase-1 output coefficient on the torus, at {@code rows}
   * rows: 0 where the products are exact (the server's limbs, or {@link #maxLimbBits}), else the
   * top digit's {@link FftPlan#roundedProductError} times its weight {@code 2^-w}; infinite
   * where the pass cannot run these digits at these rows ({@link #checkProducts}), so that a
   * noise budget fails there.
   */
  public double productError(Params server, int rows) {
    if (isLimbsOf(server)) {
      return 0;
    }
    int t = productBits(server, rows);
    if (t > maxProductBits()) {
      return Double.POSITIVE_INFINITY;
    }
    return FftPlan.roundedProductError(t) * Math.scalb(1.0, -limbBits);
  }

  /**
   * Throws unless the pass can run these digits at {@code rows} rows ({@link #maxProductBits}):
   * several digits need exact products ({@link #maxLimbBits}), one digit sums within a long
   * ({@link #maxRoundedLimbBits}).
   */
  public void checkProducts(Params server, int rows) {
    if (isLimbsOf(server)) {
      return;
    }
    int t = productBits(server, rows);
    if (t > maxProductBits()) {
      throw new IllegalArgumentException("phase-1 rows in " + this + " at " + rows + " rows:"
          + " product sums of " + t + " bits, above the " + maxProductBits() + " that "
          + (limbs > 1 ? "keep several digits exact" : "fit a long"));
    }
  }

  /**
   * The most bits the pass runs these digits' product sums at: {@link
   * FftPlan#EXACT_PRODUCT_BITS} for several digits (each exact), {@link
   * FftPlan#ROUNDED_PRODUCT_BITS} for one (within a long).
   */
  private int maxProductBits() {
    return limbs > 1 ? FftPlan.EXACT_PRODUCT_BITS : FftPlan.ROUNDED_PRODUCT_BITS;
  }

  /**
   * {@code B + log2 N + ceil(log2(rows plaintextLimbs))}: a product sum's bits beyond the
   * digit's.
   */
  private static int sumBits(Params server, int rows) {
    int b = server.scaledPlaintext() ? server.plaintextBits() - 1 : server.base2k() - 1;
    int logN = Integer.numberOfTrailingZeros(server.n());
    int logK = 32 - Integer.numberOfLeadingZeros(Math.max(1, rows * server.plaintextLimbs()) - 1);
    return b + logN + logK;
  }

  @Override
  public String toString() {
    return limbs + " x " + limbBits + " bits";
  }
}
