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
import org.jpir.core.wire.Answer;

/**
 * The one path that answers a batch of accepted queries ({@link
 * org.jpir.core.query.QueryKind#accept}, which decodes each query once), in steps that run
 * wherever a transport puts them: {@link #ship} packs the batch's bytes; {@link #answerRange}
 * expands every query once per JVM and answers a column range (phase 1 and the range's part of
 * the CMux tree, {@link ColumnTree#answer}); {@link #merge} and {@link #root} fold contiguous
 * spans in column order ({@link ColumnTree#merge}); {@link #answers} turns the root into each
 * query's answer. {@link #answerAll} runs them all in one JVM (the library). Serializable: only
 * the preset id, the geometry and the cache bound travel. Thread-safe.
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
   * keys once ({@link QueryBatch#of}).
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
   * and JVM however many ranges it answers), starting at query {@code floor(position * size)};
   * a query that another range is expanding is passed over and waited for last, so concurrent
   * ranges share the expansions instead of queueing behind each other. The time spent joins
   * {@code nanos[0]}.
   */
  public PreparedQuery[] expand(QueryBatch b, double position, long[] nanos) {
    int nq = b.size();
    PreparedQuery[] qs = new PreparedQuery[nq];
    int start = (int) (position * nq);
    for (int k = 0; k < nq; k++) {
      int i = (start + k) % nq;
      qs[i] = b.expandedUnlessBusy(i, geometry, cacheBytes, nanos);
    }
    for (int i = 0; i < nq; i++) {
      if (qs[i] == null) {
        qs[i] = b.expanded(i, geometry, cacheBytes, nanos);
      }
    }
    return qs;
  }

  /**
   * Phase 1 and the CMux tree inside the columns {@code db} holds, for every query of {@code b}:
   * the span of position {@code index} among the ranges, its nodes as far as the range folds.
   */
  public FoldSpan answerRange(QueryBatch b, PreparedDatabase db, int index, String executor) {
    long[] expandNanos = new long[1];
    PreparedQuery[] qs = expand(b, db.firstColumn() / (double) geometry.cols(), expandNanos);
    PirServer.Timings t = new PirServer.Timings();
    return new ColumnTree(geometry.cols()).answer(new PirServer(Presets.byId(paramsId)), db, qs,
        index, t, expandNanos[0], executor);
  }

  /**
   * Merges contiguous spans (any order in, column order used) into the span {@code index} of
   * the next level, with the GGSWs of this JVM's expansions of {@code b}.
   */
  public FoldSpan merge(QueryBatch b, List<FoldSpan> spans, int index, String executor) {
    long[] expandNanos = new long[1];
    PreparedQuery[] qs = expand(b, 0, expandNanos);
    PreparedGgsw[][] ggsw = new PreparedGgsw[qs.length][];
    for (int q = 0; q < qs.length; q++) {
      ggsw[q] = qs[q].ggsw();
    }
    return fold(spans, index, ggsw, executor);
  }

  /**
   * The root of the tree from the last spans (the driver's step): the GGSWs of this JVM's
   * expansions where it holds them (it answered ranges too), else each accepted query's phase-2
   * GGSWs ({@link AcceptedQuery#phase2}, computed here; the time joins {@code expandNanos[0]}).
   *
   * @throws IllegalStateException when the spans do not fold to the whole tree
   */
  public FoldSpan root(QueryBatch b, List<FoldSpan> spans, long[] expandNanos) {
    long t0 = System.nanoTime();
    PreparedGgsw[][] ggsw = new PreparedGgsw[b.size()][];
    for (int q = 0; q < ggsw.length; q++) {
      PreparedQuery held = b.cachedExpansion(q);
      ggsw[q] = held != null ? held.ggsw() : b.accepted(q).phase2();
    }
    expandNanos[0] += System.nanoTime() - t0;
    FoldSpan root = fold(spans, 0, ggsw, "driver");
    if (root.first() != 0 || root.end() != geometry.cols() || root.nodeCount() != 1) {
      throw new IllegalStateException("the fold ended with " + root.nodeCount() + " nodes over"
          + " columns [" + root.first() + ", " + root.end() + ") of " + geometry.cols());
    }
    return root;
  }

  private FoldSpan fold(List<FoldSpan> spans, int index, PreparedGgsw[][] ggsw,
      String executor) {
    List<FoldSpan> ordered = new ArrayList<>(spans);
    ordered.sort(Comparator.comparingInt(FoldSpan::first));
    return new ColumnTree(geometry.cols()).merge(new PirServer(Presets.byId(paramsId)), ordered,
        index, ggsw, executor);
  }

  /**
   * Each query's answer from the root: the planes' GLWEs switched ({@link PirServer#toAnswer}),
   * or packed under one mask when the accepted query carries its client's packing key.
   */
  public Answer[] answers(QueryBatch b, FoldSpan root) {
    PirServer server = new PirServer(Presets.byId(paramsId));
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
    FoldSpan span = answerRange(b, db, 0, "local");
    return answers(b, root(b, List.of(span), new long[1]));
  }
}
