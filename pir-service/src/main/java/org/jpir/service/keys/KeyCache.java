package org.jpir.service.keys;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The bookkeeping of {@link StoredServiceKeys}'s memory: which (preset directory, client) entries
 * are held, in least-recently-used order, their bytes against a bound, the evictions and
 * expirations counted, and the keys that expired lately (at most 4096, for the refusal's
 * message). Holds no key bytes itself. Thread-safe (every method locks this object; callers
 * that also lock a key's stripe take the stripe first).
 */
final class KeyCache {
  private static final int EXPIRED_KEPT = 4096;

  /** A held entry's identity. */
  record Key(String dir, String clientId) {}

  /** A held entry: the keys' fingerprint, its bytes in memory and its uses. */
  static final class Entry {
    final long fingerprint;
    final long bytes;
    volatile long lastUse;
    volatile long persistedUse;

    Entry(long fingerprint, long bytes, long lastUse) {
      this.fingerprint = fingerprint;
      this.bytes = bytes;
      this.lastUse = lastUse;
      this.persistedUse = lastUse;
    }
  }

  private final long maxBytes;
  private final LinkedHashMap<Key, Entry> held = new LinkedHashMap<>(16, 0.75f, true);
  private final LinkedHashMap<Key, Boolean> expired = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, Boolean> e) {
      return size() > EXPIRED_KEPT;
    }
  };
  private long bytes;
  private long evictions;
  private long expirations;

  KeyCache(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The entry of {@code k} (now the most recently used), or null. */
  synchronized Entry get(Key k) {
    return held.get(k);
  }

  /** Whether {@code k} is held (its recency unchanged). */
  synchronized boolean contains(Key k) {
    return held.containsKey(k);
  }

  /** Holds {@code e} for {@code k}, replacing what was held; {@code k} is no longer expired. */
  synchronized void put(Key k, Entry e) {
    Entry old = held.put(k, e);
    bytes += e.bytes - (old == null ? 0 : old.bytes);
    expired.remove(k);
  }

  /** Forgets {@code k}; when {@code expiredNow}, counts it and remembers it expired. */
  synchronized void remove(Key k, boolean expiredNow) {
    Entry old = held.remove(k);
    if (old != null) {
      bytes -= old.bytes;
    }
    if (expiredNow) {
      expirations++;
      expired.put(k, Boolean.TRUE);
    } else {
      expired.remove(k);
    }
  }

  /** Whether {@code k} expired lately (and was not uploaded again). */
  synchronized boolean expiredLately(Key k) {
    return expired.containsKey(k);
  }

  /**
   * Removes the least recently used entries until the held bytes are within the bound or one
   * entry is left; returns them, counted as evictions.
   */
  synchronized List<Map.Entry<Key, Entry>> evictBeyondBound() {
    List<Map.Entry<Key, Entry>> victims = new ArrayList<>();
    Iterator<Map.Entry<Key, Entry>> it = held.entrySet().iterator();
    while (bytes > maxBytes && held.size() > 1 && it.hasNext()) {
      Map.Entry<Key, Entry> v = it.next();
      victims.add(Map.entry(v.getKey(), v.getValue()));
      it.remove();
      bytes -= v.getValue().bytes;
      evictions++;
    }
    return victims;
  }

  /** Calls {@code f} with every held entry (a snapshot under the lock). */
  synchronized void forEach(BiConsumer<Key, Entry> f) {
    held.forEach(f);
  }

  /** The figures now. */
  synchronized KeyStoreStats stats() {
    return new KeyStoreStats(bytes, held.size(), evictions, expirations);
  }
}
