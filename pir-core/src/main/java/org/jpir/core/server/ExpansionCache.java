package org.jpir.core.server;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A per-JVM cache of values that are expensive to compute (expanded queries, prepared evaluation
 * keys), bounded in bytes. Keys name the inputs (a batch and a position, or a SHA-256 digest).
 * Each key has one future: the first caller computes the value without holding any lock, later
 * callers for the same key wait for that future, and callers for other keys compute theirs in
 * parallel. Every entry carries the batch it was made for; {@link #get} first releases the
 * entries of older batches, so at most one batch is held (plus those of {@code batch = 0}, which
 * are kept until the byte bound needs the room, oldest first). When a value does not fit the
 * bound even after that, it is computed and returned without being cached.
 */
final class ExpansionCache<V> {
  private final class Entry {
    final CompletableFuture<V> value = new CompletableFuture<>();
    final long batch;
    final long bytes;
    final long seq;

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

  /**
   * As {@link #get}, but null (at once) when another thread is computing the value: a caller
   * with other keys to compute takes those first and comes back ({@code wait = false}).
   */
  V getUnlessBusy(String key, long batch, long bytes, long limit, Supplier<V> compute) {
    return get(key, batch, bytes, limit, compute, false);
  }

  private V get(String key, long batch, long bytes, long limit, Supplier<V> compute,
      boolean wait) {
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

  /** Reserves {@code bytes}, releasing unbatched entries oldest first if needed. */
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

  /** Removes the oldest finished entry of batch 0; false when there is none. */
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

  /** Hex SHA-256 of the concatenated parts (each preceded by its length). */
  static String sha256(byte[]... parts) {
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
}
