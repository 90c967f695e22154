package org.jpir.core.lwe;

import org.jpir.core.params.Gadget;
import org.jpir.vmp.Pmat;

/**
 * A GGSW in the form the external product reads: its rows transformed and laid out as a PMAT of
 * {@code 2 L} rows and {@code 2 glweLimbs} columns ({@link GlweOps#prepare(Ggsw)}). Immutable
 * (the matrix is not copied: do not modify it).
 */
public final class PreparedGgsw {
  private final Pmat matrix;

  /**
   * Wraps a prepared matrix (deserializers; {@link GlweOps#prepare(Ggsw)} makes them).
   *
   * @throws IllegalArgumentException when the matrix is null or has an odd row count
   */
  public PreparedGgsw(Pmat matrix) {
    if (matrix == null || matrix.nrows() % 2 != 0) {
      throw new IllegalArgumentException("a prepared GGSW is a PMAT of 2 L rows, not "
          + (matrix == null ? "null" : matrix.nrows()));
    }
    this.matrix = matrix;
  }

  /** The prepared matrix: row {@code kk*L + j}, column c as {@link Pmat} lays them out. */
  public Pmat matrix() {
    return matrix;
  }

  /** Ring degree N. */
  public int n() {
    return matrix.n();
  }

  /** Gadget levels L. */
  public int levels() {
    return matrix.nrows() / 2;
  }

  /** Bytes of the prepared matrix. */
  public long sizeBytes() {
    return 8L * matrix.n() * matrix.nrows() * matrix.ncols();
  }
}
