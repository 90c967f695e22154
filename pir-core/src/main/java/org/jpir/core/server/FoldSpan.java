package org.jpir.core.server;

import org.jpir.core.lwe.Glwe;

/**
 * The phase-2 CMux tree over the contiguous columns {@code [first, end)} of the grid, folded as
 * far as those columns allow: node k is the tree node at level {@code levels[k]} whose columns
 * start at {@code starts[k]} (it covers {@code [starts[k], min(cols, starts[k] + 2^levels[k]))}),
 * nodes in column order, the same node list for every query and plane; {@code nodes[q][plane][k]}
 * is that node's GLWE for query q. {@code index} is the span's position among the spans of its
 * tree level. The times (nanoseconds) are summed over every task that contributed.
 */
public record FoldSpan(int index, int first, int end, int[] levels, int[] starts,
    Glwe[][][] nodes, long phase1Nanos, long phase2Nanos, long expandNanos, long foldNanos,
    String executor) {

  /** Validates the node structure. */
  public FoldSpan {
    if (first < 0 || end <= first) {
      throw new IllegalArgumentException("span [" + first + ", " + end + ") is empty");
    }
    if (levels.length != starts.length || levels.length == 0) {
      throw new IllegalArgumentException("span [" + first + ", " + end + ") has " + levels.length
          + " levels and " + starts.length + " starts");
    }
    for (Glwe[][] q : nodes) {
      for (Glwe[] pl : q) {
        if (pl.length != levels.length) {
          throw new IllegalArgumentException("span [" + first + ", " + end + ") has "
              + levels.length + " nodes but a plane with " + pl.length);
        }
      }
    }
  }

  /** Number of queries carried. */
  public int queries() {
    return nodes.length;
  }

  /** Number of tree nodes per query and plane. */
  public int nodeCount() {
    return levels.length;
  }
}
