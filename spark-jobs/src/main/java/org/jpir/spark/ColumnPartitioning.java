package org.jpir.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits the database's columns into contiguous ranges of a power-of-two width W, so that each
 * range's part of the phase-2 CMux tree is a complete sub-tree: range i is {@code [i*W, min(cols,
 * (i+1)*W))}, and its result is the tree node at level log2(W) (the last range may be shorter;
 * its node rises unchanged to that level).
 */
public record ColumnPartitioning(int cols, int width) implements Serializable {

  /** Validates. */
  public ColumnPartitioning {
    if (cols < 1) {
      throw new IllegalArgumentException("cols " + cols + " must be at least 1");
    }
    if (width < 1 || Integer.bitCount(width) != 1) {
      throw new IllegalArgumentException("partition width " + width + " must be a power of two");
    }
  }

  /**
   * The widest power-of-two width that still gives at least {@code minPartitions} ranges (fewer
   * only when there are fewer columns): between minPartitions and about twice as many ranges, so
   * tasks stay balanced over the cores (a range of a power-of-two width cannot split the columns
   * evenly; more, smaller ranges even the load out).
   */
  public static ColumnPartitioning forPartitions(int cols, int minPartitions) {
    if (minPartitions < 1) {
      throw new IllegalArgumentException("partitions " + minPartitions + " must be at least 1");
    }
    int per = Math.max(1, cols / minPartitions);
    return new ColumnPartitioning(cols, Integer.highestOneBit(per));
  }

  /** Number of ranges. */
  public int count() {
    return (cols + width - 1) / width;
  }

  /** First column of range i. */
  public int first(int i) {
    return i * width;
  }

  /** Columns in range i. */
  public int size(int i) {
    return Math.min(cols, (i + 1) * width) - i * width;
  }

  /** The tree level of each range's result: log2(width). */
  public int level() {
    return Integer.numberOfTrailingZeros(width);
  }

  /** The ranges' boundaries: range i is {@code [bounds[i], bounds[i+1])}, count + 1 entries. */
  public int[] bounds() {
    int[] b = new int[count() + 1];
    for (int i = 0; i < count(); i++) {
      b[i] = first(i);
    }
    b[count()] = cols;
    return b;
  }

  /** Range indices 0..count-1. */
  public List<Integer> indices() {
    List<Integer> l = new ArrayList<>();
    for (int i = 0; i < count(); i++) {
      l.add(i);
    }
    return l;
  }
}
