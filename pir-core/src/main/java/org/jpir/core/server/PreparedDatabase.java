package org.jpir.core.server;

import java.util.function.IntConsumer;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.vmp.Pvec;

/**
 * A database held as prepared columns: {@code column(plane, c)} is the PVEC of column c, ready
 * for the phase-1 pass. Columns may be a contiguous range {@code [firstCol, firstCol + count)}
 * of the whole grid (a Spark partition holds one such range).
 */
public final class PreparedDatabase {
  private final Params params;
  private final Geometry geometry;
  private final int firstCol;
  private final Pvec[][] cols;

  private PreparedDatabase(Params params, Geometry geometry, int firstCol, Pvec[][] cols) {
    this.params = params;
    this.geometry = geometry;
    this.firstCol = firstCol;
    this.cols = cols;
  }

  /**
   * Prepares columns {@code [firstCol, firstCol + count)} of every plane from {@code source};
   * {@code progress} (may be null) is told after each column.
   */
  public static PreparedDatabase prepare(Params p, Geometry g, RecordSource source, int firstCol,
      int count, IntConsumer progress) {
    if (firstCol < 0 || count < 1 || firstCol + count > g.cols()) {
      throw new IllegalArgumentException("column range [" + firstCol + ", " + (firstCol + count)
          + ") is not inside [0, " + g.cols() + ")");
    }
    ColumnEncoder enc = new ColumnEncoder(p, g, source);
    Pvec[][] cols = new Pvec[g.planes()][count];
    for (int c = 0; c < count; c++) {
      for (int pl = 0; pl < g.planes(); pl++) {
        cols[pl][c] = enc.prepare(pl, firstCol + c);
      }
      if (progress != null) {
        progress.accept(c + 1);
      }
    }
    return new PreparedDatabase(p, g, firstCol, cols);
  }

  /** Prepares the whole database. */
  public static PreparedDatabase prepare(Params p, Geometry g, RecordSource source) {
    return prepare(p, g, source, 0, g.cols(), null);
  }

  /** Wraps already prepared columns (cols[plane][i] is column firstCol + i). */
  public static PreparedDatabase of(Params p, Geometry g, int firstCol, Pvec[][] cols) {
    return new PreparedDatabase(p, g, firstCol, cols);
  }

  public Params params() {
    return params;
  }

  public Geometry geometry() {
    return geometry;
  }

  /** First column held. */
  public int firstColumn() {
    return firstCol;
  }

  /** Number of columns held. */
  public int columnCount() {
    return cols[0].length;
  }

  /** The prepared columns of one plane (not copied). */
  public Pvec[] plane(int plane) {
    return cols[plane];
  }

  /** Bytes held by the prepared columns. */
  public long sizeBytes() {
    long s = 0;
    for (Pvec[] pl : cols) {
      for (Pvec v : pl) {
        s += v.sizeBytes();
      }
    }
    return s;
  }
}
