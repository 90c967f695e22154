package org.jpir.core;

/**
 * The server's answer: for each plane, the final GLWE after the modulus switch ({@link
 * AnswerSwitch}): {@code bCoefficients} values of b (coefficients 0 ..) of {@code bitsB} bits,
 * then N values of a of {@code bitsA} bits, each in {@code [0, 2^bits)} (the torus value times
 * 2^bits). Plane p starts at {@code p * (bCoefficients + N)} of {@link #values()}.
 */
public record Answer(String paramsId, int planes, int n, int bitsB, int bitsA, int bCoefficients,
    long[] values) {

  /** Checks the shape: the message names the field. */
  public Answer {
    if (planes < 1 || n < 1 || bCoefficients < 1 || bCoefficients > n || bitsB < 1
        || bitsB > 64 || bitsA < 1 || bitsA > 64
        || values.length != (long) planes * (bCoefficients + n)) {
      throw new IllegalArgumentException("answer shape: " + planes + " planes, N = " + n + ", "
          + bCoefficients + " b coefficients of " + bitsB + " bits, a of " + bitsA + " bits, "
          + values.length + " values");
    }
  }

  /** Bytes of one plane on the wire: {@code ceil((bCoefficients bitsB + N bitsA) / 8)}. */
  public static long planeBytes(int n, int bitsB, int bitsA, int bCoefficients) {
    return ((long) bCoefficients * bitsB + (long) n * bitsA + 7) / 8;
  }

  /** The switched values ({@link #values()}; the name callers of earlier versions use). */
  public long[] data() {
    return values;
  }

  /** Bytes on the wire (payload only). */
  public long sizeBytes() {
    return planes * planeBytes(n, bitsB, bitsA, bCoefficients);
  }

  /**
   * Plane {@code plane} as a GLWE of {@code ceil(max bits / K)} limbs of K-bit digits holding the
   * switched values exactly; b coefficients beyond {@code bCoefficients} are 0.
   */
  public Glwe toGlwe(int plane, int base2k) {
    int limbs = (Math.max(bitsB, bitsA) + base2k - 1) / base2k;
    Glwe c = new Glwe(n, limbs);
    long[] d = c.data();
    int off = plane * (bCoefficients + n);
    for (int j = 0; j < bCoefficients; j++) {
      AnswerSwitch.toDigits(values[off + j], bitsB, base2k, limbs, d, c.offset(0, 0) + j, n);
    }
    for (int j = 0; j < n; j++) {
      AnswerSwitch.toDigits(values[off + bCoefficients + j], bitsA, base2k, limbs, d,
          c.offset(1, 0) + j, n);
    }
    return c;
  }
}
