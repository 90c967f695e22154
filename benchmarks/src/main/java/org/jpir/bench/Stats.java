package org.jpir.bench;

import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

/**
 * Quantiles (commons-math3's {@link Percentile}) and percentile-bootstrap confidence intervals
 * over benchmark samples. Every quantile here is of estimation type R-7 (Hyndman and Fan's type
 * 7, R's and NumPy's default): with the samples sorted as {@code x[0] <= .. <= x[n-1]} and
 * {@code h = (n - 1) q}, {@code quantile = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor
 * h])}.
 */
public final class Stats {
  /** The estimation type of every quantile of this class. */
  public static final Percentile.EstimationType ESTIMATION = Percentile.EstimationType.R_7;

  private Stats() {}

  /** The q-quantile (0..1) of the samples, estimation type R-7 ({@link #ESTIMATION}). */
  public static double quantile(double[] samples, double q) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    if (!(q >= 0 && q <= 1)) {
      throw new IllegalArgumentException("quantile q = " + q + " must be in [0, 1]");
    }
    return percentile(samples, q);
  }

  /** The median of the samples. */
  public static double median(double[] samples) {
    return quantile(samples, 0.5);
  }

  /** {@link #quantile} without the checks; commons-math3 takes q in (0, 1] only. */
  private static double percentile(double[] samples, double q) {
    return q == 0 ? StatUtils.min(samples)
        : new Percentile(100 * q).withEstimationType(ESTIMATION).evaluate(samples);
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
    double[] tmp = new double[samples.length];
    return bootstrap(level, resamples, () -> resampledMedian(samples, tmp, rnd));
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
    double[] a = new double[num.length];
    double[] b = new double[den.length];
    return bootstrap(level, resamples,
        () -> resampledMedian(num, a, rnd) / resampledMedian(den, b, rnd));
  }

  /** The central {@code level} interval of {@code resamples} draws of a statistic. */
  private static double[] bootstrap(double level, int resamples, DoubleSupplier statistic) {
    double[] draws = new double[resamples];
    for (int r = 0; r < resamples; r++) {
      draws[r] = statistic.getAsDouble();
    }
    double tail = (1 - level) / 2;
    return new double[] {percentile(draws, tail), percentile(draws, 1 - tail)};
  }

  /** The median of {@code tmp.length} draws with replacement from {@code samples}. */
  private static double resampledMedian(double[] samples, double[] tmp, SplittableRandom rnd) {
    for (int i = 0; i < tmp.length; i++) {
      tmp[i] = samples[rnd.nextInt(samples.length)];
    }
    return percentile(tmp, 0.5);
  }
}
