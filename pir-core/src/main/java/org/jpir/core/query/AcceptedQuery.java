package org.jpir.core.query;

import java.util.function.Supplier;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.vmp.Pmat;

/**
 * A query its {@link QueryKind} accepted on the driver: the bytes exactly as received (what the
 * executors get), the client whose evaluation keys it needs and those keys' bytes (both null for
 * kinds without keys), and the driver's share of its answer: the phase-2 GGSWs (computed on
 * first use, once) and an optional packing key. Thread-safe.
 */
public final class AcceptedQuery {
  private final QueryExpansion expansion;
  private final byte[] wire;
  private final String client;
  private final byte[] keys;
  private final Pmat packing;
  private final Supplier<PreparedGgsw[]> phase2;
  private final Supplier<PreparedQuery> expand;
  private PreparedGgsw[] ggsw;

  /**
   * An accepted query; {@code phase2} computes its GGSWs, {@code expand} its whole prepared
   * query, both on the driver.
   */
  AcceptedQuery(QueryExpansion expansion, byte[] wire, String client, byte[] keys,
      Pmat packing, Supplier<PreparedGgsw[]> phase2, Supplier<PreparedQuery> expand) {
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

  /** The phase-2 GGSWs, one per column level (computed once, on first use). */
  public synchronized PreparedGgsw[] phase2() {
    if (ggsw == null) {
      ggsw = phase2.get();
    }
    return ggsw;
  }

  /** The whole prepared query, expanded here (the driver-expansion path). */
  public PreparedQuery expand() {
    return expand.get();
  }
}
