package org.jpir.bench;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

/**
 * Order statistics (commons-math3's {@link Percentile}, estimation type R-7: linear interpolation
 * between order statistics) and percentile-bootstrap confidence intervals over benchmark samples.
 */
public final class Stats {
  private Stats() {}

  /** The q-quantile (0..1) of the samples, linear interpolation between order statistics. */
  public static double quantile(double[] samples, double q) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    if (!(q >= 0 && q <= 1)) {
      throw new IllegalArgumentException("quantile q = " + q + " must be in [0, 1]");
    }
    double[] s = samples.clone();
    Arrays.sort(s);
    return sortedQuantile(s, q);
  }

  /** The median of the samples. */
  public static double median(double[] samples) {
    return quantile(samples, 0.5);
  }

  /** {@link #quantile} of samples already sorted ascending. */
  private static double sortedQuantile(double[] s, double q) {
    return q == 0 ? s[0]
        : new Percentile(100 * q).withEstimationType(Percentile.EstimationType.R_7).evaluate(s);
  }

  /**
   * Percentile-bootstrap confidence interval {@code [lo, hi]} of the median, from {@code
   * resamples} resamples with a fixed seed (so a report regenerates identically).
   */
  public static double[] bootstrapMedianCi(double[] samples, double level, int resamples,
      long seed) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    double[] meds = new double[resamples];
    double[] tmp = new double[samples.length];
    for (int b = 0; b < resamples; b++) {
      for (int i = 0; i < tmp.length; i++) {
        tmp[i] = samples[rnd.nextInt(samples.length)];
      }
      Arrays.sort(tmp);
      meds[b] = sortedQuantile(tmp, 0.5);
    }
    Arrays.sort(meds);
    double a = (1 - level) / 2;
    return new double[] {sortedQuantile(meds, a), sortedQuantile(meds, 1 - a)};
  }

  /**
   * Percentile-bootstrap confidence interval of the ratio of medians {@code median(num) /
   * median(den)}, resampling both groups independently.
   */
  public static double[] bootstrapRatioCi(double[] num, double[] den, double level,
      int resamples, long seed) {
    if (num.length == 0 || den.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    double[] ratios = new double[resamples];
    double[] a = new double[num.length];
    double[] b = new double[den.length];
    for (int r = 0; r < resamples; r++) {
      for (int i = 0; i < a.length; i++) {
        a[i] = num[rnd.nextInt(num.length)];
      }
      for (int i = 0; i < b.length; i++) {
        b[i] = den[rnd.nextInt(den.length)];
      }
      Arrays.sort(a);
      Arrays.sort(b);
      ratios[r] = sortedQuantile(a, 0.5) / sortedQuantile(b, 0.5);
    }
    Arrays.sort(ratios);
    double al = (1 - level) / 2;
    return new double[] {sortedQuantile(ratios, al), sortedQuantile(ratios, 1 - al)};
  }
}
