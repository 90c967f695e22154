package org.jpir.core.query;

import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.Phase1Digits;
import org.jpir.vmp.Pmat;

/**
 * The expanded query the server computes with: the phase-1 prepared matrix (nrows = rows *
 * plaintextLimbs, ncols = 2 * digits; row {@code r*plaintextLimbs + l} encrypts {@code [r ==
 * target row] * 2^(-K(l+1))}, each part (b, a) as {@code phase1Digits}: column {@code part *
 * digits + i} holds digit i, most significant first), for every plane (a paired tail plane too),
 * and one prepared GGSW per column bit, least significant first. {@code phase1Digits} null: the
 * server's limbs.
 */
public record PreparedQuery(String paramsId, int rows, int cols, Pmat phase1,
    PreparedGgsw[] ggsw, Phase1Digits phase1Digits) {
  /** A prepared query whose phase-1 rows are in the server's limbs. */
  public PreparedQuery(String paramsId, int rows, int cols, Pmat phase1, PreparedGgsw[] ggsw) {
    this(paramsId, rows, cols, phase1, ggsw, null);
  }

  /**
   * Checks that the phase-1 matrix has the columns of its digits.
   *
   * @throws IllegalArgumentException when it does not
   */
  public PreparedQuery {
    if (phase1Digits != null && phase1 != null && phase1.ncols() != phase1Digits.columns()) {
      throw new IllegalArgumentException("phase-1 matrix of " + phase1.ncols() + " columns, its"
          + " digits (" + phase1Digits + ") need " + phase1Digits.columns());
    }
  }

  /** Bytes held: {@code 8 N (nrows*ncols + levels * 2L * ncols)}. */
  public long sizeBytes() {
    long s = phase1.sizeBytes();
    for (PreparedGgsw g : ggsw) {
      s += g.sizeBytes();
    }
    return s;
  }
}
