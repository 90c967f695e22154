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

  /** The narrowest power-of-two width that gives at most {@code maxPartitions} ranges. */
  public static ColumnPartitioning forPartitions(int cols, int maxPartitions) {
    if (maxPartitions < 1) {
      throw new IllegalArgumentException("partitions " + maxPartitions + " must be at least 1");
    }
    int per = (cols + maxPartitions - 1) / maxPartitions;
    int w = Integer.highestOneBit(Math.max(1, per));
    if (w < per) {
      w <<= 1;
    }
    return new ColumnPartitioning(cols, w);
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

  /** Range indices 0..count-1. */
  public List<Integer> indices() {
    List<Integer> l = new ArrayList<>();
    for (int i = 0; i < count(); i++) {
      l.add(i);
    }
    return l;
  }
}
