package org.jpir.bench;

import java.util.HashMap;
import java.util.Map;
import org.apache.commons.math3.exception.NotANumberException;
import org.apache.commons.math3.special.Erf;
import org.apache.commons.math3.stat.ranking.NaNStrategy;
import org.apache.commons.math3.stat.ranking.NaturalRanking;
import org.apache.commons.math3.stat.ranking.TiesStrategy;

/**
 * Rank statistics for comparing two samples of timings without assuming a distribution: the
 * Mann-Whitney U test (average ranks for ties from commons-math3's {@link NaturalRanking}, normal
 * approximation with tie and continuity correction; commons-math3's own {@code
 * MannWhitneyUTest} has neither correction and reports max(U1, U2) only) and Cliff's delta. Both
 * run in O(n log n), so they take millions of observations.
 *
 * <p>Conventions: {@code U} counts, over all pairs (x_i, y_j), the pairs with {@code x_i > y_j}
 * plus one half of the ties; Cliff's delta is {@code P(x > y) - P(x < y) = 2U/(n1 n2) - 1}.
 * With x the timings of the slower variant and y those of the faster one, delta = +1 means every
 * x observation took longer than every y observation.
 */
public final class NonParametric {
  private static final NaturalRanking RANKING =
      new NaturalRanking(NaNStrategy.FAILED, TiesStrategy.AVERAGE);

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
    double[] pooled = new double[n];
    System.arraycopy(x, 0, pooled, 0, n1);
    System.arraycopy(y, 0, pooled, n1, n2);
    double[] ranks;
    try {
      ranks = RANKING.rank(pooled);
    } catch (NotANumberException e) {
      throw new IllegalArgumentException("NaN observation", e);
    }
    double rankSumX = 0;
    for (int i = 0; i < n1; i++) {
      rankSumX += ranks[i];
    }
    // a group of t tied values shares one average rank
    Map<Double, Integer> groups = new HashMap<>();
    for (double r : ranks) {
      groups.merge(r, 1, Integer::sum);
    }
    double tieTerm = 0;
    for (int t : groups.values()) {
      tieTerm += (double) t * t * t - t;
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

  /** {@code 2 * (1 - Phi(|z|))}, accurate in the far tail (commons-math3's {@link Erf#erfc}). */
  public static double twoSidedNormalP(double z) {
    return Erf.erfc(Math.abs(z) / Math.sqrt(2));
  }
}
