package org.jpir.vmp;

/** Argument checks shared by the kernel entry points; each names what is wrong. */
final class Checks {
  private Checks() {}

  /** Requires {@code [off, off+len)} to lie inside {@code a}. */
  static void range(String what, double[] a, long off, long len) {
    if (a == null) {
      throw new IllegalArgumentException(what + " is null");
    }
    if (off < 0 || len < 0 || off + len > a.length) {
      throw new IllegalArgumentException(what + ": needs " + len + " doubles at offset " + off
          + " but has length " + a.length);
    }
  }

  /**
   * {@link #range(String, double[], long, long)} naming the array {@code op + " " + part}; the
   * name is concatenated only when the check fails (built eagerly, it allocated per call wherever
   * C2 did not remove the concatenation).
   */
  static void range(String op, String part, double[] a, long off, long len) {
    if (a == null || off < 0 || len < 0 || off + len > a.length) {
      range(op + " " + part, a, off, len);
    }
  }

  /**
   * {@link #range(String, long[], long, long)} naming the array {@code op + " " + part}, built only
   * when the check fails.
   */
  static void range(String op, String part, long[] a, long off, long len) {
    if (a == null || off < 0 || len < 0 || off + len > a.length) {
      range(op + " " + part, a, off, len);
    }
  }

  /** Requires {@code [off, off+len)} to lie inside {@code a}. */
  static void range(String what, long[] a, long off, long len) {
    if (a == null) {
      throw new IllegalArgumentException(what + " is null");
    }
    if (off < 0 || len < 0 || off + len > a.length) {
      throw new IllegalArgumentException(what + ": needs " + len + " longs at offset " + off
          + " but has length " + a.length);
    }
  }

  /** Requires n to be a supported ring degree. */
  static void ringDegree(int n) {
    FftPlan.of(n);
  }

  /** Requires {@code v >= min}. */
  static void atLeast(String what, long v, long min) {
    if (v < min) {
      throw new IllegalArgumentException(what + " = " + v + " must be at least " + min);
    }
  }
}
