package org.jpir.core.query;

import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.Sizes;
import org.jpir.core.wire.Wire;

/**
 * Compact queries ({@code *.cquery}): one packed GLWE per query that the server expands with
 * the client's evaluation keys ({@link CompactExpander}); accepted only for clients whose keys
 * the store holds, and only when the query was made for exactly those keys.
 */
public final class CompactQueries implements QueryKind {
  /** The kind's name and expansion-id prefix. */
  public static final String NAME = "compact";

  private final CompactParams cp;
  private final EvaluationKeyStore store;
  private final Expansion expansion;

  /** Compact queries of the clients whose keys {@code store} holds. */
  public CompactQueries(EvaluationKeyStore store) {
    if (store == null) {
      throw new IllegalArgumentException("evaluation key store is null");
    }
    this.store = store;
    this.cp = store.params();
    this.expansion = new Expansion(cp);
  }

  /** The compact preset. */
  public CompactParams params() {
    return cp;
  }

  /** The clients' keys. */
  public EvaluationKeyStore keys() {
    return store;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String suffix() {
    return ".cquery";
  }

  @Override
  public long maxQueryBytes(Geometry g) {
    return Wire.maxCompactQueryBytes(cp, g);
  }

  @Override
  public AcceptedQuery accept(byte[] wire, Geometry g) {
    CompactQuery q = Wire.readCompactQuery(wire, cp, g);
    QueryCounters.decoded(wire);
    PreparedEvaluationKeys k = store.keysFor(q);
    CompactExpander ex = new CompactExpander(cp);
    return new AcceptedQuery(expansion, wire, q.clientId(), store.heldWire(q.clientId()),
        store.packingKey(q.clientId(), g), levels -> {
          PreparedGgsw[] ggsw = ex.expandPhase2(q, k, null, levels);
          QueryCounters.expandedLevels(wire, ggsw);
          return ggsw;
        }, () -> ex.expand(q, k, null));
  }

  /** {@link #accept} of a query held in memory (its wire form is what travels). */
  public AcceptedQuery accept(CompactQuery q, Geometry g) {
    return accept(Wire.writeCompactQuery(q), g);
  }

  @Override
  public QueryExpansion expansion() {
    return expansion;
  }

  /** The executors' half: {@link CompactExpander} over the query's and the keys' bytes. */
  static final class Expansion implements QueryExpansion {
    private final CompactParams cp;

    Expansion(CompactParams cp) {
      this.cp = cp;
    }

    @Override
    public String id() {
      return NAME + ":" + cp.id();
    }

    @Override
    public Params server() {
      return cp.server();
    }

    @Override
    public boolean needsKeys() {
      return true;
    }

    @Override
    public PreparedEvaluationKeys prepareKeys(byte[] keys) {
      return PreparedEvaluationKeys.prepare(cp, Wire.readEvaluationKeys(keys, cp));
    }

    @Override
    public long preparedKeysBytes() {
      return Sizes.preparedKeys(cp);
    }

    @Override
    public long preparedQueryBytes(Geometry g) {
      return Sizes.preparedQuery(cp, g);
    }

    @Override
    public PreparedQuery expand(byte[] query, PreparedEvaluationKeys keys, Geometry g) {
      if (keys == null) {
        throw new IllegalArgumentException("compact queries need the client's evaluation keys");
      }
      CompactQuery q = Wire.readCompactQuery(query, cp, g);
      QueryCounters.decoded(query);
      return new CompactExpander(cp).expand(q, keys, null);
    }
  }
}
