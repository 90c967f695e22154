package org.jpir.core.server;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jpir.core.params.Geometry;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.PreparedEvaluationKeys;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryCounters;
import org.jpir.core.query.QueryExpansion;

/**
 * A batch of accepted queries as it travels, and its expansion where it lands. It carries each
 * query's bytes as the driver received them, the expansion of its kind (by id, once per kind),
 * each client's key fingerprint once however many of its queries the batch holds (the hex SHA-256
 * of its evaluation-key bytes, computed on the driver: the prepared-key cache is keyed by it), and
 * the batch's number (increasing in the driver's JVM); it never carries key bytes. Query i's kind
 * is {@code expansionIds[kindOf[i]]}, its fingerprint {@code keyDigests[keysOf[i]]} ({@code
 * keysOf[i] = -1}: none). In the JVM that accepted the queries the batch also holds them ({@link
 * #accepted}) and the key bytes ({@link #heldKeyBytes}), so that JVM expands their decoded form
 * and the transport can ship each fingerprint's bytes once ({@link KeySource}); a deserialized
 * copy holds only the bytes of the queries and the fingerprints. Immutable. The JVM's expansions
 * and prepared keys are held in {@link ExpansionCache}s bounded in bytes.
 */
public final class QueryBatch {
  /** Most queries a batch may hold (checked when a batch is read back). */
  public static final int MAX_QUERIES = 1 << 16;
  /** Most kinds (expansion ids) a batch may hold. */
  public static final int MAX_KINDS = 64;
  /** Longest expansion id, in characters (ASCII). */
  public static final int MAX_ID_CHARS = 256;
  /** Most bytes of queries a batch may hold in all (the Kryo buffer the jobs allow). */
  public static final long MAX_QUERY_BYTES = 1L << 30;
  /** Bytes of a key fingerprint (SHA-256); its hex form has twice as many characters. */
  public static final int DIGEST_BYTES = 32;

  private static final AtomicLong NUMBERS = new AtomicLong();
  /** Expanded queries of this JVM by batch number and position, released when a newer batch starts. */
  private static final ExpansionCache<PreparedQuery> EXPANDED =
      new ExpansionCache<>("expanded queries");
  /** Prepared evaluation keys of this JVM by kind and key digest, kept across batches. */
  private static final ExpansionCache<PreparedEvaluationKeys> KEYS =
      new ExpansionCache<>("prepared evaluation keys");
  /** Key bytes this JVM resolved through a {@link KeySource} (its prepared-key cache missed). */
  private static final AtomicLong RESOLVED = new AtomicLong();
  /**
   * Digests of key arrays this JVM has hashed, by the array's identity (a byte array's equals is
   * identity; an entry goes with its array): a key store hands out the array it holds, which it
   * never modifies, so each client's keys are hashed once, not once per batch. A stale digest
   * could not pass unnoticed: {@link #expanded} checks resolved bytes against it.
   */
  private static final Map<byte[], String> DIGESTS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final long number;
  private final String[] expansionIds;
  private final int[] kindOf;
  private final byte[][] queries;
  private final int[] keysOf;
  private final String[] keyDigests;
  private final transient List<AcceptedQuery> accepted;
  private final transient byte[][] heldKeys;

  /**
   * A batch numbered 0 made by hand (tests), without accepted queries or key bytes.
   *
   * @throws IllegalArgumentException when the indices or the fingerprints are inconsistent
   */
  public QueryBatch(String[] expansionIds, int[] kindOf, byte[][] queries, int[] keysOf,
      String[] keyDigests) {
    this(0, expansionIds, kindOf, queries, keysOf, keyDigests, null, null);
  }

  /**
   * A batch as deserialized: {@code keyDigests[k]} the hex SHA-256 of the key bytes the driver
   * ships for fingerprint k (the executors check resolved bytes against it).
   *
   * @throws IllegalArgumentException when the indices or the fingerprints are inconsistent, or a
   *     count exceeds its bound ({@link #MAX_QUERIES}, {@link #MAX_KINDS}, {@link #MAX_ID_CHARS})
   */
  public QueryBatch(long number, String[] expansionIds, int[] kindOf, byte[][] queries,
      int[] keysOf, String[] keyDigests) {
    this(number, expansionIds, kindOf, queries, keysOf, keyDigests, null, null);
  }

  private QueryBatch(long number, String[] expansionIds, int[] kindOf, byte[][] queries,
      int[] keysOf, String[] keyDigests, List<AcceptedQuery> accepted, byte[][] heldKeys) {
    int n = queries.length;
    if (n > MAX_QUERIES || expansionIds.length > MAX_KINDS || keyDigests.length > n) {
      throw new IllegalArgumentException("query batch of " + n + " queries (at most "
          + MAX_QUERIES + "), " + expansionIds.length + " kinds (at most " + MAX_KINDS + ") and "
          + keyDigests.length + " key fingerprints (at most one per query)");
    }
    if (kindOf.length != n || keysOf.length != n) {
      throw new IllegalArgumentException("query batch of " + n + " queries has " + kindOf.length
          + " kinds and " + keysOf.length + " key indices");
    }
    for (String id : expansionIds) {
      if (id == null || id.length() > MAX_ID_CHARS) {
        throw new IllegalArgumentException("query batch names an expansion id that is null or"
            + " longer than " + MAX_ID_CHARS + " characters");
      }
    }
    for (String d : keyDigests) {
      if (!isDigest(d)) {
        throw new IllegalArgumentException("query batch names a key fingerprint that is not a"
            + " hex SHA-256");
      }
    }
    for (int i = 0; i < n; i++) {
      if (kindOf[i] < 0 || kindOf[i] >= expansionIds.length || keysOf[i] < -1
          || keysOf[i] >= keyDigests.length) {
        throw new IllegalArgumentException("query " + i + " of the batch names kind " + kindOf[i]
            + " of " + expansionIds.length + " and keys " + keysOf[i] + " of "
            + keyDigests.length);
      }
    }
    this.number = number;
    this.expansionIds = expansionIds;
    this.kindOf = kindOf;
    this.queries = queries;
    this.keysOf = keysOf;
    this.keyDigests = keyDigests;
    this.accepted = accepted;
    this.heldKeys = heldKeys;
  }

  private static boolean isDigest(String d) {
    if (d == null || d.length() != 2 * DIGEST_BYTES) {
      return false;
    }
    for (int i = 0; i < d.length(); i++) {
      char c = d.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /** Hex SHA-256 of the concatenated parts, each preceded by its length (4 bytes, big-endian). */
  public static String sha256(byte[]... parts) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (byte[] b : parts) {
        md.update(new byte[] {(byte) (b.length >>> 24), (byte) (b.length >>> 16),
            (byte) (b.length >>> 8), (byte) b.length});
        md.update(b);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The key fingerprint of {@code keys} ({@link #sha256}), hashed once per array in this JVM. */
  public static String keyDigest(byte[] keys) {
    String d = DIGESTS.get(keys);
    if (d == null) {
      d = sha256(keys);
      DIGESTS.put(keys, d);
    }
    return d;
  }

  /**
   * The batch of {@code accepted}, numbered next in this JVM, each kind and each key fingerprint
   * once; it holds the accepted queries and the key bytes for this JVM.
   */
  public static QueryBatch of(List<AcceptedQuery> accepted) {
    int n = accepted.size();
    List<String> ids = new ArrayList<>();
    Map<String, Integer> idIndex = new HashMap<>();
    List<String> digests = new ArrayList<>();
    List<byte[]> keyList = new ArrayList<>();
    Map<String, Integer> digestIndex = new HashMap<>();
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
        keysOf[i] = digestIndex.computeIfAbsent(keyDigest(q.keys()), d -> {
          digests.add(d);
          keyList.add(q.keys());
          return digests.size() - 1;
        });
      }
    }
    return new QueryBatch(NUMBERS.incrementAndGet(), ids.toArray(new String[0]), kindOf, qs,
        keysOf, digests.toArray(new String[0]), List.copyOf(accepted),
        keyList.toArray(new byte[0][]));
  }

  /**
   * Query i expanded in this JVM, once per batch (cached by the batch's number and i, within
   * {@code cacheBytes}): from its accepted form where this JVM accepted it, else decoded from its
   * bytes with its client's prepared keys, which come from this JVM's prepared-key cache (bounded
   * by {@code cacheBytes}, least recently used released first) or, when it misses, from the bytes
   * {@code keys} resolves for the fingerprint, checked against it and prepared once per JVM.
   * Unless {@code wait}, null at once while another thread of this JVM is expanding query i (so
   * that the caller expands another query meanwhile). The time an expansion takes joins {@code
   * nanos[0]}.
   *
   * @throws IllegalArgumentException when the bytes or the keys do not match {@code g}
   * @throws IllegalStateException when {@code keys} lacks the fingerprint's bytes, or its bytes
   *     do not hash to it
   */
  public PreparedQuery expanded(int i, Geometry g, long cacheBytes, KeySource keys,
      long[] nanos, boolean wait) {
    QueryExpansion ex = QueryExpansion.byId(expansionId(i));
    Supplier<PreparedQuery> compute = () -> {
      long t0 = System.nanoTime();
      PreparedQuery pq;
      if (accepted != null) {
        pq = accepted.get(i).expander().get();
      } else {
        String digest = keysOf[i] < 0 ? null : keyDigests[keysOf[i]];
        PreparedEvaluationKeys pk = digest == null ? null
            : KEYS.get(ex.id() + ":" + digest, 0, ex.preparedKeysBytes(), cacheBytes,
                () -> ex.prepareKeys(resolve(keys, digest)), true);
        pq = ex.expand(queries[i], pk, g);
      }
      QueryCounters.expanded(queries[i]);
      nanos[0] += System.nanoTime() - t0;
      return pq;
    };
    return EXPANDED.get(expansionKey(i), number, ex.preparedQueryBytes(g),
        cacheBytes, compute, wait);
  }

  /** The bytes of fingerprint {@code digest} from {@code keys}, checked to hash to it. */
  private static byte[] resolve(KeySource keys, String digest) {
    byte[] b = keys.keyBytes(digest);
    RESOLVED.incrementAndGet();
    if (b == null || !sha256(b).equals(digest)) {
      throw new IllegalStateException("the evaluation-key bytes shipped for key fingerprint "
          + digest + " do not hash to it");
    }
    return b;
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

  /** The fingerprint (hex SHA-256) of query i's client's key bytes, or null. */
  public String keysDigest(int i) {
    return keysOf[i] < 0 ? null : keyDigests[keysOf[i]];
  }

  /** Distinct key fingerprints named (each client's once). */
  public int keyCount() {
    return keyDigests.length;
  }

  /**
   * The key bytes of fingerprint k as the accepting JVM holds them (not copied), or null in a
   * deserialized copy, which carries no key bytes.
   */
  public byte[] heldKeyBytes(int k) {
    return heldKeys == null ? null : heldKeys[k];
  }

  /**
   * The key bytes this batch holds in the accepting JVM, by fingerprint (the one-JVM path and
   * tests); a deserialized copy's source holds none.
   */
  public KeySource heldKeys() {
    return digest -> {
      for (int k = 0; heldKeys != null && k < keyDigests.length; k++) {
        if (keyDigests[k].equals(digest)) {
          return heldKeys[k];
        }
      }
      return KeySource.NONE.keyBytes(digest);
    };
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

  /** Query i's index into {@link #keyDigests}, -1 for none (serializers). */
  public int[] keysOf() {
    return keysOf;
  }

  /** The key fingerprints, hex SHA-256 (serializers). */
  public String[] keyDigests() {
    return keyDigests;
  }

  /** Key bytes this JVM resolved through a {@link KeySource} so far (its prepared-key cache missed). */
  public static long keyResolutions() {
    return RESOLVED.get();
  }

  /** Drops this JVM's cached expansions and keys (tests). */
  static void clearCaches() {
    EXPANDED.clear();
    KEYS.clear();
  }

  /** Drops this JVM's prepared keys (tests: an executor whose bounded key cache evicted them). */
  public static void clearPreparedKeys() {
    KEYS.clear();
  }

  /**
   * A per-JVM cache of values that are expensive to compute (expanded queries, prepared evaluation
   * keys), bounded in bytes. Keys name the inputs (a batch and a position, or a SHA-256 digest).
   * Each key has one future: the first caller computes the value without holding any lock, later
   * callers for the same key wait for that future, and callers for other keys compute theirs in
   * parallel. Every entry carries the batch it was made for; {@link #get} first releases the
   * entries of older batches, so at most one batch is held (plus those of {@code batch = 0}, which
   * are kept until the byte bound needs the room, least recently used first). When a value does
   * not fit the bound even after that, it is computed and returned without being cached.
   */
  static final class ExpansionCache<V> {
    private final class Entry {
      final CompletableFuture<V> value = new CompletableFuture<>();
      final long batch;
      final long bytes;
      volatile long seq;

      Entry(long batch, long bytes, long seq) {
        this.batch = batch;
        this.bytes = bytes;
        this.seq = seq;
      }
    }

    private final String name;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong seq = new AtomicLong();
    private final AtomicLong computed = new AtomicLong();
    private final AtomicLong uncached = new AtomicLong();
    private volatile long newestBatch;

    ExpansionCache(String name) {
      this.name = name;
    }

    /**
     * The value of {@code key} for {@code batch} (0: not tied to a batch), computed by {@code
     * compute} on first use; {@code bytes} is the value's size, reserved against {@code limit}
     * before computing.
     */
    V get(String key, long batch, long bytes, long limit, Supplier<V> compute) {
      return get(key, batch, bytes, limit, compute, true);
    }

    /** As above; unless {@code wait}, null at once while another thread computes the value. */
    V get(String key, long batch, long bytes, long limit, Supplier<V> compute, boolean wait) {
      if (batch > newestBatch) {
        releaseBefore(batch);
      }
      Entry e = entries.get(key);
      if (e == null) {
        if (!reserve(bytes, limit)) {
          uncached.incrementAndGet();
          computed.incrementAndGet();
          return compute.get();
        }
        Entry mine = new Entry(batch, bytes, seq.incrementAndGet());
        e = entries.putIfAbsent(key, mine);
        if (e == null) {
          try {
            V v = compute.get();
            computed.incrementAndGet();
            mine.value.complete(v);
            return v;
          } catch (RuntimeException | Error t) {
            if (entries.remove(key, mine)) {
              held.addAndGet(-mine.bytes);
            }
            mine.value.completeExceptionally(t);
            throw t;
          }
        }
        held.addAndGet(-bytes);
      }
      if (e.batch == 0) {
        e.seq = seq.incrementAndGet(); // used now: released last
      }
      if (!wait && !e.value.isDone()) {
        return null;
      }
      try {
        return e.value.join();
      } catch (CompletionException ce) {
        Throwable c = ce.getCause();
        if (c instanceof RuntimeException re) {
          throw re;
        }
        if (c instanceof Error er) {
          throw er;
        }
        throw ce;
      }
    }

    /** The value of {@code key} when it is computed and cached, else null (never computes). */
    V peek(String key) {
      Entry e = entries.get(key);
      return e == null || !e.value.isDone() || e.value.isCompletedExceptionally() ? null
          : e.value.join();
    }

    /** Reserves {@code bytes}, releasing unbatched entries least recently used first if needed. */
    private boolean reserve(long bytes, long limit) {
      while (true) {
        long h = held.get();
        if (h + bytes <= limit) {
          if (held.compareAndSet(h, h + bytes)) {
            return true;
          }
          continue;
        }
        if (!evictOldestDone()) {
          return false;
        }
      }
    }

    /** Removes the least recently used finished entry of batch 0; false when there is none. */
    private boolean evictOldestDone() {
      Map.Entry<String, Entry> oldest = null;
      for (Map.Entry<String, Entry> me : entries.entrySet()) {
        Entry e = me.getValue();
        if (e.batch == 0 && e.value.isDone() && (oldest == null || e.seq < oldest.getValue().seq)) {
          oldest = me;
        }
      }
      if (oldest == null) {
        return false;
      }
      if (entries.remove(oldest.getKey(), oldest.getValue())) {
        held.addAndGet(-oldest.getValue().bytes);
      }
      return true;
    }

    /** Drops every entry of a batch older than {@code batch} (batch-0 entries stay). */
    void releaseBefore(long batch) {
      synchronized (this) {
        if (batch <= newestBatch) {
          return;
        }
        newestBatch = batch;
      }
      for (Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator(); it.hasNext();) {
        Map.Entry<String, Entry> me = it.next();
        Entry e = me.getValue();
        if (e.batch != 0 && e.batch < batch && entries.remove(me.getKey(), e)) {
          held.addAndGet(-e.bytes);
        }
      }
    }

    /** Bytes reserved by the cached entries. */
    long heldBytes() {
      return held.get();
    }

    /** Number of cached entries. */
    int size() {
      return entries.size();
    }

    /** Values computed so far (cached or not). */
    long computedCount() {
      return computed.get();
    }

    /** Values computed without being cached because the bound was full. */
    long uncachedCount() {
      return uncached.get();
    }

    /** Drops everything (tests). */
    void clear() {
      entries.clear();
      held.set(0);
    }

    @Override
    public String toString() {
      return name + ": " + entries.size() + " entries, " + held.get() + " bytes";
    }
  }
}
