package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StatsTest {
  @Test
  void medianAndQuantilesOfSmallSamples() {
    assertEquals(3.0, Stats.median(new double[] {5, 1, 3}));
    assertEquals(2.5, Stats.median(new double[] {4, 1, 3, 2}));
    assertEquals(1.0, Stats.quantile(new double[] {4, 1, 3, 2}, 0));
    assertEquals(4.0, Stats.quantile(new double[] {4, 1, 3, 2}, 1));
    assertEquals(1.75, Stats.quantile(new double[] {4, 1, 3, 2}, 0.25));
    assertThrows(IllegalArgumentException.class, () -> Stats.median(new double[0]));
  }

  @Test
  void quantilesAreOfTypeSevenAsInRAndNumPy() {
    // R: quantile(1:10, c(0.1, 0.33, 0.9), type = 7) = 1.90, 3.97, 9.10 (NumPy's default too)
    double[] x = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    assertEquals(1.9, Stats.quantile(x, 0.1), 1e-12);
    assertEquals(3.97, Stats.quantile(x, 0.33), 1e-12);
    assertEquals(9.1, Stats.quantile(x, 0.9), 1e-12);
    assertEquals(1.0, Stats.quantile(x, 0));
    assertThrows(IllegalArgumentException.class, () -> Stats.quantile(x, 1.5));
  }

  @Test
  void bootstrapCiCoversTheMedianAndShrinksWithMoreSamples() {
    SplittableRandom rnd = new SplittableRandom(3);
    double[] small = new double[20];
    double[] large = new double[2000];
    for (int i = 0; i < small.length; i++) {
      small[i] = 10 + rnd.nextGaussian();
    }
    for (int i = 0; i < large.length; i++) {
      large[i] = 10 + rnd.nextGaussian();
    }
    double[] ciS = Stats.bootstrapMedianCi(small, 0.95, 2000, 1);
    double[] ciL = Stats.bootstrapMedianCi(large, 0.95, 2000, 1);
    assertTrue(ciS[0] <= Stats.median(small) && Stats.median(small) <= ciS[1]);
    assertTrue(ciL[0] < 10 && 10 < ciL[1], "true median 10 inside " + ciL[0] + ".." + ciL[1]);
    assertTrue(ciL[1] - ciL[0] < (ciS[1] - ciS[0]) / 3, "CI narrows with n");
  }

  @Test
  void ratioCiOfScaledSamplesContainsTheScale() {
    SplittableRandom rnd = new SplittableRandom(4);
    double[] a = new double[500];
    double[] b = new double[500];
    for (int i = 0; i < a.length; i++) {
      b[i] = 1 + 0.1 * rnd.nextDouble();
      a[i] = 3 * (1 + 0.1 * rnd.nextDouble());
    }
    double[] ci = Stats.bootstrapRatioCi(a, b, 0.95, 1000, 2);
    assertTrue(ci[0] < 3 && 3 < ci[1], ci[0] + ".." + ci[1]);
    assertTrue(ci[1] - ci[0] < 0.1);
  }
}
