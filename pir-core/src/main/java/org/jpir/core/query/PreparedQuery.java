package org.jpir.core.query;

import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.vmp.Pmat;

/**
 * The expanded query the server computes with: the phase-1 prepared matrix (nrows = rows *
 * plaintextLimbs, ncols = 2 * glweLimbs; row {@code r*plaintextLimbs + l} encrypts {@code [r ==
 * target row] * 2^(-K(l+1))}) and one prepared GGSW per column bit, least significant first.
 */
public record PreparedQuery(String paramsId, int rows, int cols, Pmat phase1,
    PreparedGgsw[] ggsw) {
  /** Bytes held: {@code 8 N (nrows*ncols + levels * 2L * ncols)}. */
  public long sizeBytes() {
    long s = phase1.sizeBytes();
    for (PreparedGgsw g : ggsw) {
      s += g.sizeBytes();
    }
    return s;
  }
}
