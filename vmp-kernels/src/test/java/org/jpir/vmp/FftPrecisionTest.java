package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The exactness bound of {@link FftPlan}: products of int64 polynomials with {@code A + B +
 * log2(N) <= }{@value FftPlan#EXACT_PRODUCT_BITS} round back exactly, worst case and random, and
 * clearly beyond it they do not. Coefficients are checked against exact long arithmetic (no
 * overflow: every partial sum is at most {@code N 2^{A+B}} = 2^T with T <= 52): all of them up
 * to N = 1024, else 64 distinct random ones plus coefficient N-1, the one the worst case maximizes.
 */
class FftPrecisionTest {
  static final int X = FftPlan.EXACT_PRODUCT_BITS;
  /** Beyond the bound by this many bits, worst-case inputs must show errors. */
  static final int MARGIN = 5;

  static Stream<Arguments> kernelsAndSizes() {
    List<Arguments> out = new ArrayList<>();
    for (FftKernel k : FftContractTest.ALL) {
      for (int n = FftPlan.MIN_N; n <= FftPlan.MAX_N; n *= 2) {
        out.add(Arguments.of(k.getClass().getSimpleName(), k, n));
      }
    }
    return out.stream();
  }

  /** Indices to check: all for small N, else 64 random ones and N-1. */
  static int[] checked(int n, long seed) {
    if (n <= 1024) {
      int[] all = new int[n];
      for (int i = 0; i < n; i++) {
        all[i] = i;
      }
      return all;
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    return IntStream.concat(rnd.ints(0, n - 1).distinct().limit(64), IntStream.of(n - 1))
        .toArray();
  }

  /**
   * Worst case for total bits T: |a_i| = 2^A, b_j = sign(a_{N-1-j}) 2^B, so that coefficient N-1
   * is N 2^{A+B} = 2^T; the signs of a are all + ({@code seed == 0}) or random. A and B split T -
   * log2(N) evenly. All-positive inputs give the largest rounding errors in our measurements.
   */
  static long[][] worstCase(int n, int t, long seed) {
    int logn = Integer.numberOfTrailingZeros(n);
    int aBits = (t - logn) / 2;
    int bBits = t - logn - aBits;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] a = new long[n];
    long[] b = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = (seed == 0 || rnd.nextBoolean()) ? (1L << aBits) : -(1L << aBits);
    }
    for (int j = 0; j < n; j++) {
      b[j] = Long.signum(a[n - 1 - j]) * (1L << bBits);
    }
    return new long[][] {a, b};
  }

  /** Uniform in [-2^A, 2^A] and [-2^B, 2^B]. */
  static long[][] random(int n, int t, long seed) {
    int logn = Integer.numberOfTrailingZeros(n);
    int aBits = (t - logn) / 2;
    int bBits = t - logn - aBits;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] a = new long[n];
    long[] b = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = rnd.nextLong(-(1L << aBits), (1L << aBits) + 1);
      b[i] = rnd.nextLong(-(1L << bBits), (1L << bBits) + 1);
    }
    return new long[][] {a, b};
  }

  /** Number of checked coefficients where the FFT product differs from the exact one. */
  static int wrong(FftPlan p, long[][] ab, int[] idx) {
    long[] got = Exact.fftProduct(p, ab[0], ab[1]);
    int bad = 0;
    for (int k : idx) {
      if (got[k] != Exact.coefficient(ab[0], ab[1], k)) {
        bad++;
      }
    }
    return bad;
  }

  @ParameterizedTest(name = "{0} N={2}")
  @MethodSource("kernelsAndSizes")
  void productsAtTheBoundAreExact(String name, FftKernel k, int n) {
    FftPlan p = FftPlan.of(n).withKernel(k);
    long seed = 31L * n + X;
    int[] idx = checked(n, seed);
    assertEquals(0, wrong(p, worstCase(n, X, 0), idx), "all-positive worst case, T=" + X);
    assertEquals(0, wrong(p, worstCase(n, X, seed), idx), "worst case, T=" + X + " seed " + seed);
    assertEquals(0, wrong(p, random(n, X, seed), idx), "random, T=" + X + " seed " + seed);
  }

  @ParameterizedTest(name = "{0} N={2}")
  @MethodSource("kernelsAndSizes")
  void worstCaseBeyondTheBoundIsNotExact(String name, FftKernel k, int n) {
    FftPlan p = FftPlan.of(n).withKernel(k);
    int t = X + MARGIN;
    long seed = 37L * n + t;
    assertTrue(wrong(p, worstCase(n, t, 0), checked(n, seed)) > 0,
        "expected rounding errors at T=" + t + " for all-positive inputs (bound " + X
            + " is not tight), index seed " + seed);
  }

  /** K accumulated products count as log2(K) more bits: mulAdd of 16 at T + 4 = X is exact. */
  @Test
  void accumulatedProductsWithinTheBoundAreExact() {
    int n = 4096;
    int kk = 16;
    long seed = 41;
    for (FftKernel kern : FftContractTest.ALL) {
      FftPlan p = FftPlan.of(n).withKernel(kern);
      double[] acc = new double[n];
      long[] want = new long[n];
      int[] idx = checked(n, seed);
      double[] fa = new double[n];
      double[] fb = new double[n];
      for (int r = 0; r < kk; r++) {
        long[][] ab = worstCase(n, X - 4, r == 0 ? 0 : seed + r);
        for (int k : idx) {
          want[k] += Exact.coefficient(ab[0], ab[1], k);
        }
        Reim.fromZnx(n, ab[0], 0, fa, 0);
        Reim.fromZnx(n, ab[1], 0, fb, 0);
        p.fft(fa, 0);
        p.fft(fb, 0);
        Reim.mulAdd(n, fa, 0, fb, 0, acc, 0);
      }
      p.ifft(acc, 0);
      long[] got = new long[n];
      Reim.toZnx(n, acc, 0, got, 0);
      for (int k : idx) {
        assertEquals(want[k], got[k], p.kernelName() + " coefficient " + k + " seed " + seed);
      }
    }
  }
}
