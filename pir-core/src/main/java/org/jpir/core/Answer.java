package org.jpir.core;

/**
 * The server's answer: for each plane, the final GLWE after the modulus switch ({@link
 * AnswerSwitch}): b values (coefficients 0 ..) of {@code bitsB} bits, then N values of a of
 * {@code bitsA} bits, each in {@code [0, 2^bits)} (the torus value times 2^bits). Every plane but
 * the last carries all N b coefficients; the last carries {@code bCoefficients} (those that hold
 * record bytes, {@link AnswerSwitch#bCoefficients}). Plane p starts at {@code p * 2N} of {@link
 * #values()}; {@code values.length = (planes - 1) 2N + bCoefficients + N}.
 */
public record Answer(String paramsId, int planes, int n, int bitsB, int bitsA, int bCoefficients,
    long[] values) {

  /** Checks the shape: the message names the field. */
  public Answer {
    if (planes < 1 || n < 1 || bCoefficients < 1 || bCoefficients > n || bitsB < 1
        || bitsB > 64 || bitsA < 1 || bitsA > 64
        || values.length != valueCount(planes, n, bCoefficients)) {
      throw new IllegalArgumentException("answer shape: " + planes + " planes, N = " + n + ", "
          + bCoefficients + " b coefficients in the last plane of " + bitsB + " bits, a of "
          + bitsA + " bits, " + values.length + " values");
    }
  }

  /** Values of an answer: {@code (planes - 1) 2N + bLast + N}. */
  public static long valueCount(int planes, int n, int bLast) {
    return (long) (planes - 1) * 2 * n + bLast + n;
  }

  /** Bytes of one plane on the wire: {@code ceil((bCoefficients bitsB + N bitsA) / 8)}. */
  public static long planeBytes(int n, int bitsB, int bitsA, int bCoefficients) {
    return ((long) bCoefficients * bitsB + (long) n * bitsA + 7) / 8;
  }

  /**
   * Payload bytes of an answer of {@code planes} planes whose last plane carries {@code bLast} b
   * coefficients: {@code (planes - 1) planeBytes(N) + planeBytes(bLast)}.
   */
  public static long payloadBytes(int planes, int n, int bitsB, int bitsA, int bLast) {
    return (planes - 1) * planeBytes(n, bitsB, bitsA, n) + planeBytes(n, bitsB, bitsA, bLast);
  }

  /** b coefficients of plane {@code plane}: N, except {@code bCoefficients} for the last. */
  public int bCoefficients(int plane) {
    return plane == planes - 1 ? bCoefficients : n;
  }

  /** Index of plane {@code plane}'s first value in {@link #values()}: {@code plane * 2N}. */
  public int planeOffset(int plane) {
    return plane * 2 * n;
  }

  /** The switched values ({@link #values()}; the name callers of earlier versions use). */
  public long[] data() {
    return values;
  }

  /** Bytes on the wire (payload only). */
  public long sizeBytes() {
    return payloadBytes(planes, n, bitsB, bitsA, bCoefficients);
  }

  /**
   * Plane {@code plane} as a GLWE of {@code ceil(max bits / K)} limbs of K-bit digits holding the
   * switched values exactly; b coefficients beyond {@link #bCoefficients(int)} are 0.
   */
  public Glwe toGlwe(int plane, int base2k) {
    int limbs = (Math.max(bitsB, bitsA) + base2k - 1) / base2k;
    Glwe c = new Glwe(n, limbs);
    long[] d = c.data();
    int off = planeOffset(plane);
    int nb = bCoefficients(plane);
    for (int j = 0; j < nb; j++) {
      AnswerSwitch.toDigits(values[off + j], bitsB, base2k, limbs, d, c.offset(0, 0) + j, n);
    }
    for (int j = 0; j < n; j++) {
      AnswerSwitch.toDigits(values[off + nb + j], bitsA, base2k, limbs, d,
          c.offset(1, 0) + j, n);
    }
    return c;
  }
}
