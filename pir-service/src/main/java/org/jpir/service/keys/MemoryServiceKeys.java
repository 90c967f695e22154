package org.jpir.service.keys;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jpir.core.params.CompactParams;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.QueryKind;
import org.jpir.core.wire.EvaluationKeys;
import org.jpir.core.wire.Wire;

/**
 * {@link ServiceKeys} over pir-core's {@link EvaluationKeyStore}, one per compact preset served:
 * keys in memory and, when a directory is given, in {@code <dir>/<preset id>/<client>.evk} (read
 * back on first use after a restart). No eviction and no time to live: keys never expire
 * ({@link KeyInfo#expiresAtMillis()} 0). Thread-safe.
 */
public final class MemoryServiceKeys implements ServiceKeys {
  private final Map<String, EvaluationKeyStore> stores = new ConcurrentHashMap<>();
  private final Map<String, QueryKind> kinds = new ConcurrentHashMap<>();

  /**
   * A store for each of {@code presets}; {@code dir} null keeps keys in memory only.
   *
   * @throws IllegalArgumentException when a preset is insecure and insecure presets are not
   *     allowed
   */
  public MemoryServiceKeys(Collection<CompactParams> presets, Path dir) {
    for (CompactParams cp : presets) {
      EvaluationKeyStore s = new EvaluationKeyStore(cp, dir == null ? null
          : dir.resolve(cp.id()));
      stores.put(cp.id(), s);
      kinds.put(cp.id(), new CompactQueries(s));
    }
  }

  private EvaluationKeyStore store(CompactParams cp) {
    EvaluationKeyStore s = stores.get(cp.id());
    if (s == null) {
      throw new IllegalArgumentException("preset " + cp.id() + " is not served here");
    }
    return s;
  }

  @Override
  public KeyInfo upload(String clientId, CompactParams cp, byte[] evaluationKeys,
      byte[] packingKey) {
    EvaluationKeys.checkClientId(clientId);
    EvaluationKeyStore s = store(cp);
    KeyLimits.check(cp, evaluationKeys, packingKey);
    long fp = s.register(clientId, evaluationKeys);
    if (packingKey != null && packingKey.length > 0) {
      s.registerPackingKey(clientId, packingKey);
    }
    return new KeyInfo(clientId, cp.id(), true, fp, 0);
  }

  @Override
  public KeyInfo delete(String clientId, CompactParams cp) {
    EvaluationKeys.checkClientId(clientId);
    store(cp).remove(clientId);
    return KeyInfo.missing(clientId, cp.id());
  }

  @Override
  public KeyInfo status(String clientId, CompactParams cp) {
    return lookup(clientId, cp).orElse(KeyInfo.missing(clientId, cp.id()));
  }

  @Override
  public Optional<KeyInfo> lookup(String clientId, CompactParams cp) {
    EvaluationKeys.checkClientId(clientId);
    EvaluationKeyStore s = store(cp);
    if (!s.contains(clientId)) {
      return Optional.empty();
    }
    try {
      return Optional.of(new KeyInfo(clientId, cp.id(), true, s.get(clientId).fingerprint(), 0));
    } catch (IllegalArgumentException e) { // held on disk but unusable: as good as missing
      return Optional.empty();
    }
  }

  @Override
  public QueryKind compactQueries(CompactParams cp) {
    store(cp);
    return kinds.get(cp.id());
  }
}
