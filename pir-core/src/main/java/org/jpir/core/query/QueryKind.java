package org.jpir.core.query;

import org.jpir.core.params.Geometry;

/**
 * A kind of query the server answers (classic, compact, ...). On the driver it decodes and
 * checks a query's bytes ({@link #accept}); the result holds the driver's share of the answer
 * (the phase-2 GGSWs, an optional packing key) and the bytes that travel to the executors, which
 * expand them with {@link #expansion()}. Implementations: {@link ClassicQueries}, {@link
 * CompactQueries}; immutable and thread-safe.
 */
public interface QueryKind {
  /** {@code "classic"} or {@code "compact"}: for logs and error messages. */
  String name();

  /** The file suffix of this kind's query files, with the dot ({@code ".query"}). */
  String suffix();

  /** The largest valid query of this kind for {@code g}: reads of untrusted files stop there. */
  long maxQueryBytes(Geometry g);

  /**
   * Decodes {@code wire} for the database geometry {@code g} (every declared size checked
   * before allocating) and checks it against what the server holds (the client's keys).
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  AcceptedQuery accept(byte[] wire, Geometry g);

  /** The executors' half of this kind. */
  QueryExpansion expansion();
}
