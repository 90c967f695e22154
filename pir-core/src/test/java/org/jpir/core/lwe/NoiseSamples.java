package org.jpir.core.lwe;

/** Statistics shared by the noise tests of every package: measured variance and its tolerance. */
public final class NoiseSamples {
  private NoiseSamples() {}

  /** Sample variance of noise over many coefficients (the mean square: the noise is centered). */
  public static double variance(double[] e) {
    double s = 0;
    for (double v : e) {
      s += v * v;
    }
    return s / e.length;
  }

  /** Allowed excess of a measured variance over its estimate: 5 standard errors. */
  public static double tolerance(int samples) {
    return 1 + 5 * Math.sqrt(2.0 / samples);
  }
}
