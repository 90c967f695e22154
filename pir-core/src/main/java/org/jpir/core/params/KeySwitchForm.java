package org.jpir.core.params;

import org.jpir.vmp.FftPlan;

/**
 * How the server prepares a client's key-switching keys: each part (b, a) of a key row as
 * {@code digits} signed digits of {@code digitBits} bits, so that a key PMAT has {@code 2 digits}
 * columns and a key switch runs {@code ksLevels x 2 digits} products and {@code 2 digits} inverse
 * transforms. The keys' own form is their {@code glweLimbs} limbs of K bits; a wider form ({@link
 * #derive}) uses digits as wide as keep every product exact in the FFT ({@link #maxDigitBits}),
 * and rounds the key rows to {@code digitBits * digits} bits when that rounding adds at most
 * {@link #MAX_SHARE} of a switch's variance ({@link #roundingVariance}, which {@link
 * Noise#keySwitch} adds). The client and the wire never see it.
 *
 * @param digitBits bits per digit, K for the keys' own limbs
 * @param digits digits per GLWE part
 */
public record KeySwitchForm(int digitBits, int digits) {
  /** The most a wider form's rounding may add to a key switch's variance, as a share. */
  public static final double MAX_SHARE = 1.0 / 64;

  /** Validates the ranges; the message names them. */
  public KeySwitchForm {
    if (digitBits < 1 || digitBits > 62 || digits < 1 || digits > 64) {
      throw new IllegalArgumentException("key-switching keys in " + digits + " digits of "
          + digitBits + " bits: need 1 <= bits <= 62 and 1 <= digits <= 64");
    }
  }

  /** The keys' own form: their {@code glweLimbs} limbs of K bits. */
  public static KeySwitchForm limbsOf(Params keys) {
    return new KeySwitchForm(keys.base2k(), keys.glweLimbs());
  }

  /** Whether this is the keys' own form (no re-digiting, no rounding). */
  public boolean isLimbsOf(Params keys) {
    return digitBits == keys.base2k() && digits == keys.glweLimbs();
  }

  /** Bits a prepared key row keeps: {@code digitBits * digits}. */
  public int bits() {
    return digitBits * digits;
  }

  /** Columns of a prepared key PMAT: {@code 2 digits}. */
  public int columns() {
    return 2 * digits;
  }

  /**
   * The widest key digits whose products with the gadget digits stay exact in the FFT ({@link
   * FftPlan#EXACT_PRODUCT_BITS}): a gadget digit of at most {@code 2^(ksBits-1)} times a key
   * digit of at most {@code 2^(w-1)}, summed over N coefficients and ksLevels rows: {@code
   * (ksBits-1) + (w-1) + log2 N + ceil(log2 ksLevels) <= 47}.
   */
  public static int maxDigitBits(Params keys, int ksLevels, int ksBits) {
    int logN = Integer.numberOfTrailingZeros(keys.n());
    int logK = 32 - Integer.numberOfLeadingZeros(Math.max(1, ksLevels) - 1);
    return FftPlan.EXACT_PRODUCT_BITS - (ksBits - 1) - logN - logK + 1;
  }

  /**
   * The variance this form's rounding of the key rows adds to one key switch: the gadget digits
   * times the rounding of each row's b and a ({@code ksLevels N E[d^2]} {@link
   * Noise#roundingToBits}); 0 when the form keeps every bit of the keys.
   */
  public double roundingVariance(Params keys, int ksLevels, int ksBits) {
    if (isLimbsOf(keys) || bits() >= keys.logQ()) {
      return 0;
    }
    return ksLevels * (double) keys.n() * Noise.uniformDigitSquare(ksBits)
        * Noise.roundingToBits(keys, bits());
  }

  /**
   * The form with the fewest columns: the widest exact digits ({@link #maxDigitBits}), as few as
   * keep the rounding within {@link #MAX_SHARE} of {@code switchVariance} (the variance of a
   * switch with the keys' own form); the keys' own form where that is not fewer columns, or
   * where the keys span more than the 64 bits {@link org.jpir.vmp.Znx#rebase} handles.
   */
  public static KeySwitchForm derive(Params keys, int ksLevels, int ksBits,
      double switchVariance) {
    KeySwitchForm own = limbsOf(keys);
    int w = Math.min(62, maxDigitBits(keys, ksLevels, ksBits));
    if (keys.logQ() > 64 || w <= keys.base2k()) {
      return own;
    }
    for (int d = 1; d < keys.glweLimbs() && (long) d * w <= 64; d++) {
      KeySwitchForm f = new KeySwitchForm(w, d);
      if (f.roundingVariance(keys, ksLevels, ksBits) <= MAX_SHARE * switchVariance) {
        return f;
      }
    }
    return own;
  }

  @Override
  public String toString() {
    return digits + " x " + digitBits + " bits";
  }
}
