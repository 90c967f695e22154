package org.jpir.core.server;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.Geometry;
import org.jpir.core.query.PreparedQuery;
import org.jpir.vmp.Pvec;

/**
 * The phase-2 CMux tree of a grid of {@code cols} columns cut into contiguous spans of any width:
 * the node at level t starting at column s (s a multiple of 2^t) is {@code CMux(ggsw[t], left,
 * right)} of its two children at level t-1, or its left child unchanged when the right child
 * would start at or after {@code cols} (as {@link PirServer#fold}). A span is answered as its
 * aligned blocks ({@link #blocks}), and contiguous spans merge in column order ({@link #merge})
 * into the same nodes the whole tree has, so any grouping of contiguous spans gives the root.
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

  /**
   * Phase 1 and phase 2 over a partition's prepared columns (all of {@code db}) for a batch:
   * each aligned block answered by {@link PirServer#answerRange}, then merged. Adds the phase
   * times to {@code t}.
   */
  public FoldSpan answer(PirServer server, PreparedDatabase db, PreparedQuery[] qs, int index,
      PirServer.Timings t, long expandNanos, String executor) {
    int first = db.firstColumn();
    int end = first + db.columnCount();
    List<int[]> bl = blocks(first, end);
    int planes = db.geometry().planes();
    int[] levels = new int[bl.size()];
    int[] starts = new int[bl.size()];
    Glwe[][][] nodes = new Glwe[qs.length][planes][bl.size()];
    for (int k = 0; k < bl.size(); k++) {
      int s = bl.get(k)[1];
      int len = (int) Math.min(cols, (long) s + (1L << bl.get(k)[0])) - s;
      Pvec[][] sub = new Pvec[planes][];
      for (int pl = 0; pl < planes; pl++) {
        sub[pl] = Arrays.copyOfRange(db.plane(pl), s - first, s - first + len);
      }
      PreparedDatabase part = db.columnCount() == len ? db
          : PreparedDatabase.of(db.params(), db.geometry(), s, sub);
      Glwe[][] r = server.answerRange(part, qs, t);
      levels[k] = bl.get(k)[0];
      starts[k] = s;
      for (int q = 0; q < qs.length; q++) {
        for (int pl = 0; pl < planes; pl++) {
          nodes[q][pl][k] = r[q][pl];
        }
      }
    }
    PreparedGgsw[][] ggsw = new PreparedGgsw[qs.length][];
    for (int q = 0; q < qs.length; q++) {
      ggsw[q] = qs[q].ggsw();
    }
    FoldSpan raw = new FoldSpan(index, first, end, levels, starts, nodes,
        t == null ? 0 : t.phase1Nanos, t == null ? 0 : t.phase2Nanos, expandNanos, 0, executor);
    return merge(server, List.of(raw), index, ggsw, executor);
  }

  /**
   * Merges spans that are contiguous in the given order (each starts where the previous ends)
   * into one span over their union, folding every pair of sibling nodes with {@code ggsw[q][t]}
   * (only levels at or above the spans' lowest node level are read) and raising every node
   * without a sibling in the grid; the result has at most {@code 2 * height + 1} nodes.
   *
   * @throws IllegalArgumentException when the spans are not contiguous or carry other queries
   */
  public FoldSpan merge(PirServer server, List<FoldSpan> spans, int index, PreparedGgsw[][] ggsw,
      String executor) {
    if (spans.isEmpty()) {
      throw new IllegalArgumentException("nothing to merge");
    }
    int nq = spans.get(0).queries();
    int planes = spans.get(0).nodes()[0].length;
    long t0 = System.nanoTime();
    List<Integer> lv = new ArrayList<>();
    List<Integer> st = new ArrayList<>();
    List<Glwe[][]> node = new ArrayList<>(); // [q][plane] per stack entry
    long p1 = 0;
    long p2 = 0;
    long ex = 0;
    long fold = 0;
    int expect = spans.get(0).first();
    for (FoldSpan s : spans) {
      if (s.first() != expect || s.queries() != nq || s.nodes()[0].length != planes) {
        throw new IllegalArgumentException("span [" + s.first() + ", " + s.end() + ") with "
            + s.queries() + " queries does not continue at column " + expect + " with " + nq);
      }
      expect = s.end();
      p1 += s.phase1Nanos();
      p2 += s.phase2Nanos();
      ex += s.expandNanos();
      fold += s.foldNanos();
      for (int k = 0; k < s.nodeCount(); k++) {
        Glwe[][] g = new Glwe[nq][planes];
        for (int q = 0; q < nq; q++) {
          for (int pl = 0; pl < planes; pl++) {
            g[q][pl] = s.nodes()[q][pl][k];
          }
        }
        lv.add(s.levels()[k]);
        st.add(s.starts()[k]);
        node.add(g);
        reduce(server, lv, st, node, ggsw);
      }
    }
    int n = lv.size();
    int[] levels = new int[n];
    int[] starts = new int[n];
    Glwe[][][] nodes = new Glwe[nq][planes][n];
    for (int k = 0; k < n; k++) {
      levels[k] = lv.get(k);
      starts[k] = st.get(k);
      for (int q = 0; q < nq; q++) {
        for (int pl = 0; pl < planes; pl++) {
          nodes[q][pl][k] = node.get(k)[q][pl];
        }
      }
    }
    fold += System.nanoTime() - t0;
    return new FoldSpan(index, spans.get(0).first(), expect, levels, starts, nodes, p1, p2, ex,
        fold, executor);
  }

  /** Raises and folds the top of the stack until neither applies. */
  private void reduce(PirServer server, List<Integer> lv, List<Integer> st, List<Glwe[][]> node,
      PreparedGgsw[][] ggsw) {
    while (true) {
      int top = lv.size() - 1;
      int l = lv.get(top);
      int s = st.get(top);
      if (l < height && ((s >>> l) & 1) == 0 && (long) s + (1L << l) >= cols) {
        lv.set(top, l + 1); // no right sibling inside the grid: rises unchanged
        continue;
      }
      if (top >= 1 && lv.get(top - 1) == l && ((st.get(top - 1) >>> l) & 1) == 0
          && (long) st.get(top - 1) + (1L << l) == s) {
        Glwe[][] left = node.get(top - 1);
        Glwe[][] right = node.get(top);
        Glwe[][] up = new Glwe[left.length][left[0].length];
        for (int q = 0; q < left.length; q++) {
          if (ggsw[q] == null || l >= ggsw[q].length || ggsw[q][l] == null) {
            throw new IllegalArgumentException("merging at level " + l + " needs query " + q
                + "'s GGSW of that level");
          }
          for (int pl = 0; pl < left[0].length; pl++) {
            up[q][pl] = server.fold(List.of(left[q][pl], right[q][pl]), l, l + 1, ggsw[q])
                .get(0);
          }
        }
        lv.remove(top);
        st.remove(top);
        node.remove(top);
        lv.set(top - 1, l + 1);
        node.set(top - 1, up);
        continue;
      }
      return;
    }
  }
}
