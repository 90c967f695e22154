package org.jpir.core.query;

import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.Sizes;
import org.jpir.core.wire.Wire;

/**
 * Classic queries ({@code *.query}): the client sends the seeded selection ciphertexts of both
 * phases ({@link ClientQuery}); no evaluation keys are needed.
 */
public final class ClassicQueries implements QueryKind {
  /** The kind's name and expansion-id prefix. */
  public static final String NAME = "classic";

  private final Params p;
  private final Expansion expansion;

  /** Classic queries for the database preset {@code p}. */
  public ClassicQueries(Params p) {
    if (p == null) {
      throw new IllegalArgumentException("preset is null");
    }
    this.p = p;
    this.expansion = new Expansion(p);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String suffix() {
    return ".query";
  }

  @Override
  public long maxQueryBytes(Geometry g) {
    return Wire.maxQueryBytes(p, g);
  }

  @Override
  public AcceptedQuery accept(byte[] wire, Geometry g) {
    // the decoder validates the query and checks it against the geometry
    ClientQuery q = Wire.readQuery(wire, p, g);
    QueryCounters.decoded(wire);
    QueryExpander ex = new QueryExpander(p);
    return new AcceptedQuery(expansion, wire, null, null, null, levels -> {
      PreparedGgsw[] ggsw = ex.expandPhase2(q, g, levels);
      QueryCounters.expandedLevels(wire, ggsw);
      return ggsw;
    }, () -> ex.expand(q, g));
  }

  /** {@link #accept} of a query held in memory (its wire form is what travels). */
  public AcceptedQuery accept(ClientQuery q, Geometry g) {
    return accept(Wire.writeQuery(q), g);
  }

  @Override
  public QueryExpansion expansion() {
    return expansion;
  }

  /** The executors' half: {@link QueryExpander} over the query's bytes. */
  static final class Expansion implements QueryExpansion {
    private final Params p;

    Expansion(Params p) {
      this.p = p;
    }

    @Override
    public String id() {
      return NAME + ":" + p.id();
    }

    @Override
    public Params server() {
      return p;
    }

    @Override
    public boolean needsKeys() {
      return false;
    }

    @Override
    public PreparedEvaluationKeys prepareKeys(byte[] keys) {
      throw new IllegalArgumentException("classic queries take no evaluation keys");
    }

    @Override
    public long preparedKeysBytes() {
      return 0;
    }

    @Override
    public long preparedQueryBytes(Geometry g) {
      return Sizes.preparedQuery(p, g);
    }

    @Override
    public PreparedQuery expand(byte[] query, PreparedEvaluationKeys keys, Geometry g) {
      ClientQuery q = Wire.readQuery(query, p, g);
      QueryCounters.decoded(query);
      return new QueryExpander(p).expand(q, g);
    }
  }
}
