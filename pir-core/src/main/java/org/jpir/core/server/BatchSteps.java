package org.jpir.core.server;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryKind;
import org.jpir.core.wire.Answer;

/**
 * The one path that answers a batch of accepted queries ({@link QueryKind#accept}, which decodes
 * each query once), in steps that run wherever a transport puts them: {@link #ship} packs the
 * batch's bytes (queries and key fingerprints; the transport ships each fingerprint's key bytes
 * once, as a {@link KeySource}); {@link #answerRange} expands every query once per JVM and
 * answers a column range (phase 1 and the range's part of the CMux tree, {@link #answerSpan});
 * {@link #merge} and {@link #root} fold contiguous spans in column order ({@link #mergeSpans};
 * the root expands only the GGSW levels its own fold uses); {@link #answers} turns the root into
 * each query's answer.
 * {@link #answerAll} runs them all in one JVM (the library). Serializable: only the preset id,
 * the geometry and the cache bound travel. Thread-safe.
 *
 * <p>The tree over the columns ({@link ColumnTree}): the node at level t starting at column s (s
 * a multiple of 2^t) is {@code CMux(ggsw[t], left, right)} of its two children at level t-1, or
 * its left child unchanged when the right child would start at or after the last column (as
 * {@link PirServer#fold}). A span is answered as its aligned blocks, and contiguous spans merge in
 * column order into the same nodes the whole tree has, so any grouping of contiguous spans gives
 * the root.
 */
public final class BatchSteps implements Serializable {
  private static final long serialVersionUID = 1L;
  private final String paramsId;
  private final Geometry geometry;
  private final long cacheBytes;

  /**
   * The steps for a database of preset {@code p} and geometry {@code g}; a JVM's expanded
   * queries of one batch are cached within {@code cacheBytes} (beyond it they are expanded again
   * where needed).
   */
  public BatchSteps(Params p, Geometry g, long cacheBytes) {
    this.paramsId = p.id();
    this.geometry = g;
    this.cacheBytes = cacheBytes;
  }

  /** The geometry answered. */
  public Geometry geometry() {
    return geometry;
  }

  /**
   * The batch that travels to the column ranges: each query's bytes as received, each client's
   * key fingerprint once ({@link QueryBatch#of}; the key bytes stay in this JVM's batch).
   *
   * @throws IllegalArgumentException when a query was accepted for another server preset
   */
  public QueryBatch ship(List<AcceptedQuery> queries) {
    for (int i = 0; i < queries.size(); i++) {
      Params server = queries.get(i).expansion().server();
      if (!server.id().equals(paramsId)) {
        throw new IllegalArgumentException("query " + i + " of the batch ("
            + queries.get(i).expansion().id() + ") serves preset " + server.id() + ", this"
            + " database runs " + paramsId);
      }
    }
    return QueryBatch.of(queries);
  }

  /**
   * Every query of {@code b} expanded in this JVM ({@link QueryBatch#expanded}: once per query
   * and JVM however many ranges it answers; key bytes from {@code keys} where this JVM's
   * prepared keys miss), starting at query {@code floor(position * size)}; a query that another
   * range is expanding is passed over and waited for last, so concurrent ranges share the
   * expansions instead of queueing behind each other. The time spent joins {@code nanos[0]}.
   */
  public PreparedQuery[] expand(QueryBatch b, KeySource keys, double position, long[] nanos) {
    int nq = b.size();
    PreparedQuery[] qs = new PreparedQuery[nq];
    int start = (int) (position * nq);
    for (int k = 0; k < nq; k++) {
      int i = (start + k) % nq;
      qs[i] = b.expanded(i, geometry, cacheBytes, keys, nanos, false);
    }
    for (int i = 0; i < nq; i++) {
      if (qs[i] == null) {
        qs[i] = b.expanded(i, geometry, cacheBytes, keys, nanos, true);
      }
    }
    return qs;
  }

  /**
   * Phase 1 and the CMux tree inside the columns {@code db} holds, for every query of {@code b}:
   * the span of position {@code index} among the ranges, its nodes as far as the range folds
   * (key bytes from {@code keys} where this JVM's prepared keys miss).
   */
  public FoldSpan answerRange(QueryBatch b, KeySource keys, PreparedDatabase db, int index,
      String executor) {
    long[] expandNanos = new long[1];
    PreparedQuery[] qs = expand(b, keys, db.firstColumn() / (double) geometry.cols(),
        expandNanos);
    return answerSpan(new PirServer(Presets.byId(paramsId)), db, qs, index,
        new PirServer.Timings(), expandNanos[0], executor);
  }

  /**
   * Merges contiguous spans (any order in, column order used) into the span {@code index} of
   * the next level, with the GGSWs of this JVM's expansions of {@code b} (key bytes from {@code
   * keys} where this JVM's prepared keys miss).
   */
  public FoldSpan merge(QueryBatch b, KeySource keys, List<FoldSpan> spans, int index,
      String executor) {
    long[] expandNanos = new long[1];
    PreparedQuery[] qs = expand(b, keys, 0, expandNanos);
    PreparedGgsw[][] ggsw = new PreparedGgsw[qs.length][];
    for (int q = 0; q < qs.length; q++) {
      ggsw[q] = qs[q].ggsw();
    }
    return mergeSpans(server(), geometry.cols(), ordered(spans), index, ggsw, executor);
  }

  /**
   * The root of the tree from the last spans (the driver's step), the paired tail's half selected
   * ({@link PirServer#selectTailHalf}): the GGSWs of this JVM's
   * expansions where it holds them (it answered ranges too), else each accepted query's phase-2
   * GGSWs of only the levels this fold uses ({@link #foldLevels}; {@link
   * AcceptedQuery#phase2Expander}, computed here; the time joins {@code expandNanos[0]}).
   *
   * @throws IllegalStateException when the spans do not fold to the whole tree
   */
  public FoldSpan root(QueryBatch b, List<FoldSpan> spans, long[] expandNanos) {
    List<FoldSpan> ordered = ordered(spans);
    long t0 = System.nanoTime();
    long levels = foldLevels(geometry.cols(), ordered);
    if (geometry.pairedTail() && geometry.cols() > 1) {
      levels |= 1L; // column bit 0 selects the paired tail's half (PirServer.selectTailHalf)
    }
    PreparedGgsw[][] ggsw = new PreparedGgsw[b.size()][];
    for (int q = 0; q < ggsw.length; q++) {
      PreparedQuery held = b.cachedExpansion(q);
      ggsw[q] = held != null ? held.ggsw() : b.accepted(q).phase2Expander().apply(levels);
    }
    expandNanos[0] += System.nanoTime() - t0;
    PirServer server = server();
    FoldSpan root = mergeSpans(server, geometry.cols(), ordered, 0, ggsw, "driver");
    if (root.first() != 0 || root.end() != geometry.cols() || root.nodeCount() != 1) {
      throw new IllegalStateException("the fold ended with " + root.nodeCount() + " nodes over"
          + " columns [" + root.first() + ", " + root.end() + ") of " + geometry.cols());
    }
    long t1 = System.nanoTime();
    for (int q = 0; q < ggsw.length; q++) { // the root is this method's own: its nodes change here
      Glwe[] planeRoots = new Glwe[geometry.planes()];
      for (int pl = 0; pl < planeRoots.length; pl++) {
        planeRoots[pl] = root.nodes()[q][pl][0];
      }
      server.selectTailHalf(planeRoots, geometry, ggsw[q]);
      root.nodes()[q][geometry.planes() - 1][0] = planeRoots[geometry.planes() - 1];
    }
    return new FoldSpan(root.index(), root.first(), root.end(), root.levels(), root.starts(),
        root.nodes(), root.phase1Nanos(), root.phase2Nanos(), root.expandNanos(),
        root.foldNanos() + System.nanoTime() - t1, root.executor());
  }

  private PirServer server() {
    return new PirServer(Presets.byId(paramsId));
  }

  private static List<FoldSpan> ordered(List<FoldSpan> spans) {
    List<FoldSpan> ordered = new ArrayList<>(spans);
    ordered.sort(Comparator.comparingInt(FoldSpan::first));
    return ordered;
  }

  /**
   * Each query's answer from the root: the planes' GLWEs switched ({@link PirServer#toAnswer}),
   * or packed under one mask when the accepted query carries its client's packing key.
   */
  public Answer[] answers(QueryBatch b, FoldSpan root) {
    PirServer server = server();
    Answer[] out = new Answer[b.size()];
    for (int q = 0; q < out.length; q++) {
      Glwe[] roots = new Glwe[geometry.planes()];
      for (int pl = 0; pl < roots.length; pl++) {
        roots[pl] = root.nodes()[q][pl][0];
      }
      AcceptedQuery a = b.accepted(q);
      out[q] = a != null && a.packing() != null
          ? server.toSharedAnswer(roots, geometry, a.packing())
          : server.toAnswer(roots, geometry);
    }
    return out;
  }

  /**
   * Answers {@code queries} over the whole database {@code db} in this JVM with the same steps
   * (one range, the root, the answers).
   */
  public Answer[] answerAll(PreparedDatabase db, List<AcceptedQuery> queries) {
    QueryBatch b = ship(queries);
    FoldSpan span = answerRange(b, b.heldKeys(), db, 0, "local");
    return answers(b, root(b, List.of(span), new long[1]));
  }

  /**
   * Phase 1 and phase 2 over a partition's prepared columns (all of {@code db}) for prepared
   * queries: each aligned block ({@link ColumnTree#blocks}) answered by {@link
   * PirServer#answerRange}, then merged; the span of position {@code index}. Adds the phase times
   * to {@code t}.
   */
  public static FoldSpan answerSpan(PirServer server, PreparedDatabase db, PreparedQuery[] qs,
      int index, PirServer.Timings t, long expandNanos, String executor) {
    int cols = db.geometry().cols();
    int first = db.firstColumn();
    int end = first + db.columnCount();
    List<int[]> bl = new ColumnTree(cols).blocks(first, end);
    int planes = db.geometry().planes();
    int[] levels = new int[bl.size()];
    int[] starts = new int[bl.size()];
    Glwe[][][] nodes = new Glwe[qs.length][planes][bl.size()];
    for (int k = 0; k < bl.size(); k++) {
      int s = bl.get(k)[1];
      int len = (int) Math.min(cols, (long) s + (1L << bl.get(k)[0])) - s;
      PreparedDatabase part = db.slice(s, len);
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
    return mergeSpans(server, cols, List.of(raw), index, ggsw, executor);
  }

  /**
   * Merges spans of a grid of {@code cols} columns that are contiguous in the given order (each
   * starts where the previous ends) into one span over their union, folding every pair of sibling nodes with {@code ggsw[q][t]}
   * (only the levels {@link #foldLevels} names are read) and raising every node without a sibling
   * in the grid; the result has at most {@code 2 * height + 1} nodes.
   *
   * @throws IllegalArgumentException when the spans are not contiguous or carry other queries
   */
  public static FoldSpan mergeSpans(PirServer server, int cols, List<FoldSpan> spans, int index,
      PreparedGgsw[][] ggsw, String executor) {
    return fold(server, cols, spans, index, ggsw, executor, null);
  }

  /**
   * The levels (bit t: level t) at which {@link #mergeSpans} of {@code spans} (contiguous, in
   * column order) over a grid of {@code cols} columns folds sibling nodes: the only GGSW levels it
   * reads. Nothing is computed but the tree's shape.
   *
   * @throws IllegalArgumentException when the spans are not contiguous
   */
  public static long foldLevels(int cols, List<FoldSpan> spans) {
    long[] used = new long[1];
    fold(null, cols, spans, 0, null, "", used);
    return used[0];
  }

  /** The merge; with {@code used} non-null only the levels of its folds are noted there. */
  private static FoldSpan fold(PirServer server, int cols, List<FoldSpan> spans, int index,
      PreparedGgsw[][] ggsw, String executor, long[] used) {
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
    long foldNanos = 0;
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
      foldNanos += s.foldNanos();
      for (int k = 0; k < s.nodeCount(); k++) {
        Glwe[][] g = used != null ? null : new Glwe[nq][planes];
        for (int q = 0; q < nq && g != null; q++) {
          for (int pl = 0; pl < planes; pl++) {
            g[q][pl] = s.nodes()[q][pl][k];
          }
        }
        lv.add(s.levels()[k]);
        st.add(s.starts()[k]);
        node.add(g);
        reduce(server, cols, lv, st, node, ggsw, used);
      }
    }
    if (used != null) {
      return null;
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
    foldNanos += System.nanoTime() - t0;
    return new FoldSpan(index, spans.get(0).first(), expect, levels, starts, nodes, p1, p2, ex,
        foldNanos, executor);
  }

  /** Raises and folds the top of the stack until neither applies. */
  private static void reduce(PirServer server, int cols, List<Integer> lv, List<Integer> st,
      List<Glwe[][]> node, PreparedGgsw[][] ggsw, long[] used) {
    int height = Geometry.levels(cols);
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
        Glwe[][] up = left == null ? null : new Glwe[left.length][left[0].length];
        if (used != null) {
          used[0] |= 1L << l;
        }
        for (int q = 0; up != null && q < left.length; q++) {
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
