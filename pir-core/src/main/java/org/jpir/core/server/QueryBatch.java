package org.jpir.core.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.function.Supplier;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jpir.core.params.Geometry;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.PreparedEvaluationKeys;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryCounters;
import org.jpir.core.query.QueryExpansion;

/**
 * A batch of accepted queries as it travels, and its expansion where it lands. It carries each
 * query's bytes as the driver received them, the expansion of its kind (by id, once per kind),
 * each client's evaluation-key bytes once however many of its queries the batch holds, with their
 * SHA-256 (computed once, on the driver: the key cache is keyed by it), and the batch's number
 * (increasing in the driver's JVM). Query i's kind is {@code expansionIds[kindOf[i]]}, its keys
 * {@code keys[keysOf[i]]} ({@code keysOf[i] = -1}: none). In the JVM that accepted the queries
 * the batch also holds them ({@link #accepted}), so that JVM expands their decoded form instead
 * of decoding the bytes again; a deserialized copy holds only the bytes. Immutable.
 */
public final class QueryBatch {
  private static final AtomicLong NUMBERS = new AtomicLong();
  /** Expanded queries of this JVM by batch number and position, released when a newer batch starts. */
  private static final ExpansionCache<PreparedQuery> EXPANDED =
      new ExpansionCache<>("expanded queries");
  /** Prepared evaluation keys of this JVM by kind and key digest, kept across batches. */
  private static final ExpansionCache<PreparedEvaluationKeys> KEYS =
      new ExpansionCache<>("prepared evaluation keys");

  private final long number;
  private final String[] expansionIds;
  private final int[] kindOf;
  private final byte[][] queries;
  private final int[] keysOf;
  private final byte[][] keys;
  private final String[] keyDigests;
  private final transient List<AcceptedQuery> accepted;

  /** A batch numbered 0 (tests); the keys' digests are computed here. */
  public QueryBatch(String[] expansionIds, int[] kindOf, byte[][] queries, int[] keysOf,
      byte[][] keys) {
    this(0, expansionIds, kindOf, queries, keysOf, keys, digests(keys));
  }

  /** A batch numbered 0 (tests) with the given key digests. */
  public QueryBatch(String[] expansionIds, int[] kindOf, byte[][] queries, int[] keysOf,
      byte[][] keys, String[] keyDigests) {
    this(0, expansionIds, kindOf, queries, keysOf, keys, keyDigests);
  }

  /**
   * A batch as deserialized: {@code keyDigests[k]} the hex SHA-256 of {@code keys[k]}, as the
   * driver computed it (the executors trust the driver).
   *
   * @throws IllegalArgumentException when the indices are inconsistent
   */
  public QueryBatch(long number, String[] expansionIds, int[] kindOf, byte[][] queries,
      int[] keysOf, byte[][] keys, String[] keyDigests) {
    this(number, expansionIds, kindOf, queries, keysOf, keys, keyDigests, null);
  }

  private QueryBatch(long number, String[] expansionIds, int[] kindOf, byte[][] queries,
      int[] keysOf, byte[][] keys, String[] keyDigests, List<AcceptedQuery> accepted) {
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
    this.number = number;
    this.expansionIds = expansionIds;
    this.kindOf = kindOf;
    this.queries = queries;
    this.keysOf = keysOf;
    this.keys = keys;
    this.keyDigests = keyDigests;
    this.accepted = accepted;
  }

  private static String[] digests(byte[][] keys) {
    String[] d = new String[keys.length];
    for (int k = 0; k < keys.length; k++) {
      d[k] = sha256(keys[k]);
    }
    return d;
  }

  /** Hex SHA-256 of the concatenated parts, each preceded by its length (4 bytes, big-endian). */
  public static String sha256(byte[]... parts) {
    return ExpansionCache.sha256(parts);
  }

  /** The batch of {@code accepted}, numbered next in this JVM, each client's keys and kind once. */
  public static QueryBatch of(List<AcceptedQuery> accepted) {
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
    byte[][] keys = keyList.toArray(new byte[0][]);
    return new QueryBatch(NUMBERS.incrementAndGet(), ids.toArray(new String[0]), kindOf, qs,
        keysOf, keys, digests(keys), List.copyOf(accepted));
  }

  /**
   * Query i expanded in this JVM, once per batch (cached by the batch's number and i, within
   * {@code cacheBytes}): from its accepted form where this JVM accepted it, else decoded from its
   * bytes with its client's keys (prepared once per JVM). The time an expansion takes joins
   * {@code nanos[0]}.
   *
   * @throws IllegalArgumentException when the bytes or the keys do not match {@code g}
   */
  public PreparedQuery expanded(int i, Geometry g, long cacheBytes, long[] nanos) {
    return expanded(i, g, cacheBytes, nanos, true);
  }

  /**
   * As {@link #expanded(int, Geometry, long, long[])}, but null at once while another thread of
   * this JVM is expanding query i (so that the caller expands another query meanwhile).
   */
  public PreparedQuery expandedUnlessBusy(int i, Geometry g, long cacheBytes, long[] nanos) {
    return expanded(i, g, cacheBytes, nanos, false);
  }

  private PreparedQuery expanded(int i, Geometry g, long cacheBytes, long[] nanos,
      boolean wait) {
    QueryExpansion ex = QueryExpansion.byId(expansionId(i));
    Supplier<PreparedQuery> compute = () -> {
          long t0 = System.nanoTime();
          PreparedQuery pq;
          if (accepted != null) {
            pq = accepted.get(i).expand();
          } else {
            PreparedEvaluationKeys pk = keysOf[i] < 0 ? null
                : KEYS.get(ex.id() + ":" + keyDigests[keysOf[i]], 0, ex.preparedKeysBytes(),
                    cacheBytes, () -> ex.prepareKeys(keys[keysOf[i]]));
            pq = ex.expand(queries[i], pk, g);
          }
          QueryCounters.expanded(queries[i]);
          nanos[0] += System.nanoTime() - t0;
          return pq;
        };
    long bytes = PreparedQuery.bytesFor(ex.server(), g);
    return wait ? EXPANDED.get(expansionKey(i), number, bytes, cacheBytes, compute)
        : EXPANDED.getUnlessBusy(expansionKey(i), number, bytes, cacheBytes, compute);
  }

  /** Query i as this JVM expanded it for this batch and still holds, or null (never expands). */
  public PreparedQuery cachedExpansion(int i) {
    return EXPANDED.peek(expansionKey(i));
  }

  private String expansionKey(int i) {
    return "batch " + number + " query " + i;
  }

  /** The accepted query i where this JVM accepted it, else null (a deserialized copy). */
  public AcceptedQuery accepted(int i) {
    return accepted == null ? null : accepted.get(i);
  }

  /** The batch's number in the driver's JVM (0: made by hand). */
  public long number() {
    return number;
  }

  /** Number of queries. */
  public int size() {
    return queries.length;
  }

  /** Query i's bytes as received (not copied). */
  public byte[] query(int i) {
    return queries[i];
  }

  /** The expansion id of query i's kind. */
  public String expansionId(int i) {
    return expansionIds[kindOf[i]];
  }

  /** Query i's client's key bytes, or null. */
  public byte[] keys(int i) {
    return keysOf[i] < 0 ? null : keys[keysOf[i]];
  }

  /** The SHA-256 (hex) of query i's key bytes, or null. */
  public String keysDigest(int i) {
    return keysOf[i] < 0 ? null : keyDigests[keysOf[i]];
  }

  /** Distinct key blobs carried (each client's once). */
  public int keyCount() {
    return keys.length;
  }

  /** The distinct expansion ids (serializers). */
  public String[] expansionIds() {
    return expansionIds;
  }

  /** Query i's index into {@link #expansionIds} (serializers). */
  public int[] kindOf() {
    return kindOf;
  }

  /** Every query's bytes (serializers). */
  public byte[][] queries() {
    return queries;
  }

  /** Query i's index into {@link #keyBlobs}, -1 for none (serializers). */
  public int[] keysOf() {
    return keysOf;
  }

  /** The distinct key blobs (serializers). */
  public byte[][] keyBlobs() {
    return keys;
  }

  /** The key blobs' hex SHA-256 digests (serializers). */
  public String[] keyDigests() {
    return keyDigests;
  }

  /** Drops this JVM's cached expansions and keys (tests). */
  static void clearCaches() {
    EXPANDED.clear();
    KEYS.clear();
  }
}
