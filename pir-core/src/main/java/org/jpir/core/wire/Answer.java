package org.jpir.core.wire;

import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.params.AnswerSwitch;

/**
 * The server's answer after the modulus switch ({@link AnswerSwitch}): values in {@code [0,
 * 2^bits)} (the torus value times 2^bits), b values of {@code bitsB} bits and a values of {@code
 * bitsA} bits. Every plane but the last carries all N b coefficients; the last carries {@code
 * bCoefficients} (those that hold record bytes, {@link AnswerSwitch#bCoefficients}).
 *
 * <p>Per-plane form ({@code sharedA} false): for each plane its GLWE (b, a) under s; plane p's b
 * at {@code p 2N} of {@link #values()}, its a right after its b. Shared-mask form ({@code sharedA}
 * true, {@link PlanePacking}): plane p's b at {@code p N}, then one a for all planes at {@code
 * (planes - 1) N + bCoefficients}; plane p decrypts under the client's answer secret s_p.
 */
public record Answer(String paramsId, int planes, int n, int bitsB, int bitsA, int bCoefficients,
    long[] values, boolean sharedA) {

  /** Checks the shape: the message names the field. */
  public Answer {
    if (planes < 1 || n < 1 || bCoefficients < 1 || bCoefficients > n || bitsB < 1
        || bitsB > 64 || bitsA < 1 || bitsA > 64 || (sharedA && planes < 2)
        || values.length != valueCount(planes, n, bCoefficients, sharedA)) {
      throw new IllegalArgumentException("answer shape: " + planes + " planes" + (sharedA
          ? " sharing one a" : "") + ", N = " + n + ", " + bCoefficients
          + " b coefficients in the last plane of " + bitsB + " bits, a of " + bitsA + " bits, "
          + values.length + " values");
    }
  }

  /** A per-plane answer ({@code sharedA} false). */
  public Answer(String paramsId, int planes, int n, int bitsB, int bitsA, int bCoefficients,
      long[] values) {
    this(paramsId, planes, n, bitsB, bitsA, bCoefficients, values, false);
  }

  /** Values of a per-plane answer: {@code (planes - 1) 2N + bLast + N}. */
  public static long valueCount(int planes, int n, int bLast) {
    return valueCount(planes, n, bLast, false);
  }

  /**
   * Values of an answer: per plane {@code (planes - 1) 2N + bLast + N}; with a shared a {@code
   * (planes - 1) N + bLast + N}.
   */
  public static long valueCount(int planes, int n, int bLast, boolean sharedA) {
    return (long) (planes - 1) * (sharedA ? 1 : 2) * n + bLast + n;
  }

  /** Bytes of one plane on the wire: {@code ceil((bCoefficients bitsB + N bitsA) / 8)}. */
  public static long planeBytes(int n, int bitsB, int bitsA, int bCoefficients) {
    return ((long) bCoefficients * bitsB + (long) n * bitsA + 7) / 8;
  }

  /**
   * Payload bytes of a per-plane answer of {@code planes} planes whose last plane carries {@code
   * bLast} b coefficients: {@code (planes - 1) planeBytes(N) + planeBytes(bLast)}.
   */
  public static long payloadBytes(int planes, int n, int bitsB, int bitsA, int bLast) {
    return (planes - 1) * planeBytes(n, bitsB, bitsA, n) + planeBytes(n, bitsB, bitsA, bLast);
  }

  /**
   * Payload bytes of a shared-mask answer: one bit stream of {@code ((planes - 1) N + bLast)
   * bitsB + N bitsA} bits, padded to a byte.
   */
  public static long sharedPayloadBytes(int planes, int n, int bitsB, int bitsA, int bLast) {
    return (((long) (planes - 1) * n + bLast) * bitsB + (long) n * bitsA + 7) / 8;
  }

  /** b coefficients of plane {@code plane}: N, except {@code bCoefficients} for the last. */
  public int bCoefficients(int plane) {
    return plane == planes - 1 ? bCoefficients : n;
  }

  /** Index of plane {@code plane}'s first b value in {@link #values()}. */
  public int bOffset(int plane) {
    return plane * (sharedA ? 1 : 2) * n;
  }

  /** Index of the first a value that plane {@code plane} decrypts with. */
  public int aOffset(int plane) {
    return sharedA ? (planes - 1) * n + bCoefficients : bOffset(plane) + bCoefficients(plane);
  }

  /** The switched values ({@link #values()}; the name callers of earlier versions use). */
  public long[] data() {
    return values;
  }

  /** Bytes on the wire (payload only). */
  public long sizeBytes() {
    return sharedA ? sharedPayloadBytes(planes, n, bitsB, bitsA, bCoefficients)
        : payloadBytes(planes, n, bitsB, bitsA, bCoefficients);
  }

  /**
   * Plane {@code plane} as a GLWE (its b, and its own or the shared a) of {@code ceil(max bits /
   * K)} limbs of K-bit digits holding the switched values exactly; b coefficients beyond {@link
   * #bCoefficients(int)} are 0.
   */
  public Glwe toGlwe(int plane, int base2k) {
    int limbs = (Math.max(bitsB, bitsA) + base2k - 1) / base2k;
    Glwe c = new Glwe(n, limbs);
    long[] d = c.data();
    int bo = bOffset(plane);
    int ao = aOffset(plane);
    int nb = bCoefficients(plane);
    for (int j = 0; j < nb; j++) {
      AnswerSwitch.toDigits(values[bo + j], bitsB, base2k, limbs, d, c.offset(0, 0) + j, n);
    }
    for (int j = 0; j < n; j++) {
      AnswerSwitch.toDigits(values[ao + j], bitsA, base2k, limbs, d, c.offset(1, 0) + j, n);
    }
    return c;
  }
}
