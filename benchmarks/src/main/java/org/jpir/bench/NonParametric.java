package org.jpir.bench;

import java.util.Arrays;

/**
 * Rank statistics for comparing two samples of timings without assuming a distribution: the
 * Mann-Whitney U test (average ranks for ties, normal approximation with tie and continuity
 * correction) and Cliff's delta. Both run in O(n log n) on the pooled, sorted sample, so they
 * take millions of observations.
 *
 * <p>Conventions: {@code U} counts, over all pairs (x_i, y_j), the pairs with {@code x_i > y_j}
 * plus one half of the ties; Cliff's delta is {@code P(x > y) - P(x < y) = 2U/(n1 n2) - 1}.
 * With x the timings of the slower variant and y those of the faster one, delta = +1 means every
 * x observation took longer than every y observation.
 */
public final class NonParametric {
  private NonParametric() {}

  /**
   * The result of a Mann-Whitney U test.
   *
   * @param u U of the first sample (pairs x > y plus half the ties)
   * @param z the standardized statistic, continuity-corrected, signed like {@code U - n1 n2 / 2}
   * @param p two-sided p-value of the normal approximation (underflows to 0 beyond |z| ~ 38)
   * @param tieTerm {@code sum(t^3 - t)} over groups of t tied values (0 without ties)
   */
  public record MannWhitney(double u, double z, double p, int n1, int n2, double tieTerm) {}

  /** The Mann-Whitney U test of x against y. */
  public static MannWhitney mannWhitney(double[] x, double[] y) {
    int n1 = x.length;
    int n2 = y.length;
    if (n1 == 0 || n2 == 0) {
      throw new IllegalArgumentException("Mann-Whitney needs two non-empty samples, got " + n1
          + " and " + n2);
    }
    int n = n1 + n2;
    // pooled values, with the sample of each encoded by sorting indices
    double[] v = new double[n];
    Integer[] idx = new Integer[n];
    for (int i = 0; i < n; i++) {
      idx[i] = i;
    }
    for (int i = 0; i < n1; i++) {
      v[i] = check(x[i]);
    }
    for (int j = 0; j < n2; j++) {
      v[n1 + j] = check(y[j]);
    }
    Arrays.sort(idx, (a, b) -> Double.compare(v[a], v[b]));
    double rankSumX = 0;
    double tieTerm = 0;
    int i = 0;
    while (i < n) {
      int j = i;
      while (j + 1 < n && v[idx[j + 1]] == v[idx[i]]) {
        j++;
      }
      double avgRank = (i + j) / 2.0 + 1; // ranks are 1-based
      long t = j - i + 1;
      if (t > 1) {
        tieTerm += (double) t * t * t - t;
      }
      for (int k = i; k <= j; k++) {
        if (idx[k] < n1) {
          rankSumX += avgRank;
        }
      }
      i = j + 1;
    }
    double u = rankSumX - (double) n1 * (n1 + 1) / 2;
    double mu = (double) n1 * n2 / 2;
    double var = (double) n1 * n2 / 12 * ((n + 1) - tieTerm / ((double) n * (n - 1)));
    double z;
    double p;
    if (var <= 0) { // every value tied
      z = 0;
      p = 1;
    } else {
      double d = Math.abs(u - mu) - 0.5;
      z = Math.signum(u - mu) * Math.max(d, 0) / Math.sqrt(var);
      p = Math.min(1, twoSidedNormalP(z));
    }
    return new MannWhitney(u, z, p, n1, n2, tieTerm);
  }

  /** Cliff's delta {@code P(x > y) - P(x < y)}, in [-1, 1]. */
  public static double cliffsDelta(double[] x, double[] y) {
    MannWhitney mw = mannWhitney(x, y);
    double pairs = (double) x.length * y.length;
    return 2 * mw.u() / pairs - 1;
  }

  /**
   * The conventional reading of |delta| (Romano et al. 2006): negligible below 0.147, small
   * below 0.33, medium below 0.474, else large.
   */
  public static String magnitude(double delta) {
    double a = Math.abs(delta);
    return a < 0.147 ? "negligible" : a < 0.33 ? "small" : a < 0.474 ? "medium" : "large";
  }

  /** {@code 2 * (1 - Phi(|z|))}, accurate in the far tail. */
  public static double twoSidedNormalP(double z) {
    return erfc(Math.abs(z) / Math.sqrt(2));
  }

  /**
   * The complementary error function, Chebyshev fit with fractional error below 1.2e-7
   * everywhere (Numerical Recipes, erfcc), so small tail probabilities keep their digits.
   */
  static double erfc(double x) {
    double z = Math.abs(x);
    double t = 1 / (1 + 0.5 * z);
    double ans = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196
        + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398
        + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    return x >= 0 ? ans : 2 - ans;
  }

  private static double check(double v) {
    if (Double.isNaN(v)) {
      throw new IllegalArgumentException("NaN observation");
    }
    return v;
  }
}
