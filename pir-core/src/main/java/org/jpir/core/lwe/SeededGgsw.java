package org.jpir.core.lwe;

import java.util.function.IntToLongFunction;
import org.jpir.core.params.Gadget;
import org.jpir.core.params.Params;

/**
 * A GGSW ciphertext in seeded form: its {@code 2 L} rows as {@link SeededGlwe}s, row {@code
 * kk*L + j} as in {@link Ggsw}. {@link #expand} re-derives every row's mask. Immutable by
 * convention (the rows are not copied).
 */
public final class SeededGgsw {
  private final SeededGlwe[] rows;

  /**
   * The seeded GGSW of these rows.
   *
   * @throws IllegalArgumentException when there are none, an odd number, one is null, or they
   *     differ in N or limbs
   */
  public SeededGgsw(SeededGlwe[] rows) {
    if (rows == null || rows.length == 0 || rows.length % 2 != 0) {
      throw new IllegalArgumentException("a seeded GGSW has 2 L rows, not "
          + (rows == null ? "null" : rows.length));
    }
    for (int r = 0; r < rows.length; r++) {
      if (rows[r] == null) {
        throw new IllegalArgumentException("seeded GGSW row " + r + " is null");
      }
      if (rows[r].n() != rows[0].n() || rows[r].limbs() != rows[0].limbs()) {
        throw new IllegalArgumentException("seeded GGSW row " + r + " has " + rows[r].limbs()
            + " limbs at N = " + rows[r].n() + ", row 0 " + rows[0].limbs() + " at N = "
            + rows[0].n());
      }
    }
    this.rows = rows;
  }

  /**
   * The seeded GGSW of preset {@code p} whose row q ({@code q < 2 ggswLevels}) has mask stream
   * {@code streams.applyAsLong(q)} of {@code seed} and b part at {@code body[offset + q*glweLimbs*N
   * ..]} (a view: nothing is copied).
   *
   * @throws IllegalArgumentException when the seed or the body's size is wrong ({@link
   *     SeededGlwe#SeededGlwe})
   */
  public static SeededGgsw of(Params p, byte[] seed, IntToLongFunction streams,
      short[] body, int offset) {
    int per = p.glweLimbs() * p.n();
    SeededGlwe[] rows = new SeededGlwe[2 * p.ggswLevels()];
    for (int q = 0; q < rows.length; q++) {
      rows[q] = new SeededGlwe(p, seed, streams.applyAsLong(q), body, offset + q * per);
    }
    return new SeededGgsw(rows);
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
  public SeededGlwe row(int r) {
    return rows[r];
  }

  /** Copies the b part of row q to {@code dst[dstOff + q*limbs*N + i*N + j]}. */
  public void copyBodiesTo(short[] dst, int dstOff) {
    for (int q = 0; q < rows.length; q++) {
      rows[q].copyBodyTo(dst, dstOff + q * rows[q].limbs() * rows[q].n());
    }
  }

  /** The full GGSW (new rows): row r is {@code row(r).expand()}. */
  public Ggsw expand() {
    Glwe[] g = new Glwe[rows.length];
    for (int r = 0; r < rows.length; r++) {
      g[r] = rows[r].expand();
    }
    return new Ggsw(g);
  }
}
