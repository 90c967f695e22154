package org.jpir.core.server;

import java.util.Arrays;
import java.util.function.IntConsumer;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.vmp.Pvec;

/**
 * A database held as prepared columns: {@code plane(pl)[i]} is the PVEC of plane column {@code
 * from + i}, ready for the phase-1 pass, where {@code [from, to)} is {@link
 * Geometry#planeColumnRange} of the grid columns held (a paired tail plane holds column pairs).
 * Columns may be a contiguous range {@code [firstCol, firstCol + count)} of the whole grid (a
 * Spark partition holds one such range).
 */
public final class PreparedDatabase {
  private final Params params;
  private final Geometry geometry;
  private final int firstCol;
  private final int count;
  private final Pvec[][] cols;

  private PreparedDatabase(Params params, Geometry geometry, int firstCol, int count,
      Pvec[][] cols) {
    if (cols.length != geometry.planes()) {
      throw new IllegalArgumentException(cols.length + " planes of columns for a geometry of "
          + geometry.planes());
    }
    for (int pl = 0; pl < cols.length; pl++) {
      int[] r = geometry.planeColumnRange(pl, firstCol, count);
      if (cols[pl].length != r[1] - r[0]) {
        throw new IllegalArgumentException("plane " + pl + " holds " + cols[pl].length
            + " columns; grid columns [" + firstCol + ", " + (firstCol + count) + ") need "
            + (r[1] - r[0]));
      }
    }
    this.params = params;
    this.geometry = geometry;
    this.firstCol = firstCol;
    this.count = count;
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
    Pvec[][] cols = new Pvec[g.planes()][];
    int[][] ranges = new int[g.planes()][];
    for (int pl = 0; pl < g.planes(); pl++) {
      ranges[pl] = g.planeColumnRange(pl, firstCol, count);
      cols[pl] = new Pvec[ranges[pl][1] - ranges[pl][0]];
    }
    for (int c = 0; c < count; c++) {
      for (int pl = 0; pl < g.planes(); pl++) {
        // a paired plane's pair is prepared with its first grid column held
        int pc = g.planeColumnRange(pl, firstCol + c, 1)[0];
        if (cols[pl][pc - ranges[pl][0]] == null) {
          cols[pl][pc - ranges[pl][0]] = enc.prepare(pl, pc);
        }
      }
      if (progress != null) {
        progress.accept(c + 1);
      }
    }
    return new PreparedDatabase(p, g, firstCol, count, cols);
  }

  /** Prepares the whole database. */
  public static PreparedDatabase prepare(Params p, Geometry g, RecordSource source) {
    return prepare(p, g, source, 0, g.cols(), null);
  }

  /**
   * Wraps already prepared columns of grid columns {@code [firstCol, firstCol + count)} ({@code
   * cols[plane][i]} is plane column {@code from + i} of {@link Geometry#planeColumnRange}).
   *
   * @throws IllegalArgumentException when a plane holds another number of columns
   */
  public static PreparedDatabase of(Params p, Geometry g, int firstCol, int count,
      Pvec[][] cols) {
    return new PreparedDatabase(p, g, firstCol, count, cols);
  }

  /**
   * The grid columns {@code [first, first + len)} (inside those held) as a database sharing
   * these PVECs.
   */
  public PreparedDatabase slice(int first, int len) {
    if (first < firstCol || len < 1 || (long) first + len > (long) firstCol + count) {
      throw new IllegalArgumentException("columns [" + first + ", " + ((long) first + len)
          + ") are not inside the held [" + firstCol + ", " + (firstCol + count) + ")");
    }
    if (first == firstCol && len == count) {
      return this;
    }
    Pvec[][] sub = new Pvec[cols.length][];
    for (int pl = 0; pl < cols.length; pl++) {
      int from = geometry.planeColumnRange(pl, firstCol, count)[0];
      int[] r = geometry.planeColumnRange(pl, first, len);
      sub[pl] = Arrays.copyOfRange(cols[pl], r[0] - from, r[1] - from);
    }
    return new PreparedDatabase(params, geometry, first, len, sub);
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

  /** Number of grid columns held. */
  public int columnCount() {
    return count;
  }

  /** The prepared columns of one plane (not copied; a paired tail plane's are pairs). */
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
