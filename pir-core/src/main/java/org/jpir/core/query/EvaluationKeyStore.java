package org.jpir.core.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Security;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.EvaluationKeys;
import org.jpir.core.wire.Wire;
import org.jpir.vmp.Pmat;

/**
 * The server's evaluation keys, per client id, for one compact preset: prepared keys in memory
 * and, when a directory is given, the uploaded wire bytes in {@code <dir>/<clientId>.evk} (read
 * back on first use after a restart), and the clients' plane-packing keys ({@link PlanePacking}:
 * {@code <dir>/<clientId>.pack}, optional) for answers that share one mask across the planes of
 * records larger than a plane. Thread-safe.
 */
public final class EvaluationKeyStore {
  private final CompactParams cp;
  private final Path dir;
  private final ConcurrentHashMap<String, byte[]> wires = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, PreparedEvaluationKeys> prepared =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, byte[]> packingWires = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Pmat> packing = new ConcurrentHashMap<>();

  /** An in-memory store. */
  public EvaluationKeyStore(CompactParams cp) {
    this(cp, null);
  }

  /** A store persisted under {@code dir} (created if absent; null for memory only). */
  public EvaluationKeyStore(CompactParams cp, Path dir) {
    Security.requireAllowed(cp.server());
    this.cp = cp;
    this.dir = dir;
    if (dir != null) {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create evaluation key directory " + dir, e);
      }
    }
  }

  /** The compact parameters. */
  public CompactParams params() {
    return cp;
  }

  /**
   * Registers (or replaces) the keys of {@code clientId} from their wire bytes; returns the
   * keys' fingerprint.
   *
   * @throws IllegalArgumentException when the bytes are corrupted, for another preset, or for
   *     another client id
   */
  public long register(String clientId, byte[] wire) {
    EvaluationKeys k = Wire.readEvaluationKeys(wire, cp);
    if (!k.clientId().equals(EvaluationKeys.checkClientId(clientId))) {
      throw new IllegalArgumentException("evaluation keys belong to client '" + k.clientId()
          + "', not to '" + clientId + "'");
    }
    PreparedEvaluationKeys pk = PreparedEvaluationKeys.prepare(cp, k);
    if (dir != null) {
      try {
        Path tmp = dir.resolve(clientId + ".evk.tmp");
        Files.write(tmp, wire);
        Files.move(tmp, dir.resolve(clientId + ".evk"),
            StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot store evaluation keys of " + clientId, e);
      }
    }
    prepared.put(clientId, pk);
    wires.put(clientId, wire.clone());
    return pk.fingerprint();
  }

  /**
   * The wire bytes of the keys of {@code clientId} (what a server ships to executors that
   * expand queries themselves).
   *
   * @throws IllegalArgumentException naming the client when none were uploaded
   */
  public byte[] wire(String clientId) {
    byte[] held = wires.get(EvaluationKeys.checkClientId(clientId));
    return held != null ? held.clone() : heldWire(clientId);
  }

  /**
   * As {@link #wire}, but the array this store holds itself (read from the directory when not
   * held): one array per client however many of its queries a batch accepts; never modified
   * (an upload replaces the array, it does not write into it).
   */
  byte[] heldWire(String clientId) {
    byte[] w = wires.get(EvaluationKeys.checkClientId(clientId));
    if (w != null) {
      return w;
    }
    if (dir != null && Files.exists(dir.resolve(clientId + ".evk"))) {
      return stored(clientId, "evaluation keys", () -> Wire.readFile(
          dir.resolve(clientId + ".evk"), Wire.maxEvaluationKeysBytes(cp), "evaluation keys"));
    }
    throw new IllegalArgumentException("no evaluation keys for client '" + clientId
        + "' under preset " + cp.id() + ": the client must upload them before a compact query");
  }

  /**
   * The prepared keys of the query's client, checked to be the keys the query was made for.
   *
   * @throws IllegalArgumentException naming the client when none were uploaded or the query
   *     was made for other keys
   */
  public PreparedEvaluationKeys keysFor(CompactQuery q) {
    PreparedEvaluationKeys keys = get(q.clientId());
    if (keys.fingerprint() != q.keysFingerprint()) {
      // the fingerprint the server holds stays out: an error a client reads names its query
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "compact query of client '%s' was made for evaluation keys %016x, not those the"
              + " server holds for that client: upload the current keys", q.clientId(),
          q.keysFingerprint()));
    }
    return keys;
  }

  /** Registers keys already parsed (same checks as {@link #register(String, byte[])}). */
  public long register(EvaluationKeys k) {
    return register(k.clientId(), Wire.writeEvaluationKeys(k));
  }

  /** True when keys for {@code clientId} are held (in memory or in the directory). */
  public boolean contains(String clientId) {
    return prepared.containsKey(clientId)
        || (dir != null && Files.exists(dir.resolve(clientId + ".evk")));
  }

  /**
   * The prepared keys of {@code clientId}.
   *
   * @throws IllegalArgumentException naming the client when none were uploaded
   */
  public PreparedEvaluationKeys get(String clientId) {
    EvaluationKeys.checkClientId(clientId);
    PreparedEvaluationKeys pk = prepared.get(clientId);
    if (pk != null) {
      return pk;
    }
    if (dir != null) {
      Path f = dir.resolve(clientId + ".evk");
      if (Files.exists(f)) {
        EvaluationKeys k = stored(clientId, "evaluation keys", () -> Wire.readEvaluationKeys(
            Wire.readFile(f, Wire.maxEvaluationKeysBytes(cp), "evaluation keys"), cp));
        if (!k.clientId().equals(clientId)) {
          throw unusable(clientId, "evaluation keys", null);
        }
        pk = PreparedEvaluationKeys.prepare(cp, k);
        prepared.put(clientId, pk);
        return pk;
      }
    }
    throw new IllegalArgumentException("no evaluation keys for client '" + clientId
        + "' under preset " + cp.id() + ": the client must upload them before a compact query");
  }

  /**
   * Registers (or replaces) the plane-packing key of {@code clientId} from its wire bytes
   * ({@link Wire#writePackingKey}); it is checked and prepared on first use for a geometry.
   */
  public void registerPackingKey(String clientId, byte[] wire) {
    packingWires.put(EvaluationKeys.checkClientId(clientId), wire.clone());
    packing.keySet().removeIf(k -> k.startsWith(clientId + "/"));
  }

  /**
   * The prepared plane-packing key of {@code clientId} for geometry {@code g}, or null when the
   * geometry has one plane or the client uploaded none (its answers then carry one mask per
   * plane).
   *
   * @throws IllegalArgumentException when the uploaded key is corrupted or for another number
   *     of planes
   */
  public Pmat packingKey(String clientId, Geometry g) {
    EvaluationKeys.checkClientId(clientId);
    if (g.planes() < 2 || g.planes() > PlanePacking.MAX_PLANES) {
      return null;
    }
    String k = clientId + "/" + g.planes();
    Pmat pm = packing.get(k);
    if (pm != null) {
      return pm;
    }
    byte[] wire = packingWires.get(clientId);
    if (wire == null && dir != null && Files.exists(dir.resolve(clientId + ".pack"))) {
      wire = stored(clientId, "packing key", () -> Wire.readFile(dir.resolve(clientId + ".pack"),
          Wire.packingKeyBytes(cp.server(), g.planes()), "packing key"));
    }
    if (wire == null) {
      return null;
    }
    pm = new PlanePacking(cp.server(), g.planes()).prepare(Wire.readPackingKey(wire,
        cp.server(), g));
    packing.put(k, pm);
    return pm;
  }

  /**
   * {@code read} of a file of the key directory; a file that is not a valid one (not a regular
   * file, too large, corrupted) is refused without its path, size or type, which are the
   * server's and may end up in a client's error file.
   */
  private static <T> T stored(String clientId, String what,
      Supplier<T> read) {
    try {
      return read.get();
    } catch (Wire.WireException e) {
      throw unusable(clientId, what, e);
    }
  }

  private static IllegalArgumentException unusable(String clientId, String what,
      Throwable cause) {
    return new IllegalArgumentException("the " + what + " the server holds for client '"
        + clientId + "' cannot be used: upload them again", cause);
  }

  /** Forgets the keys of {@code clientId} and its plane-packing key (memory and directory). */
  public void remove(String clientId) {
    prepared.remove(EvaluationKeys.checkClientId(clientId));
    wires.remove(clientId);
    packingWires.remove(clientId);
    packing.keySet().removeIf(k -> k.startsWith(clientId + "/"));
    if (dir != null) {
      try {
        Files.deleteIfExists(dir.resolve(clientId + ".evk"));
        Files.deleteIfExists(dir.resolve(clientId + ".pack"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
