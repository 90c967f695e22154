package org.jpir.core.lwe;

/** Copies between int64 digits and their 16-bit wire form, checking the range. */
public final class Digits {
  private Digits() {}

  /** {@code dst[dOff+i] = (short) src[sOff+i]}; each digit must fit 16 signed bits. */
  public static void toShorts(long[] src, int sOff, short[] dst, int dOff, int len) {
    for (int i = 0; i < len; i++) {
      long v = src[sOff + i];
      if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
        throw new IllegalStateException("digit " + v + " does not fit 16 bits (not normalized)");
      }
      dst[dOff + i] = (short) v;
    }
  }

  /** {@code dst[dOff+i] = src[sOff+i]} sign-extended. */
  public static void toLongs(short[] src, int sOff, long[] dst, int dOff, int len) {
    for (int i = 0; i < len; i++) {
      dst[dOff + i] = src[sOff + i];
    }
  }
}
