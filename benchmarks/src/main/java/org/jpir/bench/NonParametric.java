package org.jpir.bench;

import org.apache.commons.math3.exception.NotANumberException;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.apache.commons.math3.stat.ranking.NaNStrategy;
import org.apache.commons.math3.stat.ranking.NaturalRanking;
import org.apache.commons.math3.stat.ranking.TiesStrategy;

/**
 * Rank statistics for comparing two samples of timings without assuming a distribution: the
 * Mann-Whitney U test (commons-math3's {@link MannWhitneyUTest}: two-sided p of the normal
 * approximation, without tie or continuity correction) and Cliff's delta. Both run in O(n log n),
 * so they take millions of observations.
 *
 * <p>Conventions: {@code U} counts, over all pairs (x_i, y_j), the pairs with {@code x_i > y_j}
 * plus one half of the ties; Cliff's delta is {@code P(x > y) - P(x < y) = 2U/(n1 n2) - 1}.
 * With x the timings of the slower variant and y those of the faster one, delta = +1 means every
 * x observation took longer than every y observation.
 */
public final class NonParametric {
  private static final NaturalRanking RANKING =
      new NaturalRanking(NaNStrategy.FAILED, TiesStrategy.AVERAGE);
  private static final MannWhitneyUTest TEST = new MannWhitneyUTest();

  private NonParametric() {}

  /**
   * The result of a Mann-Whitney U test.
   *
   * @param u U of the first sample (pairs x > y plus half the ties)
   * @param p two-sided p-value of the normal approximation (underflows to 0 beyond |z| ~ 38)
   */
  public record MannWhitney(double u, double p, int n1, int n2) {
    /** Cliff's delta {@code 2U/(n1 n2) - 1}, in [-1, 1]. */
    public double delta() {
      return 2 * u / ((double) n1 * n2) - 1;
    }
  }

  /**
   * The Mann-Whitney U test of x against y.
   *
   * @throws IllegalArgumentException on an empty sample or a NaN observation
   */
  public static MannWhitney mannWhitney(double[] x, double[] y) {
    int n1 = x.length;
    int n2 = y.length;
    if (n1 == 0 || n2 == 0) {
      throw new IllegalArgumentException("Mann-Whitney needs two non-empty samples, got " + n1
          + " and " + n2);
    }
    double[] pooled = new double[n1 + n2];
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
    double u = rankSumX - (double) n1 * (n1 + 1) / 2;
    return new MannWhitney(u, TEST.mannWhitneyUTest(x, y), n1, n2);
  }

  /** Cliff's delta {@code P(x > y) - P(x < y)}, in [-1, 1]. */
  public static double cliffsDelta(double[] x, double[] y) {
    return mannWhitney(x, y).delta();
  }

  /**
   * The conventional reading of |delta| (Romano et al. 2006): negligible below 0.147, small
   * below 0.33, medium below 0.474, else large.
   */
  public static String magnitude(double delta) {
    double a = Math.abs(delta);
    return a < 0.147 ? "negligible" : a < 0.33 ? "small" : a < 0.474 ? "medium" : "large";
  }
}
