package org.jpir.core.query;

import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Security;
import org.jpir.core.wire.ClientQuery;
import org.jpir.vmp.Pmat;

/**
 * Server side: turns the query a client sent into the prepared query: regenerates every mask
 * from the seed, transforms each ciphertext and lays the phase-1 rows out as one PMAT and each
 * GGSW as its own. Not thread-safe (holds scratch).
 */
public final class QueryExpander {
  private final Params p;
  private final GlweOps ops;

  /**
   * An expander for preset {@code p}.
   *
   * @throws IllegalArgumentException for an insecure test preset without {@value
   *     Security#ALLOW_INSECURE_PROPERTY}
   */
  public QueryExpander(Params p) {
    this.p = Security.requireAllowed(p);
    this.ops = new GlweOps(p);
  }

  /**
   * The prepared query.
   *
   * @throws IllegalArgumentException when the query does not match the preset or the geometry
   */
  public PreparedQuery expand(ClientQuery q, Geometry g) {
    return new PreparedQuery(p.id(), q.rows(), q.cols(), expandPhase1(q, g), expandPhase2(q, g));
  }

  /**
   * Checks a query against the preset and the database's geometry without expanding it.
   *
   * @throws IllegalArgumentException naming the mismatch
   */
  public void check(ClientQuery q, Geometry g) {
    q.validate(p);
    if (q.rows() != g.rows() || q.cols() != g.cols()) {
      throw new IllegalArgumentException("query was made for " + q.rows() + " rows x " + q.cols()
          + " columns, the database has " + g.rows() + " x " + g.cols());
    }
  }

  /** Phase 1 only: the prepared matrix of the selection rows. */
  public Pmat expandPhase1(ClientQuery q, Geometry g) {
    check(q, g);
    int per = p.glweLimbs() * p.n();
    int lim = p.plaintextLimbs();
    Pmat phase1 = Pmat.allocate(p.n(), q.rows() * lim, p.glweColumns());
    double[] reim = new double[2 * per];
    for (int r = 0; r < q.rows(); r++) {
      for (int l = 0; l < lim; l++) {
        phase1.prepareRow(r * lim + l, ops.transformInto(q.phase1(p, r, l).expand(), reim), 0);
      }
    }
    return phase1;
  }

  /** Phase 2 only: one prepared GGSW per column bit. */
  public PreparedGgsw[] expandPhase2(ClientQuery q, Geometry g) {
    return expandPhase2(q, g, -1L);
  }

  /**
   * Phase 2 only, of the column levels that {@code levels} names (bit t: level t; -1: all; the
   * others null): what the driver's fold needs.
   */
  public PreparedGgsw[] expandPhase2(ClientQuery q, Geometry g, long levels) {
    check(q, g);
    PreparedGgsw[] ggsw = new PreparedGgsw[Geometry.levels(q.cols())];
    for (int t = 0; t < ggsw.length; t++) {
      if ((levels >>> t & 1) != 0) {
        ggsw[t] = ops.prepareForFold(q.ggsw(p, t).expand());
      }
    }
    return ggsw;
  }

}
