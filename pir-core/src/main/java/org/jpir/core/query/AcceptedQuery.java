package org.jpir.core.query;

import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.vmp.Pmat;

/**
 * A query its {@link QueryKind} accepted on the driver: the bytes exactly as received (what the
 * executors get), the client whose evaluation keys it needs and those keys' bytes (both null for
 * kinds without keys), the driver's share of its answer (an optional packing key), and the two
 * expansions of the decoded query its kind made: the whole prepared query, and the phase-2 GGSWs
 * of chosen levels (what the root of the fold needs). Thread-safe.
 */
public final class AcceptedQuery {
  private final QueryExpansion expansion;
  private final byte[] wire;
  private final String client;
  private final byte[] keys;
  private final Pmat packing;
  private final LongFunction<PreparedGgsw[]> phase2;
  private final Supplier<PreparedQuery> expand;

  /**
   * An accepted query; {@code phase2} computes the GGSWs of the levels its argument names (bit
   * t: level t), {@code expand} the whole prepared query, both in the accepting JVM.
   */
  AcceptedQuery(QueryExpansion expansion, byte[] wire, String client, byte[] keys,
      Pmat packing, LongFunction<PreparedGgsw[]> phase2, Supplier<PreparedQuery> expand) {
    this.expansion = expansion;
    this.wire = wire;
    this.client = client;
    this.keys = keys;
    this.packing = packing;
    this.phase2 = phase2;
    this.expand = expand;
  }

  /** The executors' half of the query's kind. */
  public QueryExpansion expansion() {
    return expansion;
  }

  /** The query's bytes as received (not copied: do not modify). */
  public byte[] wire() {
    return wire;
  }

  /** The client whose evaluation keys expand the query, or null when its kind needs none. */
  public String client() {
    return client;
  }

  /** That client's evaluation-key bytes as the server holds them (not copied), or null. */
  public byte[] keys() {
    return keys;
  }

  /** The client's prepared packing key when its answer shares one mask over planes, or null. */
  public Pmat packing() {
    return packing;
  }

  /**
   * The expansion of the phase-2 GGSWs alone: given a set of levels (bit t: level t), one entry
   * per column level, the GGSW of each level in the set, null for the others (each call expands
   * again).
   */
  public LongFunction<PreparedGgsw[]> phase2Expander() {
    return phase2;
  }

  /** The expansion of the whole prepared query, in this JVM (each call expands again). */
  public Supplier<PreparedQuery> expander() {
    return expand;
  }
}
