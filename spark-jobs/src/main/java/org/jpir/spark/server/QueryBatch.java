package org.jpir.spark.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jpir.core.query.AcceptedQuery;

/**
 * What a batch broadcasts when the executors expand its queries: each query's bytes as the
 * driver received them, the expansion of its kind (by id, once per kind), and each client's
 * evaluation-key bytes once per batch however many of its queries the batch holds, with their
 * SHA-256 (computed once, on the driver: the executors' key cache is keyed by it). Query i's
 * kind is {@code expansionIds[kindOf[i]]}, its keys {@code keys[keysOf[i]]} ({@code keysOf[i] =
 * -1}: none). Immutable.
 */
final class QueryBatch {
  private final String[] expansionIds;
  private final int[] kindOf;
  private final byte[][] queries;
  private final int[] keysOf;
  private final byte[][] keys;
  private final String[] keyDigests;

  /** A batch; the keys' digests are computed here. */
  QueryBatch(String[] expansionIds, int[] kindOf, byte[][] queries, int[] keysOf,
      byte[][] keys) {
    this(expansionIds, kindOf, queries, keysOf, keys, digests(keys));
  }

  /**
   * A batch with the keys' digests as computed by the driver ({@code keyDigests[k]} the hex
   * SHA-256 of {@code keys[k]}; the executors trust the driver).
   */
  QueryBatch(String[] expansionIds, int[] kindOf, byte[][] queries, int[] keysOf,
      byte[][] keys, String[] keyDigests) {
    int n = queries.length;
    if (keyDigests.length != keys.length) {
      throw new IllegalArgumentException("query batch of " + keys.length + " key blobs has "
          + keyDigests.length + " digests");
    }
    if (kindOf.length != n || keysOf.length != n) {
      throw new IllegalArgumentException("query batch of " + n + " queries has " + kindOf.length
          + " kinds and " + keysOf.length + " key indices");
    }
    for (int i = 0; i < n; i++) {
      if (kindOf[i] < 0 || kindOf[i] >= expansionIds.length || keysOf[i] < -1
          || keysOf[i] >= keys.length) {
        throw new IllegalArgumentException("query " + i + " of the batch names kind " + kindOf[i]
            + " of " + expansionIds.length + " and keys " + keysOf[i] + " of " + keys.length);
      }
    }
    this.expansionIds = expansionIds;
    this.kindOf = kindOf;
    this.queries = queries;
    this.keysOf = keysOf;
    this.keys = keys;
    this.keyDigests = keyDigests;
  }

  private static String[] digests(byte[][] keys) {
    String[] d = new String[keys.length];
    for (int k = 0; k < keys.length; k++) {
      d[k] = ExecutorCache.sha256(keys[k]);
    }
    return d;
  }

  /** The batch of {@code accepted}, each client's keys and each kind named once. */
  static QueryBatch of(List<AcceptedQuery> accepted) {
    int n = accepted.size();
    List<String> ids = new ArrayList<>();
    Map<String, Integer> idIndex = new HashMap<>();
    List<byte[]> keyList = new ArrayList<>();
    Map<String, Integer> clientIndex = new HashMap<>();
    int[] kindOf = new int[n];
    int[] keysOf = new int[n];
    byte[][] qs = new byte[n][];
    for (int i = 0; i < n; i++) {
      AcceptedQuery q = accepted.get(i);
      String id = q.expansion().id();
      kindOf[i] = idIndex.computeIfAbsent(id, k -> {
        ids.add(k);
        return ids.size() - 1;
      });
      qs[i] = q.wire();
      if (q.keys() == null) {
        keysOf[i] = -1;
      } else {
        keysOf[i] = clientIndex.computeIfAbsent(id + "/" + q.client(), k -> {
          keyList.add(q.keys());
          return keyList.size() - 1;
        });
      }
    }
    return new QueryBatch(ids.toArray(new String[0]), kindOf, qs, keysOf,
        keyList.toArray(new byte[0][]));
  }

  /** Number of queries. */
  int size() {
    return queries.length;
  }

  /** Query i's bytes. */
  byte[] query(int i) {
    return queries[i];
  }

  /** The expansion id of query i's kind. */
  String expansionId(int i) {
    return expansionIds[kindOf[i]];
  }

  /** Query i's client's key bytes, or null. */
  byte[] keys(int i) {
    return keysOf[i] < 0 ? null : keys[keysOf[i]];
  }

  /** The SHA-256 (hex) of query i's key bytes, or null. */
  String keysDigest(int i) {
    return keysOf[i] < 0 ? null : keyDigests[keysOf[i]];
  }

  /** Distinct key blobs carried (each client's once). */
  int keyCount() {
    return keys.length;
  }

  String[] expansionIds() {
    return expansionIds;
  }

  int[] kindOf() {
    return kindOf;
  }

  byte[][] queries() {
    return queries;
  }

  int[] keysOf() {
    return keysOf;
  }

  byte[][] keyBlobs() {
    return keys;
  }

  String[] keyDigests() {
    return keyDigests;
  }
}
