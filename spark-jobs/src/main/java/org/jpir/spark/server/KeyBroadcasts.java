package org.jpir.spark.server;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.jpir.core.server.KeySource;
import org.jpir.core.server.QueryBatch;

/**
 * The driver's evaluation-key broadcasts of one Spark context: one {@code Broadcast<byte[]>} per
 * key fingerprint ({@link QueryBatch#keysDigest}, the SHA-256 of the bytes), made the first time
 * a batch names the fingerprint and reused by every later batch, of every database and version
 * the context serves, so a client's keys reach each executor once (fetched by the executors whose
 * prepared-key cache misses, {@link QueryBatch#expanded}), not once per batch. A batch leases the
 * broadcasts it names ({@link #lease}) and the task closures carry their handles ({@link
 * Lease#source}); a leased broadcast is never evicted. Beyond {@link #BYTES_SETTING} the least
 * recently used unleased broadcasts are destroyed (Spark drops their blocks on the driver and
 * the executors; a later batch that names the fingerprint broadcasts it again). Thread-safe.
 */
public final class KeyBroadcasts {
  /**
   * The Spark setting bounding the key bytes held in broadcasts between batches (default {@link
   * #DEFAULT_BYTES}); the keys a running batch names are kept even beyond it.
   */
  public static final String BYTES_SETTING = "spark.jpir.keyBroadcastBytes";
  /** The default bound: 64 MiB (about 60 clients at N = 2048, 19 at N = 4096). */
  public static final long DEFAULT_BYTES = 64L << 20;

  private static final Map<SparkContext, KeyBroadcasts> BY_CONTEXT = new WeakHashMap<>();

  private final long bound;
  private final LinkedHashMap<String, Held> held = new LinkedHashMap<>(16, 0.75f, true);
  private long heldBytes;
  private long created;
  private long createdBytes;
  private long destroyed;

  private static final class Held {
    final Broadcast<byte[]> broadcast;
    final long bytes;
    int leases;

    Held(Broadcast<byte[]> broadcast, long bytes) {
      this.broadcast = broadcast;
      this.bytes = bytes;
    }
  }

  KeyBroadcasts(long bound) {
    if (bound < 0) {
      throw new IllegalArgumentException(BYTES_SETTING + " = " + bound + " must be >= 0");
    }
    this.bound = bound;
  }

  /** The bound {@code conf} sets ({@link #BYTES_SETTING}, else {@link #DEFAULT_BYTES}). */
  public static long bound(SparkConf conf) {
    return conf.getSizeAsBytes(BYTES_SETTING, Long.toString(DEFAULT_BYTES));
  }

  /** The registry of {@code sc}, made on first use with the bound its configuration sets. */
  public static synchronized KeyBroadcasts on(JavaSparkContext sc) {
    return BY_CONTEXT.computeIfAbsent(sc.sc(), c -> new KeyBroadcasts(bound(c.getConf())));
  }

  /**
   * Leases the broadcast of every key fingerprint {@code b} names, broadcasting the bytes the
   * batch holds for those not held yet; each is kept until the lease is closed.
   *
   * @throws IllegalStateException when {@code b} lacks the bytes of a fingerprint not held (a
   *     deserialized batch)
   */
  public synchronized Lease lease(JavaSparkContext sc, QueryBatch b) {
    HashMap<String, Broadcast<byte[]>> handles = new HashMap<>();
    List<Held> leased = new ArrayList<>();
    int made = 0;
    long madeBytes = 0;
    try {
      for (int k = 0; k < b.keyCount(); k++) {
        String digest = b.keyDigests()[k];
        Held h = held.get(digest);
        if (h == null) {
          byte[] bytes = b.heldKeyBytes(k);
          if (bytes == null) {
            throw new IllegalStateException("batch " + b.number() + " holds no key bytes for"
                + " fingerprint " + digest + " (only the accepting JVM's batch ships keys)");
          }
          h = new Held(sc.broadcast(bytes), bytes.length);
          held.put(digest, h);
          heldBytes += h.bytes;
          created++;
          createdBytes += h.bytes;
          made++;
          madeBytes += h.bytes;
        }
        h.leases++;
        leased.add(h);
        handles.put(digest, h.broadcast);
      }
    } catch (RuntimeException e) {
      release(leased);
      throw e;
    }
    evict();
    return new Lease(leased, new BroadcastKeys(handles), made, madeBytes);
  }

  private synchronized void release(List<Held> leased) {
    for (Held h : leased) {
      h.leases--;
    }
    evict();
  }

  /** Destroys the least recently used unleased broadcasts while more than the bound is held. */
  private void evict() {
    for (Iterator<Held> it = held.values().iterator(); heldBytes > bound && it.hasNext();) {
      Held h = it.next();
      if (h.leases == 0) {
        it.remove();
        heldBytes -= h.bytes;
        destroyed++;
        h.broadcast.destroy(); // non-blocking: the blocks go on the driver and the executors
      }
    }
  }

  /** Key bytes held in broadcasts now. */
  public synchronized long heldBytes() {
    return heldBytes;
  }

  /** Key fingerprints held in broadcasts now. */
  public synchronized int size() {
    return held.size();
  }

  /** Broadcasts made so far (each a fingerprint's first use, or its first use after eviction). */
  public synchronized long created() {
    return created;
  }

  /** Key bytes broadcast so far. */
  public synchronized long createdBytes() {
    return createdBytes;
  }

  /** Broadcasts destroyed for the bound so far. */
  public synchronized long destroyed() {
    return destroyed;
  }

  /** The bound on the key bytes held between batches. */
  public long bound() {
    return bound;
  }

  /**
   * One batch's hold on its key broadcasts: their handles for the tasks, what it broadcast anew;
   * closing it (once) lets them be evicted again.
   */
  public final class Lease implements AutoCloseable {
    private final List<Held> leased;
    private final BroadcastKeys source;
    private final int created;
    private final long createdBytes;
    private boolean closed;

    private Lease(List<Held> leased, BroadcastKeys source, int created, long createdBytes) {
      this.leased = leased;
      this.source = source;
      this.created = created;
      this.createdBytes = createdBytes;
    }

    /** The key bytes by fingerprint, as broadcast handles: serializable, small, for the tasks. */
    public KeySource source() {
      return source;
    }

    /** The ids of the batch's key broadcasts (for {@link BatchMetricsListener#finish}). */
    public long[] broadcastIds() {
      return leased.stream().mapToLong(h -> h.broadcast.id()).toArray();
    }

    /** Key broadcasts this lease made (fingerprints not held before). */
    public int created() {
      return created;
    }

    /** Key bytes this lease broadcast. */
    public long createdBytes() {
      return createdBytes;
    }

    @Override
    public void close() {
      synchronized (KeyBroadcasts.this) {
        if (!closed) {
          closed = true;
          release(leased);
        }
      }
    }
  }

  /**
   * The handles of a batch's key broadcasts by fingerprint: what the tasks carry (Java-serialized
   * with the closure, a few hundred bytes per handle; the bytes stay in the broadcast until an
   * executor asks for them).
   */
  static final class BroadcastKeys implements KeySource, Serializable {
    private static final long serialVersionUID = 1L;
    private final HashMap<String, Broadcast<byte[]>> byDigest;

    BroadcastKeys(HashMap<String, Broadcast<byte[]>> byDigest) {
      this.byDigest = byDigest;
    }

    @Override
    public byte[] keyBytes(String digest) {
      Broadcast<byte[]> b = byDigest.get(digest);
      if (b == null) {
        return KeySource.NONE.keyBytes(digest);
      }
      return b.value();
    }
  }
}
