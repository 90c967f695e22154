package org.jpir.core.params;

import org.jpir.vmp.FftPlan;

/**
 * How the server prepares a matrix that gadget digits multiply (a key-switching key, a GGSW):
 * each part (b, a) of a row as {@code digits} signed digits of {@code digitBits} bits, so that
 * its PMAT has {@code 2 digits} columns and a product runs {@code rows x 2 digits} products and
 * {@code 2 digits} inverse transforms, whose rounded outputs {@link org.jpir.vmp.Znx#rebase}
 * turns back into K-bit limbs. The rows' own form is their {@code glweLimbs} limbs of K bits; a
 * wider form ({@link #widest}) uses digits as wide as keep every product exact in the FFT
 * ({@link #maxDigitBits}), and rounds the rows to {@code digitBits * digits} bits only where the
 * caller's noise budget allows ({@link #roundingVariance}). The client and the wire never see it.
 *
 * @param digitBits bits per digit, K for the rows' own limbs
 * @param digits digits per GLWE part
 */
public record DigitForm(int digitBits, int digits) {
  /**
   * The most a key-switching key's rounding may add to a key switch's variance, as a share
   * ({@link CompactParams#ksForm}).
   */
  public static final double MAX_SHARE = 1.0 / 64;

  /** Validates the ranges; the message names them. */
  public DigitForm {
    if (digitBits < 1 || digitBits > 64 || digits < 1 || digits > 4096) {
      throw new IllegalArgumentException("prepared rows in " + digits + " digits of "
          + digitBits + " bits: need 1 <= bits <= 64 and 1 <= digits <= 4096");
    }
  }

  /** The rows' own form: {@code glweLimbs} limbs of K bits. */
  public static DigitForm limbsOf(Params p) {
    return new DigitForm(p.base2k(), p.glweLimbs());
  }

  /** Whether this is the rows' own form (no re-digiting, no rounding). */
  public boolean isLimbsOf(Params p) {
    return digitBits == p.base2k() && digits == p.glweLimbs();
  }

  /** Bits a prepared row keeps: {@code digitBits * digits}. */
  public int bits() {
    return digitBits * digits;
  }

  /** Columns of a prepared PMAT: {@code 2 digits}. */
  public int columns() {
    return 2 * digits;
  }

  /**
   * The widest row digits whose products with gadget digits of {@code gadgetBits} bits stay
   * exact in the FFT ({@link FftPlan#EXACT_PRODUCT_BITS}): a gadget digit of at most {@code
   * 2^(gadgetBits-1)} times a row digit of at most {@code 2^(w-1)}, summed over N coefficients
   * and {@code rows} rows: {@code (gadgetBits-1) + (w-1) + log2 N + ceil(log2 rows) <= 47}.
   */
  public static int maxDigitBits(Params p, int rows, int gadgetBits) {
    return FftPlan.EXACT_PRODUCT_BITS - sumBits(p, rows, gadgetBits) + 1;
  }

  /**
   * A product sum's bits beyond a row digit's: {@code (gadgetBits-1) + log2 N + ceil(log2
   * rows)}.
   */
  private static int sumBits(Params p, int rows, int gadgetBits) {
    int logN = Integer.numberOfTrailingZeros(p.n());
    int logK = 32 - Integer.numberOfLeadingZeros(Math.max(1, rows) - 1);
    return gadgetBits - 1 + logN + logK;
  }

  /**
   * The variance this form's rounding of the rows adds to one product with gadget digits of
   * {@code gadgetBits} bits over {@code rows} rows: {@code rows N E[d^2]} times {@link
   * Noise#roundingToBits} (the rounding of each row's b and a); 0 when the form keeps every bit
   * of the rows' limbs.
   */
  public double roundingVariance(Params p, int rows, int gadgetBits) {
    return roundingVariance(p, p.glweLimbs(), rows, gadgetBits);
  }

  /** {@link #roundingVariance(Params, int, int)} for rows of {@code limbs} limbs of p. */
  private double roundingVariance(Params p, int limbs, int rows, int gadgetBits) {
    if (bits() >= p.base2k() * limbs) {
      return 0;
    }
    return rows * (double) p.n() * Noise.uniformDigitSquare(gadgetBits)
        * Noise.roundingToBits(p, bits());
  }

  /**
   * The form with the fewest columns for rows of p multiplied by gadget digits of {@code
   * gadgetBits} bits over {@code rows} rows: the fewest digits, each at most as wide as exact
   * products allow ({@link #maxDigitBits}) and as the rows' bits need, whose {@link
   * #roundingVariance} is at most {@code maxRounding} (0: exact); the rows' own
   * form where that is not fewer columns, or where the rows span more than the 64 bits {@link
   * org.jpir.vmp.Znx#rebase} handles.
   */
  public static DigitForm widest(Params p, int rows, int gadgetBits, double maxRounding) {
    return widest(p, p.glweLimbs(), rows, gadgetBits, maxRounding);
  }

  /** {@link #widest(Params, int, int, double)} for rows of {@code limbs} limbs of p. */
  private static DigitForm widest(Params p, int limbs, int rows, int gadgetBits,
      double maxRounding) {
    DigitForm own = new DigitForm(p.base2k(), limbs);
    int span = p.base2k() * limbs;
    int w = Math.min(62, maxDigitBits(p, rows, gadgetBits));
    if (span > 64 || w <= p.base2k()) {
      return own;
    }
    for (int d = 1; d < limbs; d++) {
      // as wide as exact products allow, no wider than the rows' bits need, within 64 bits
      int bits = Math.min(w, Math.min((span + d - 1) / d, 64 / d));
      DigitForm f = new DigitForm(bits, d);
      if (f.roundingVariance(p, limbs, rows, gadgetBits) <= maxRounding) {
        return f;
      }
    }
    return own;
  }

  /**
   * The form GGSWs of p are prepared in ({@link org.jpir.core.lwe.GlweOps#prepare}): the fewest
   * exact digits over its {@code 2 ggswLevels} rows of {@code ggswBits}-bit gadget digits that
   * keep every bit ({@link #widest} with no rounding), or one digit of all the rows' bits where
   * that is fewer columns and its product sums fit {@link FftPlan#ROUNDED_PRODUCT_BITS}: the FFT
   * rounds them within {@link #productError}, which the noise estimates add ({@link
   * Noise#ggswProductError}).
   */
  public static DigitForm ggswOf(Params p) {
    return ggswOf(p, p.glweLimbs());
  }

  /**
   * {@link #ggswOf(Params)} for GGSW rows of {@code limbs} limbs of p (the CMux tree's {@link
   * Params#foldLimbs}: {@code ggswOf(p, p.foldLimbs())} is {@code ggswOf(p.foldParams())}).
   */
  public static DigitForm ggswOf(Params p, int limbs) {
    int rows = 2 * p.ggswLevels();
    DigitForm exact = widest(p, limbs, rows, p.ggswBits(), 0);
    int span = p.base2k() * limbs;
    if (exact.digits() > 1 && span <= 62) {
      DigitForm one = new DigitForm(span, 1);
      if (one.productBits(p, rows, p.ggswBits()) <= FftPlan.ROUNDED_PRODUCT_BITS) {
        return one;
      }
    }
    return exact;
  }

  /**
   * Bits of a product sum of these digits with gadget digits of {@code gadgetBits} bits over
   * {@code rows} rows: {@code (gadgetBits-1) + (digitBits-1) + log2 N + ceil(log2 rows)}.
   */
  public int productBits(Params p, int rows, int gadgetBits) {
    return digitBits - 1 + sumBits(p, rows, gadgetBits);
  }

  /**
   * The bound on the FFT's error in an output coefficient on the torus of a product with these
   * digits: 0 where the sums are exact ({@link FftPlan#EXACT_PRODUCT_BITS}), else the top
   * digit's {@link FftPlan#roundedProductError} times its weight {@code 2^-digitBits}.
   */
  public double productError(Params p, int rows, int gadgetBits) {
    int t = productBits(p, rows, gadgetBits);
    return t <= FftPlan.EXACT_PRODUCT_BITS ? 0
        : FftPlan.roundedProductError(t) * Math.scalb(1.0, -digitBits);
  }

  @Override
  public String toString() {
    return digits + " x " + digitBits + " bits";
  }
}
