package org.jpir.service.keys;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.QueryKind;
import org.jpir.core.wire.EvaluationKeys;
import org.jpir.core.wire.Sizes;
import org.jpir.core.wire.Wire;
import org.jpir.service.keys.KeyCache.Entry;
import org.jpir.service.keys.KeyCache.Key;

/**
 * The service's key store: evaluation keys per (client id, compact preset and parameter
 * revision), held in memory up to a byte bound (wire bytes plus prepared keys; the least
 * recently used are evicted beyond it, and counted; one entry is always kept) and, when a
 * directory is given, persisted through Hadoop's FileSystem API ({@link KeyFiles}: atomic writes,
 * file names hashed from the client id), so that a restarted or evicting server reads them back
 * on first use. Keys unused for longer than the time to live (0: forever) expire: their next
 * lookup finds none (and {@link #missing} says they expired, naming the client), their file is
 * deleted then or by {@link #sweep}. Every use refreshes the time to live; the file records it
 * at most every eighth of the time to live, so a restart may shorten a key's life by that much.
 * Keys put by hand in the directory flow's layout are read too. Thread-safe; logs nothing.
 */
public final class StoredServiceKeys implements ServiceKeys {
  private static final int STRIPES = 64;

  private final Map<String, Preset> presets = new HashMap<>();
  private final KeyFiles files;
  private final long ttlMillis;
  private final LongSupplier clock;
  private final Object[] stripes = new Object[STRIPES];
  private final KeyCache cache;

  private record Preset(CompactParams cp, String dir, EvaluationKeyStore mem, QueryKind kind) {}

  /**
   * A store for {@code presets}, persisted under the directory or URI {@code dir} (null: memory
   * only), keys expiring after {@code ttlMillis} unused (0: never), at most {@code maxBytes} in
   * memory, time read from {@code clock} (milliseconds since the epoch).
   *
   * @throws IllegalArgumentException when a bound is negative or a preset is not allowed
   */
  public StoredServiceKeys(Collection<CompactParams> presets, String dir, long ttlMillis,
      long maxBytes, LongSupplier clock) {
    if (ttlMillis < 0 || maxBytes < 0) {
      throw new IllegalArgumentException("key time to live and cache bound must be >= 0");
    }
    for (CompactParams cp : presets) {
      EvaluationKeyStore mem = new EvaluationKeyStore(cp);
      this.presets.put(dirOf(cp), new Preset(cp, dirOf(cp), mem, new CompactQueries(mem)));
    }
    Arrays.setAll(stripes, i -> new Object());
    this.files = dir == null ? null : new KeyFiles(dir);
    this.ttlMillis = ttlMillis;
    this.cache = new KeyCache(maxBytes);
    this.clock = clock;
  }

  private static String dirOf(CompactParams cp) {
    return KeyFiles.presetDir(cp.id(), ParameterRevision.hex(ParameterRevision.of(cp)));
  }

  /** The preset {@code cp} at its parameter revision. */
  private Preset preset(CompactParams cp) {
    Preset p = presets.get(dirOf(cp));
    if (p == null) {
      throw new IllegalArgumentException("preset " + cp.id() + " is not served here");
    }
    return p;
  }

  private Object stripe(Key k) {
    return stripes[Math.floorMod(k.hashCode(), STRIPES)];
  }

  @Override
  public KeyInfo upload(String clientId, CompactParams cp, byte[] evaluationKeys,
      byte[] packingKey) {
    EvaluationKeys.checkClientId(clientId);
    Preset p = preset(cp);
    byte[] pack = packingKey == null ? new byte[0] : packingKey;
    KeyLimits.check(cp, evaluationKeys, pack);
    EvaluationKeys k = Wire.readEvaluationKeys(evaluationKeys, cp);
    if (!k.clientId().equals(clientId)) {
      throw new IllegalArgumentException("evaluation keys belong to client '" + k.clientId()
          + "', not to '" + clientId + "'");
    }
    Key key = new Key(p.dir(), clientId);
    long now = clock.getAsLong();
    Entry e;
    synchronized (stripe(key)) {
      if (files != null) { // first, so that what memory holds is also on disk
        files.write(p.dir(), clientId, evaluationKeys, pack, now);
      }
      p.mem().remove(clientId);
      long fp = p.mem().register(clientId, evaluationKeys);
      if (pack.length > 0) {
        p.mem().registerPackingKey(clientId, pack);
      }
      e = new Entry(fp, entryBytes(cp, evaluationKeys, pack), now);
      cache.put(key, e);
    }
    evictBeyondBound();
    return info(clientId, cp, e);
  }

  private static long entryBytes(CompactParams cp, byte[] evk, byte[] pack) {
    return evk.length + pack.length + Sizes.preparedKeys(cp);
  }
  /** Evicts the least recently used entries until the bound holds (or one is left). */
  private void evictBeyondBound() {
    List<Map.Entry<Key, Entry>> victims = cache.evictBeyondBound();
    for (Map.Entry<Key, Entry> v : victims) { // under the key's lock, unless it came back
      Key k = v.getKey();
      synchronized (stripe(k)) {
        if (!cache.contains(k)) {
          presets.get(k.dir()).mem().remove(k.clientId());
          Entry e = v.getValue();
          if (files != null && e.persistedUse < e.lastUse) { // its file keeps the last use
            files.touch(k.dir(), k.clientId(), e.lastUse);
          }
        }
      }
    }
  }

  @Override
  public KeyInfo delete(String clientId, CompactParams cp) {
    EvaluationKeys.checkClientId(clientId);
    Preset p = preset(cp);
    Key key = new Key(p.dir(), clientId);
    synchronized (stripe(key)) {
      drop(key, p, false);
    }
    return KeyInfo.missing(clientId, cp.id());
  }

  /** Forgets {@code key} in memory and on disk; the caller holds its stripe. */
  private void drop(Key key, Preset p, boolean expiredNow) {
    cache.remove(key, expiredNow);
    p.mem().remove(key.clientId());
    if (files != null) {
      files.delete(key.dir(), key.clientId());
    }
  }

  @Override
  public KeyInfo status(String clientId, CompactParams cp) {
    return find(clientId, cp, false).orElse(KeyInfo.missing(clientId, cp.id()));
  }

  @Override
  public Optional<KeyInfo> lookup(String clientId, CompactParams cp) {
    return find(clientId, cp, true);
  }

  private Optional<KeyInfo> find(String clientId, CompactParams cp, boolean use) {
    EvaluationKeys.checkClientId(clientId);
    Preset p = preset(cp);
    Key key = new Key(p.dir(), clientId);
    long now = clock.getAsLong();
    Entry e;
    synchronized (stripe(key)) {
      e = cache.get(key);
      if (e != null && expired(e.lastUse, now)) {
        drop(key, p, true);
        return Optional.empty();
      }
      if (e == null) {
        e = load(key, p, now, use);
        if (e == null) {
          return Optional.empty();
        }
      } else if (use) {
        e.lastUse = now;
        if (files != null && now - e.persistedUse >= ttlMillis / 8) {
          files.touch(key.dir(), clientId, now);
          e.persistedUse = now;
        }
      }
    }
    evictBeyondBound();
    return Optional.of(info(clientId, cp, e));
  }

  /** Reads {@code key} from its file into memory; null when there is none usable. */
  private Entry load(Key key, Preset p, long now, boolean use) {
    if (files == null) {
      return null;
    }
    KeyFiles.Stored s;
    try {
      s = files.read(key.dir(), p.cp().id(), key.clientId(),
          Wire.maxEvaluationKeysBytes(p.cp()), KeyLimits.maxPackingBytes(p.cp()), now);
    } catch (IllegalArgumentException | UncheckedIOException unusable) {
      return null; // as good as missing: a new upload replaces it
    }
    if (s == null) {
      return null;
    }
    if (expired(s.lastUseMillis(), now)) {
      drop(key, p, true);
      return null;
    }
    long fp;
    try {
      fp = p.mem().register(key.clientId(), s.evaluationKeys());
    } catch (IllegalArgumentException unusable) {
      return null;
    }
    if (s.packingKey().length > 0) {
      p.mem().registerPackingKey(key.clientId(), s.packingKey());
    }
    Entry e = new Entry(fp, entryBytes(p.cp(), s.evaluationKeys(), s.packingKey()),
        use ? now : s.lastUseMillis());
    if (use) {
      files.touch(key.dir(), key.clientId(), now);
    }
    cache.put(key, e);
    return e;
  }

  private boolean expired(long lastUse, long now) {
    return ttlMillis > 0 && now - lastUse > ttlMillis;
  }

  private KeyInfo info(String clientId, CompactParams cp, Entry e) {
    return new KeyInfo(clientId, cp.id(), true, e.fingerprint,
        ttlMillis > 0 ? e.lastUse + ttlMillis : 0);
  }

  @Override
  public String missing(String clientId, CompactParams cp) {
    Preset p = preset(cp);
    if (cache.expiredLately(new Key(p.dir(), clientId))) {
      return "the evaluation keys of client '" + clientId + "' under preset " + cp.id()
          + " expired (unused for more than " + ttlMillis / 1000 + " s): upload them again"
          + " (UploadKeys)";
    }
    return ServiceKeys.super.missing(clientId, cp);
  }

  /**
   * Forgets every expired key: in memory, and the files under the directory last used more
   * than the time to live ago (those of keys in use are kept); returns how many files and
   * entries went. Does nothing without a time to live.
   */
  public int sweep() {
    if (ttlMillis == 0) {
      return 0;
    }
    long now = clock.getAsLong();
    List<Key> old = new ArrayList<>();
    Set<Key> live = new HashSet<>();
    cache.forEach((k, e) -> (expired(e.lastUse, now) ? old : live).add(k));
    int n = 0;
    for (Key k : old) {
      synchronized (stripe(k)) {
        Entry e = cache.get(k);
        if (e != null && expired(e.lastUse, now)) {
          drop(k, presets.get(k.dir()), true);
          n++;
        }
      }
    }
    if (files != null) {
      for (Preset p : presets.values()) {
        Set<String> keep = new HashSet<>();
        live.stream().filter(k -> k.dir().equals(p.dir()))
            .forEach(k -> keep.add(KeyFiles.fileName(k.clientId())));
        n += files.deleteUnusedSince(p.dir(), now - ttlMillis, keep);
      }
    }
    return n;
  }

  /** The store's figures now (memory held, evictions, expirations). */
  public KeyStoreStats stats() {
    return cache.stats();
  }

  @Override
  public QueryKind compactQueries(CompactParams cp) {
    return preset(cp).kind();
  }
}
