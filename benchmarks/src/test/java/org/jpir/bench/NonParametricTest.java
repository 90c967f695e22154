package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Mann-Whitney U and Cliff's delta against values worked out by hand. */
class NonParametricTest {
  @Test
  void textbookExampleWithoutTies() {
    // scipy.stats.mannwhitneyu documentation example (method="asymptotic"): U1 = 17,
    // p = 0.11134688653314041. By hand: mu = 10, var = 5*4*10/12, z = (7 - 0.5)/sqrt(var).
    double[] males = {19, 22, 16, 29, 24};
    double[] females = {20, 11, 17, 12};
    NonParametric.MannWhitney mw = NonParametric.mannWhitney(males, females);
    assertEquals(17.0, mw.u());
    assertEquals(0.0, mw.tieTerm());
    assertEquals(1.5921683328090657, mw.z(), 1e-12);
    assertEquals(0.11134688653314041, mw.p(), 1e-7);
    // 17 of the 20 pairs have male > female, 3 the other way: delta = 14/20
    assertEquals(0.7, NonParametric.cliffsDelta(males, females), 1e-15);
  }

  @Test
  void smallSampleWithTiesWorkedByHand() {
    // pooled sorted: 1x 2x 2x 2y 3x 3y 4y; average ranks 1, 3, 3, 3, 5.5, 5.5, 7
    // R_x = 1 + 3 + 3 + 5.5 = 12.5, U_x = 12.5 - 4*5/2 = 2.5
    // pairs: x > y once (3 > 2), ties 3 (2=2 twice, 3=3), x < y 8 times: delta = (1 - 8)/12
    // ties: a group of 3 and a group of 2, sum(t^3 - t) = 24 + 6 = 30
    // var = 4*3/12 * (8 - 30/(7*6)) = 7.285714..., z = -(3.5 - 0.5)/sqrt(var)
    double[] x = {1, 2, 2, 3};
    double[] y = {2, 3, 4};
    NonParametric.MannWhitney mw = NonParametric.mannWhitney(x, y);
    assertEquals(2.5, mw.u());
    assertEquals(30.0, mw.tieTerm());
    assertEquals(-1.1114378604524227, mw.z(), 1e-12);
    assertEquals(0.2663799233424826, mw.p(), 1e-7);
    assertEquals(-7.0 / 12, NonParametric.cliffsDelta(x, y), 1e-15);
    // swapping the samples mirrors U and delta and keeps p
    NonParametric.MannWhitney back = NonParametric.mannWhitney(y, x);
    assertEquals(12 - 2.5, back.u());
    assertEquals(mw.p(), back.p(), 1e-15);
    assertEquals(7.0 / 12, NonParametric.cliffsDelta(y, x), 1e-15);
  }

  @Test
  void separatedSamplesGiveDeltaOfOneAndIdenticalGiveZero() {
    double[] slow = {10, 11, 12};
    double[] fast = {1, 2, 3};
    assertEquals(1.0, NonParametric.cliffsDelta(slow, fast));
    assertEquals(-1.0, NonParametric.cliffsDelta(fast, slow));
    NonParametric.MannWhitney mw = NonParametric.mannWhitney(fast, slow);
    assertEquals(0.0, mw.u());
    assertEquals(0.0808555983700523, mw.p(), 1e-7); // z = -(4.5 - 0.5)/sqrt(5.25)
    double[] same = {5, 3, 4, 4};
    assertEquals(0.0, NonParametric.cliffsDelta(same, same.clone()));
    NonParametric.MannWhitney eq = NonParametric.mannWhitney(same, same.clone());
    assertEquals(8.0, eq.u());
    assertEquals(1.0, eq.p());
    double[] flat = {2, 2, 2};
    assertEquals(1.0, NonParametric.mannWhitney(flat, flat.clone()).p());
  }

  @Test
  void agreesWithTheDefinitionOnRandomTiedSamples() {
    SplittableRandom rnd = new SplittableRandom(9);
    for (int trial = 0; trial < 20; trial++) {
      double[] x = new double[1 + rnd.nextInt(60)];
      double[] y = new double[1 + rnd.nextInt(60)];
      for (int i = 0; i < x.length; i++) {
        x[i] = rnd.nextInt(12); // many ties
      }
      for (int i = 0; i < y.length; i++) {
        y[i] = rnd.nextInt(10);
      }
      long gt = 0;
      long lt = 0;
      long eq = 0;
      for (double a : x) {
        for (double b : y) {
          if (a > b) {
            gt++;
          } else if (a < b) {
            lt++;
          } else {
            eq++;
          }
        }
      }
      assertEquals(gt + eq / 2.0, NonParametric.mannWhitney(x, y).u(), 1e-9);
      assertEquals((gt - lt) / (double) (x.length * y.length),
          NonParametric.cliffsDelta(x, y), 1e-12);
    }
  }

  @Test
  void largeShiftedSamplesAreSignificantAndTailPKeepsDigits() {
    SplittableRandom rnd = new SplittableRandom(5);
    double[] a = new double[2000];
    double[] b = new double[2000];
    for (int i = 0; i < a.length; i++) {
      a[i] = 1.05 + 0.1 * rnd.nextGaussian();
      b[i] = 1.00 + 0.1 * rnd.nextGaussian();
    }
    NonParametric.MannWhitney mw = NonParametric.mannWhitney(a, b);
    assertTrue(mw.p() < 1e-30 && mw.p() > 0, "p = " + mw.p());
    // the normal tail against known values of erfc(|z| / sqrt 2)
    double r2 = Math.sqrt(2);
    assertEquals(0.15729920705028513, NonParametric.twoSidedNormalP(r2), 1e-15);
    assertEquals(0.15729920705028513, NonParametric.twoSidedNormalP(-r2), 1e-15);
    assertEquals(1.5374597944280349e-12, NonParametric.twoSidedNormalP(5 * r2),
        1.5374597944280349e-12 * 1e-9);
    assertEquals("large", NonParametric.magnitude(-0.9));
    assertEquals("negligible", NonParametric.magnitude(0.1));
    assertThrows(IllegalArgumentException.class,
        () -> NonParametric.mannWhitney(new double[0], new double[] {1}));
  }
}
