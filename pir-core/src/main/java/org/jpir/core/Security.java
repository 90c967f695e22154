package org.jpir.core;

/**
 * The security rule every production preset obeys: for LWE/GLWE with a ternary secret, 128-bit
 * security (HomomorphicEncryption.org standard, classical, ternary secrets) allows a modulus of
 * at most {@code 2^B(N)} bits at noise 3.2, so on the torus the noise standard deviation must be
 * at least {@code 3.2 * 2^-B(N)}. All ciphertexts of a preset (query rows, GGSWs, keys) use the
 * same noise and modulus, so one check covers them.
 */
public final class Security {
  private Security() {}

  /**
   * B(N): the largest log2 q with 128-bit security for ternary secrets at noise 3.2 (HE standard
   * table: 27, 54, 109, 218, 438, 881 for N = 1024 .. 32768); -1 below N = 1024 (no security).
   */
  public static int maxLogQ128(int n) {
    switch (n) {
      case 1024: return 27;
      case 2048: return 54;
      case 4096: return 109;
      case 8192: return 218;
      case 16384: return 438;
      case 32768: return 881;
      default: return -1;
    }
  }

  /** The least noise standard deviation on the torus for 128-bit security at N; +inf if none. */
  public static double minNoiseStdTorus(int n) {
    int b = maxLogQ128(n);
    return b < 0 ? Double.POSITIVE_INFINITY : 3.2 * Math.pow(2, -b);
  }

  /** True when the preset's noise meets {@link #minNoiseStdTorus} at its N. */
  public static boolean meets128(Params p) {
    return p.noiseStdTorus() >= minNoiseStdTorus(p.n());
  }

  /**
   * Checks a preset's claim.
   *
   * @throws IllegalArgumentException when a preset claims 128 bits it does not have
   */
  public static void check(Params p) {
    if (p.securityBits() == 128 && !meets128(p)) {
      throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
          "preset %s claims 128-bit security but its noise %.3g on the torus is below %.3g,"
              + " the HE-standard minimum at N=%d (log2 q <= %d at sigma 3.2)",
          p.id(), p.noiseStdTorus(), minNoiseStdTorus(p.n()), p.n(), maxLogQ128(p.n())));
    }
  }
}
