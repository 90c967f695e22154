package org.jpir.core.lwe;

import org.jpir.core.params.Params;

/**
 * Database bytes <-> plaintext polynomials. Coefficient j of a polynomial holds bytes {@code
 * [j*B, (j+1)*B)} ({@code B = plaintextBits/8}, big-endian) as the integer v; the plaintext is
 * the torus value {@code v * 2^-plaintextBits}, written as {@code plaintextLimbs} signed digits
 * of K bits: limb l at {@code digits[l*N + j]}, limb 0 most significant. The {@code
 * K*plaintextLimbs - plaintextBits} low bits are zero: they are the guard against noise. With
 * the scaled encoding ({@link Params#scaledPlaintext}) the one digit is v itself, centred in
 * {@code [-2^(plaintextBits-1), 2^(plaintextBits-1))}, and the query row carries {@code
 * 2^-plaintextBits}: the phase is the same, the decoding unchanged.
 */
public final class PlaintextCodec {
  private final int n;
  private final int k;
  private final int limbs;
  private final int bytesPer;
  private final int shift;
  private final boolean scaled;
  private final int plaintextBits;

  /** The codec of a parameter set (needs {@code K * plaintextLimbs <= 64}). */
  public PlaintextCodec(Params p) {
    if (p.base2k() * p.plaintextLimbs() > 64) {
      throw new IllegalArgumentException("plaintext of " + p.plaintextLimbs() + " limbs of "
          + p.base2k() + " bits does not fit 64 bits");
    }
    this.n = p.n();
    this.k = p.base2k();
    this.limbs = p.plaintextLimbs();
    this.bytesPer = p.bytesPerCoefficient();
    this.shift = k * limbs - p.plaintextBits();
    this.scaled = p.scaledPlaintext();
    this.plaintextBits = p.plaintextBits();
  }

  /** Bytes per polynomial. */
  public int polynomialBytes() {
    return n * bytesPer;
  }

  /**
   * Encodes {@code len <= polynomialBytes()} bytes from {@code src[off..]} (the rest is zero)
   * into {@code digits[dOff + l*N + j]}.
   */
  public void encode(byte[] src, int off, int len, long[] digits, int dOff) {
    if (len < 0 || len > polynomialBytes()) {
      throw new IllegalArgumentException("a polynomial holds at most " + polynomialBytes()
          + " bytes, got " + len);
    }
    int kshift = 64 - k;
    for (int j = 0; j < n; j++) {
      long v = 0;
      int base = j * bytesPer;
      for (int b = 0; b < bytesPer; b++) {
        int idx = base + b;
        v = (v << 8) | (idx < len ? (src[off + idx] & 0xFF) : 0);
      }
      if (scaled) {
        digits[dOff + j] = (v << (64 - plaintextBits)) >> (64 - plaintextBits);
        continue;
      }
      long x = v << shift;
      // signed base-2^K digits of the (K*limbs)-bit torus value, least significant first
      for (int l = limbs - 1; l >= 0; l--) {
        long d = (x << kshift) >> kshift;
        digits[dOff + l * n + j] = d;
        x = (x - d) >> k;
      }
    }
  }

  /**
   * Decodes a normalized phase of at least plaintextLimbs limbs (limb l at {@code phase[l*N]})
   * into {@code polynomialBytes()} bytes at {@code dst[off..]}, rounding away the guard bits:
   * exact while every coefficient's noise is below {@code 2^-(plaintextBits+1)}.
   */
  public void decode(long[] phaseRounded, byte[] dst, int off) {
    long mask = bytesPer == 8 ? -1L : (1L << (8 * bytesPer)) - 1;
    for (int j = 0; j < n; j++) {
      long u = 0;
      for (int l = 0; l < limbs; l++) {
        u = (u << k) + phaseRounded[l * n + j];
      }
      long v = shift == 0 ? u : ((u >> (shift - 1)) + 1) >> 1;
      v &= mask;
      int base = off + j * bytesPer;
      for (int b = bytesPer - 1; b >= 0; b--) {
        dst[base + b] = (byte) v;
        v >>>= 8;
      }
    }
  }
}
