package org.jpir.core.query;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * How often this JVM decoded and expanded each query, keyed by the identity of the byte array the
 * query's bytes arrived in (the driver's array as read, an executor's as deserialized; an entry
 * goes with its array). The answer path promises one decode and one expansion per query per
 * executor JVM; tests assert it here. Thread-safe.
 */
public final class QueryCounters {
  /** {@code [decodes, expansions]} per byte array, by identity (arrays do not override equals). */
  private static final Map<byte[], int[]> COUNTS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private QueryCounters() {}

  /** Counts one decode of {@code wire}. */
  public static void decoded(byte[] wire) {
    add(wire, 0);
  }

  /** Counts one expansion of the query that arrived as {@code wire}. */
  public static void expanded(byte[] wire) {
    add(wire, 1);
  }

  /** Decodes of {@code wire} in this JVM so far. */
  public static int decodes(byte[] wire) {
    return get(wire, 0);
  }

  /** Expansions of the query that arrived as {@code wire} in this JVM so far. */
  public static int expansions(byte[] wire) {
    return get(wire, 1);
  }

  private static void add(byte[] wire, int what) {
    synchronized (COUNTS) {
      COUNTS.computeIfAbsent(wire, w -> new int[2])[what]++;
    }
  }

  private static int get(byte[] wire, int what) {
    synchronized (COUNTS) {
      int[] c = COUNTS.get(wire);
      return c == null ? 0 : c[what];
    }
  }
}
