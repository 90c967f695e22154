package org.jpir.core.query;

import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Pmat;

/**
 * The phase-1 matrix of a paired tail plane ({@link org.jpir.core.params.Geometry}): row {@code
 * k*plaintextLimbs + l} is the transform of {@code sel(2k, l) + X^(-N/2) sel(2k + 1, l)}, where
 * {@code sel(r, l)} is phase-1 row {@code r*plaintextLimbs + l}. Multiplying a GLWE by a monomial
 * permutes and negates its digits, so it is exact and adds no noise; the sum is taken in the
 * transform domain, where {@code X^(-N/2)} multiplies slot k by {@code i s_k} ({@code s_k = +-1},
 * read off the transform of the monomial): an exact swap of each slot's parts, so a row's
 * transform serves both its plain and its rotated use. Rows arrive in any order; a row is
 * prepared once both members have.
 */
final class TailPairs {
  private final int n;
  private final int rows;
  private final int limbs;
  private final Pmat out;
  private final double[][] pending;
  private final int[] arrived;
  private final double[] halfSign;

  /** Pairs for {@code rows} phase-1 rows of {@code limbs} limbs, GLWEs of {@code glweLimbs}. */
  TailPairs(int n, int rows, int limbs, int glweLimbs) {
    this.n = n;
    this.rows = rows;
    this.limbs = limbs;
    int pairs = (rows + 1) / 2;
    this.out = Pmat.allocate(n, pairs * limbs, 2 * glweLimbs);
    this.pending = new double[pairs * limbs][];
    this.arrived = new int[pairs * limbs];
    this.halfSign = halfSigns(n);
  }

  /**
   * {@code s_k} of every slot: the transform of {@code X^(-N/2) = -X^(N/2)} is {@code i s_k} at
   * slot k (re at k, im at N/2 + k in the reim layout).
   *
   * @throws IllegalStateException when the transform's convention gives anything else
   */
  static double[] halfSigns(int n) {
    double[] mono = new double[n];
    mono[n / 2] = -1;
    FftPlan.of(n).fft(mono, 0);
    int m = n / 2;
    double[] s = new double[m];
    for (int k = 0; k < m; k++) {
      double re = mono[k];
      double im = mono[m + k];
      if (Math.abs(re) > 1e-9 || Math.abs(Math.abs(im) - 1) > 1e-9) {
        throw new IllegalStateException("the transform of X^(-N/2) at slot " + k + " is " + re
            + " + " + im + "i, not +-i");
      }
      s[k] = Math.signum(im);
    }
    return s;
  }

  /**
   * Takes phase-1 row {@code index = r*limbs + l} as the transform of its (rounded) GLWE ({@code
   * 2 glweLimbs} reim columns of N doubles; read during the call only).
   */
  void accept(int index, double[] x) {
    int r = index / limbs;
    int t = (r / 2) * limbs + index % limbs;
    double[] acc = pending[t];
    boolean first = acc == null;
    if (first) {
      acc = new double[out.ncols() * n];
      pending[t] = acc;
    }
    if ((r & 1) == 0) {
      for (int i = 0; i < acc.length; i++) {
        acc[i] = first ? x[i] : acc[i] + x[i];
      }
    } else {
      rotateByMinusHalf(x, acc, first);
    }
    if (++arrived[t] == members(t)) {
      out.prepareRow(t, acc, 0);
      pending[t] = null;
    }
  }

  /** acc = (first ? 0 : acc) + X^(-N/2) x, column by column in the transform domain. */
  private void rotateByMinusHalf(double[] x, double[] acc, boolean first) {
    int m = n / 2;
    for (int o = 0; o < acc.length; o += n) {
      for (int k = 0; k < m; k++) {
        double s = halfSign[k];
        double re = -s * x[o + m + k];
        double im = s * x[o + k];
        acc[o + k] = first ? re : acc[o + k] + re;
        acc[o + m + k] = first ? im : acc[o + m + k] + im;
      }
    }
  }

  /** The matrix; throws when a row never arrived. */
  Pmat finish() {
    for (int t = 0; t < arrived.length; t++) {
      if (arrived[t] != members(t)) {
        throw new IllegalStateException("paired tail row " + t + " received " + arrived[t]
            + " of its " + members(t) + " phase-1 rows");
      }
    }
    return out;
  }

  /** Phase-1 rows paired in tail row t: 2, or 1 for the last pair of an odd row count. */
  private int members(int t) {
    return 2 * (t / limbs) + 1 < rows ? 2 : 1;
  }
}
