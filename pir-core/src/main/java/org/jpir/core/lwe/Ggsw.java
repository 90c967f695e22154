package org.jpir.core.lwe;

import org.jpir.core.params.Gadget;

/**
 * A GGSW ciphertext of a bit mu in standard form: {@code 2 L} GLWE rows ({@code L =
 * ggswLevels}); row {@code kk*L + j} has phase {@code mu * g_j} (kk = 0) or {@code mu * g_j * s}
 * (kk = 1), {@code g_j = 2^-(ggswBits (j+1))} ({@link Gadget}). {@link GlweOps#prepare(Ggsw)} gives the form the external product
 * reads. Immutable once built (the rows are not copied: do not modify them).
 */
public final class Ggsw {
  private final Glwe[] rows;

  /**
   * The GGSW of these rows.
   *
   * @throws IllegalArgumentException when there are none, an odd number, or one is null
   */
  public Ggsw(Glwe[] rows) {
    if (rows == null || rows.length == 0 || rows.length % 2 != 0) {
      throw new IllegalArgumentException("a GGSW has 2 L rows, not "
          + (rows == null ? "null" : rows.length));
    }
    for (int r = 0; r < rows.length; r++) {
      if (rows[r] == null) {
        throw new IllegalArgumentException("GGSW row " + r + " is null");
      }
    }
    this.rows = rows;
  }

  /** Gadget levels L (rows / 2). */
  public int levels() {
    return rows.length / 2;
  }

  /** Number of rows, {@code 2 L}. */
  public int rowCount() {
    return rows.length;
  }

  /** Row r ({@code kk*L + j}). */
  public Glwe row(int r) {
    return rows[r];
  }
}
