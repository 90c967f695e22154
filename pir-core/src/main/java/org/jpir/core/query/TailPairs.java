package org.jpir.core.query;

import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.vmp.Pmat;

/**
 * The phase-1 matrix of a paired tail plane ({@link org.jpir.core.params.Geometry}): row {@code
 * k*plaintextLimbs + l} is the transform of {@code sel(2k, l) + X^(-N/2) sel(2k + 1, l)}, where
 * {@code sel(r, l)} is phase-1 row {@code r*plaintextLimbs + l}. Multiplying a GLWE by a monomial
 * permutes and negates its digits, so it is exact and adds no noise; the sum is taken in the
 * transform domain. Rows arrive in any order; a row is prepared once both members have.
 */
final class TailPairs {
  private final int n;
  private final int rows;
  private final int limbs;
  private final GlweOps ops;
  private final Pmat out;
  private final double[][] pending;
  private final int[] arrived;
  private final Glwe rotated;
  private final double[] reim;

  /** Pairs for {@code rows} phase-1 rows of {@code limbs} limbs, GLWEs of {@code glweLimbs}. */
  TailPairs(GlweOps ops, int n, int rows, int limbs, int glweLimbs) {
    this.n = n;
    this.rows = rows;
    this.limbs = limbs;
    this.ops = ops;
    int pairs = (rows + 1) / 2;
    this.out = Pmat.allocate(n, pairs * limbs, 2 * glweLimbs);
    this.pending = new double[pairs * limbs][];
    this.arrived = new int[pairs * limbs];
    this.rotated = new Glwe(n, glweLimbs);
    this.reim = new double[rotated.data().length];
  }

  /** Takes phase-1 row {@code index = r*limbs + l}, the (rounded) GLWE {@code c}. */
  void accept(int index, Glwe c) {
    int r = index / limbs;
    int t = (r / 2) * limbs + index % limbs;
    double[] x;
    if ((r & 1) == 0) {
      x = ops.transformInto(c, reim);
    } else {
      rotateByMinusHalf(c, rotated);
      x = ops.transformInto(rotated, reim);
    }
    if (pending[t] == null) {
      pending[t] = x.clone();
    } else {
      double[] acc = pending[t];
      for (int i = 0; i < acc.length; i++) {
        acc[i] += x[i];
      }
    }
    if (++arrived[t] == members(t)) {
      out.prepareRow(t, pending[t], 0);
      pending[t] = null;
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

  /** out = X^(-N/2) c: digit j < N/2 goes to j + N/2 negated, j >= N/2 to j - N/2. */
  static void rotateByMinusHalf(Glwe c, Glwe out) {
    int n = c.n();
    int h = n / 2;
    long[] s = c.data();
    long[] d = out.data();
    for (int base = 0; base < s.length; base += n) {
      for (int j = 0; j < h; j++) {
        d[base + j] = s[base + j + h];
        d[base + j + h] = -s[base + j];
      }
    }
  }
}
