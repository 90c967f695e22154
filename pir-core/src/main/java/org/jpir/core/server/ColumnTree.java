package org.jpir.core.server;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.jpir.core.params.Geometry;

/**
 * The shape of the phase-2 CMux tree of a grid of {@code cols} columns cut into contiguous spans
 * of any width: the node at level t starting at column s (s a multiple of 2^t) covers columns
 * {@code [s, min(cols, s + 2^t))}. A span is answered as its aligned blocks ({@link #blocks});
 * {@link BatchSteps#answerSpan} and {@link BatchSteps#mergeSpans} compute the nodes.
 */
public final class ColumnTree implements Serializable {
  private static final long serialVersionUID = 1L;
  private final int cols;
  private final int height;

  /** The tree over {@code cols} columns; its root is at level {@code Geometry.levels(cols)}. */
  public ColumnTree(int cols) {
    if (cols < 1) {
      throw new IllegalArgumentException("cols " + cols + " must be at least 1");
    }
    this.cols = cols;
    this.height = Geometry.levels(cols);
  }

  /** Level of the root. */
  public int height() {
    return height;
  }

  /**
   * The maximal aligned blocks of {@code [first, end)}, in column order, as {@code {level,
   * start}}: a block at level t starts at a multiple of 2^t and holds 2^t columns, or the columns
   * up to {@code cols} when it reaches the end of the grid.
   */
  public List<int[]> blocks(int first, int end) {
    if (first < 0 || end > cols || first >= end) {
      throw new IllegalArgumentException("column range [" + first + ", " + end
          + ") is not a non-empty range inside [0, " + cols + ")");
    }
    List<int[]> out = new ArrayList<>();
    int x = first;
    while (x < end) {
      int l;
      int tail = Geometry.levels(cols - x);
      if (end == cols && (x & ((1 << tail) - 1)) == 0) {
        l = tail;
      } else {
        l = x == 0 ? 30 : Integer.numberOfTrailingZeros(x);
        while ((long) x + (1L << l) > end) {
          l--;
        }
      }
      out.add(new int[] {l, x});
      x = (int) Math.min(end, (long) x + (1L << l));
    }
    return out;
  }

  /** Lowest level of any block of the ranges {@code [bounds[i], bounds[i+1])}. */
  public int lowestLevel(int[] bounds) {
    int min = height;
    for (int i = 0; i + 1 < bounds.length; i++) {
      for (int[] b : blocks(bounds[i], bounds[i + 1])) {
        min = Math.min(min, b[0]);
      }
    }
    return min;
  }
}
