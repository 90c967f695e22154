package org.jpir.core.params;

import org.jpir.vmp.FftPlan;

/**
 * How a compact query's phase-1 rows travel through the database pass: each GLWE part (b, a) as
 * {@code limbs} signed digits of {@code limbBits} bits, so the phase-1 PMAT has {@code 2 limbs}
 * columns and the rows are rounded to {@code limbBits * limbs} bits. The server's own form is
 * its limbs ({@code K} bits, {@code glweLimbs}); a wider form ({@link CompactParams#derive})
 * carries the same rows in fewer, wider limbs where the FFT keeps the products exact ({@link
 * #maxLimbBits}) and the noise budget absorbs the rounding.
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
    int b = server.scaledPlaintext() ? server.plaintextBits() - 1 : server.base2k() - 1;
    int logN = Integer.numberOfTrailingZeros(server.n());
    int logK = 32 - Integer.numberOfLeadingZeros(Math.max(1, rows * server.plaintextLimbs()) - 1);
    return FftPlan.EXACT_PRODUCT_BITS - b - logN - logK + 1;
  }

  @Override
  public String toString() {
    return limbs + " x " + limbBits + " bits";
  }
}
