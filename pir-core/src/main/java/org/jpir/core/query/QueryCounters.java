package org.jpir.core.query;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.jpir.core.lwe.PreparedGgsw;

/**
 * How often this JVM decoded and expanded each query, keyed by the identity of the byte array the
 * query's bytes arrived in (the driver's array as read, an executor's as deserialized; an entry
 * goes with its array), and which GGSW levels it expanded alone for the root of the fold. The
 * answer path promises one decode and one expansion per query per executor JVM, and a driver
 * that expands only the levels its fold uses; tests assert it here. Thread-safe.
 */
public final class QueryCounters {
  /** {@code [decodes, expansions, levels]} per byte array, by identity (levels: a bit set). */
  private static final Map<byte[], long[]> COUNTS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private QueryCounters() {}

  /** Counts one decode of {@code wire}. */
  public static void decoded(byte[] wire) {
    add(wire, 0, 1);
  }

  /** Counts one expansion of the query that arrived as {@code wire}. */
  public static void expanded(byte[] wire) {
    add(wire, 1, 1);
  }

  /** Notes the levels of the non-null GGSWs of a phase-2-only expansion of {@code wire}. */
  public static void expandedLevels(byte[] wire, PreparedGgsw[] ggsw) {
    long levels = 0;
    for (int t = 0; t < ggsw.length; t++) {
      levels |= ggsw[t] == null ? 0 : 1L << t;
    }
    synchronized (COUNTS) {
      COUNTS.computeIfAbsent(wire, w -> new long[3])[2] |= levels;
    }
  }

  /** Decodes of {@code wire} in this JVM so far. */
  public static int decodes(byte[] wire) {
    return (int) get(wire, 0);
  }

  /** Expansions of the query that arrived as {@code wire} in this JVM so far. */
  public static int expansions(byte[] wire) {
    return (int) get(wire, 1);
  }

  /**
   * The GGSW levels (bit t: level t) this JVM expanded alone, for a fold's root, of the query
   * that arrived as {@code wire} (0: none).
   */
  public static long expandedLevels(byte[] wire) {
    return get(wire, 2);
  }

  private static void add(byte[] wire, int what, long n) {
    synchronized (COUNTS) {
      COUNTS.computeIfAbsent(wire, w -> new long[3])[what] += n;
    }
  }

  private static long get(byte[] wire, int what) {
    synchronized (COUNTS) {
      long[] c = COUNTS.get(wire);
      return c == null ? 0 : c[what];
    }
  }
}
