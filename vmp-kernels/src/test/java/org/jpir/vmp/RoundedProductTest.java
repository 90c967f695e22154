package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The rounded-product bound of {@link FftPlan}: product sums of T bits between {@link
 * FftPlan#EXACT_PRODUCT_BITS} and {@link FftPlan#ROUNDED_PRODUCT_BITS}, through the database
 * pass as the server runs it ({@link Vmp#applyPvecBatch}, then the inverse transform and the
 * rounding to longs), are within {@link FftPlan#roundedProductError} of exact long arithmetic:
 * K rows of a wide digit (the PMAT) times 8-bit database digits (the PVEC), worst case (all
 * positive, so that coefficient N-1 is the largest sum) and random signs.
 */
class RoundedProductTest {
  private static final int N = 2048;
  private static final int K = 8;
  private static final int DB_BITS = 7;

  /** Max |got - exact| over the checked coefficients of both matrix columns. */
  private static double maxError(int t, long seed) {
    int logn = Integer.numberOfTrailingZeros(N);
    int logk = Integer.numberOfTrailingZeros(K);
    int aBits = t - DB_BITS - logn - logk;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] rows = new long[K * 2 * N];
    long[] db = new long[K * N];
    for (int r = 0; r < K; r++) {
      for (int i = 0; i < N; i++) {
        boolean plus = seed == 0 || rnd.nextBoolean();
        rows[(2 * r) * N + i] = plus ? (1L << aBits) : -(1L << aBits);
        rows[(2 * r + 1) * N + i] = rnd.nextLong(-(1L << aBits), (1L << aBits) + 1);
      }
      for (int j = 0; j < N; j++) {
        // worst case: b_j = sign(a_{N-1-j}) 2^B, so coefficient N-1 sums N 2^(A+B) per row
        long a = rows[(2 * r) * N + N - 1 - j];
        db[r * N + j] = Long.signum(a) * (1L << DB_BITS);
      }
    }
    Pmat pm = Pmat.allocate(N, K, 2);
    pm.prepareFromZnx(rows, 0);
    Pvec pv = Pvec.allocate(N, K);
    pv.prepareFromZnx(db, 0);
    double[][][] res = {{new double[2 * N]}};
    double[] tmp = new double[Vmp.applyPvecBatchTmpLength(1, N, K, 2, 1)];
    Vmp.get().applyPvecBatch(new Pmat[] {pm}, new Pvec[] {pv}, res, tmp);
    FftPlan plan = FftPlan.of(N);
    int[] idx = FftPrecisionTest.checked(N, seed + 1);
    double worst = 0;
    for (int c = 0; c < 2; c++) {
      plan.ifft(res[0][0], c * N);
      long[] got = new long[N];
      Reim.toZnx(N, res[0][0], c * N, got, 0);
      for (int k : idx) {
        long want = 0;
        for (int r = 0; r < K; r++) {
          long[] a = java.util.Arrays.copyOfRange(rows, (2 * r + c) * N, (2 * r + c + 1) * N);
          long[] b = java.util.Arrays.copyOfRange(db, r * N, (r + 1) * N);
          want += Exact.coefficient(a, b, k);
        }
        worst = Math.max(worst, Math.abs((double) (got[k] - want)));
      }
    }
    return worst;
  }

  @Test
  void productSumsUpToTheRoundedBoundStayWithinTheirError() {
    for (int t : new int[] {FftPlan.EXACT_PRODUCT_BITS + 3, 55, 60, FftPlan.ROUNDED_PRODUCT_BITS}) {
      for (long seed : new long[] {0, 17L * t}) {
        double err = maxError(t, seed);
        double bound = FftPlan.roundedProductError(t);
        assertTrue(err <= bound, "T=" + t + " seed " + seed + ": error " + err + " > bound "
            + bound);
        // the bound is not loose by more than a few bits (it is what the noise budget adds)
        if (seed == 0 && t == FftPlan.ROUNDED_PRODUCT_BITS) {
          assertTrue(err > bound / 4096, "T=" + t + ": error " + err + " (bound " + bound + ")");
        }
      }
    }
  }

  @Test
  void theBoundIsZeroWhereProductsAreExactAndRefusedBeyondALong() {
    assertEquals(0.0, FftPlan.roundedProductError(FftPlan.EXACT_PRODUCT_BITS));
    assertEquals(Math.scalb(1.0, 14), FftPlan.roundedProductError(62));
    assertThrows(IllegalArgumentException.class,
        () -> FftPlan.roundedProductError(FftPlan.ROUNDED_PRODUCT_BITS + 1));
  }
}
