package org.jpir.core.query;

import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.vmp.Pmat;

/**
 * The expanded query the server computes with: the phase-1 prepared matrix (nrows = rows *
 * plaintextLimbs, ncols = 2 * glweLimbs; row {@code r*plaintextLimbs + l} encrypts {@code [r ==
 * target row] * 2^(-K(l+1))}) and one prepared GGSW per column bit, least significant first;
 * for a geometry with paired tails also {@code phase1Tail}, the matrix of its last plane
 * ({@link TailPairs}), else null.
 */
public record PreparedQuery(String paramsId, int rows, int cols, Pmat phase1,
    PreparedGgsw[] ggsw, Pmat phase1Tail) {
  /** A prepared query without a paired tail matrix. */
  public PreparedQuery(String paramsId, int rows, int cols, Pmat phase1, PreparedGgsw[] ggsw) {
    this(paramsId, rows, cols, phase1, ggsw, null);
  }

  /** Bytes held: {@code 8 N (nrows*ncols + levels * 2L * ncols)}, plus the tail matrix. */
  public long sizeBytes() {
    long s = phase1.sizeBytes() + (phase1Tail == null ? 0 : phase1Tail.sizeBytes());
    for (PreparedGgsw g : ggsw) {
      s += g.sizeBytes();
    }
    return s;
  }
}
