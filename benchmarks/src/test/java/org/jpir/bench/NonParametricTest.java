package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Mann-Whitney U and Cliff's delta against published values (scipy's documentation), against
 * scipy 1.17.1's {@code mannwhitneyu} and against values worked out by hand.
 */
class NonParametricTest {
  @Test
  void textbookExampleWithoutTies() {
    // scipy.stats.mannwhitneyu documentation example: U1 = 17 (exact p 0.1111, asymptotic with
    // continuity correction 0.11134688653314041); without continuity correction (what
    // commons-math3 computes) scipy gives 0.0864107329737: z = (17 - 10) / sqrt(5*4*10/12)
    double[] males = {19, 22, 16, 29, 24};
    double[] females = {20, 11, 17, 12};
    NonParametric.MannWhitney mw = NonParametric.mannWhitney(males, females);
    assertEquals(17.0, mw.u());
    assertEquals(0.086410732973700069, mw.p(), 1e-13);
    // 17 of the 20 pairs have male > female, 3 the other way: delta = 14/20
    assertEquals(0.7, NonParametric.cliffsDelta(males, females), 1e-15);
    assertEquals(0.7, mw.delta(), 1e-15);
  }

  @Test
  void separatedSequencesAgainstScipy() {
    // x = 0, 2, .., 78 and y = 21, 23, .., 89 (no ties): scipy.stats.mannwhitneyu(x, y,
    // method="asymptotic", use_continuity=False) gives U = 435, p = 0.00488882247316437
    double[] x = new double[40];
    double[] y = new double[35];
    for (int i = 0; i < x.length; i++) {
      x[i] = 2 * i;
    }
    for (int j = 0; j < y.length; j++) {
      y[j] = 2 * j + 21;
    }
    NonParametric.MannWhitney mw = NonParametric.mannWhitney(x, y);
    assertEquals(435.0, mw.u());
    assertEquals(0.00488882247316437, mw.p(), 1e-15);
  }

  @Test
  void largeTiedSamplesAgreeWithTheTieAndContinuityCorrectedP() {
    // x_i = (7919 i mod 2003) + 150, i < 500; y_j = 104729 j mod 1999, j < 400 (93 ties):
    // scipy's default (tie and continuity correction) gives U = 114714.5, p = 1.464394576985e-4;
    // the uncorrected approximation of commons-math3 agrees to well under 1% at these sizes
    double[] x = new double[500];
    double[] y = new double[400];
    for (int i = 0; i < x.length; i++) {
      x[i] = (i * 7919L) % 2003 + 150;
    }
    for (int j = 0; j < y.length; j++) {
      y[j] = (j * 104729L) % 1999;
    }
    NonParametric.MannWhitney mw = NonParametric.mannWhitney(x, y);
    assertEquals(114714.5, mw.u());
    assertEquals(1.464394576985064e-4, mw.p(), 1.464394576985064e-4 * 0.01);
  }

  @Test
  void smallSampleWithTiesWorkedByHand() {
    // pooled sorted: 1x 2x 2x 2y 3x 3y 4y; average ranks 1, 3, 3, 3, 5.5, 5.5, 7
    // R_x = 1 + 3 + 3 + 5.5 = 12.5, U_x = 12.5 - 4*5/2 = 2.5
    // pairs: x > y once (3 > 2), ties 3 (2=2 twice, 3=3), x < y 8 times: delta = (1 - 8)/12
    // no tie correction: var = 4*3*8/12 = 8, p = erfc(3.5 / sqrt(8) / sqrt(2)) (mpmath)
    double[] x = {1, 2, 2, 3};
    double[] y = {2, 3, 4};
    NonParametric.MannWhitney mw = NonParametric.mannWhitney(x, y);
    assertEquals(2.5, mw.u());
    assertEquals(0.21592493894014039, mw.p(), 1e-13);
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
    // z = -4.5 / sqrt(3*3*7/12): p = erfc(4.5 / sqrt(5.25) / sqrt(2)) (mpmath)
    assertEquals(0.049534613435626748, mw.p(), 1e-13);
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
  void largeShiftedSamplesAreSignificantAndBadInputIsRejected() {
    SplittableRandom rnd = new SplittableRandom(5);
    double[] a = new double[2000];
    double[] b = new double[2000];
    for (int i = 0; i < a.length; i++) {
      a[i] = 1.05 + 0.1 * rnd.nextGaussian();
      b[i] = 1.00 + 0.1 * rnd.nextGaussian();
    }
    NonParametric.MannWhitney mw = NonParametric.mannWhitney(a, b);
    assertTrue(mw.p() < 1e-30 && mw.p() > 0, "p = " + mw.p());
    assertEquals("large", NonParametric.magnitude(-0.9));
    assertEquals("negligible", NonParametric.magnitude(0.1));
    assertThrows(IllegalArgumentException.class,
        () -> NonParametric.mannWhitney(new double[0], new double[] {1}));
    assertThrows(IllegalArgumentException.class,
        () -> NonParametric.mannWhitney(new double[] {Double.NaN}, new double[] {1}));
  }
}
