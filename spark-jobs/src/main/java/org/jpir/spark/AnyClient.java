package org.jpir.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.function.Supplier;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.QueryFileName;
import org.jpir.core.wire.Wire;

/**
 * One client, classic or compact (by the preset), behind the same calls: query bytes for an
 * index, decoding of an answer, the query files' extension, and (compact presets) the
 * evaluation keys its queries need.
 */
final class AnyClient {
  private final Params params;
  private final Geometry geometry;
  private final PirClient classic;
  private final CompactParams cp;
  private final CompactClient compact;
  private boolean haveKeys;

  private AnyClient(Params params, Geometry geometry, PirClient classic, CompactParams cp,
      CompactClient compact) {
    this.params = params;
    this.geometry = geometry;
    this.classic = classic;
    this.cp = cp;
    this.compact = compact;
  }

  /**
   * The client of preset {@code p} and geometry {@code g} holding the secret key {@code key}
   * (wire form); {@code clientId} is asked only for a compact preset.
   */
  static AnyClient withKey(Params p, Geometry g, byte[] key, Supplier<String> clientId,
      SecureRandom random) {
    CompactParams cp = Presets.compactFor(p);
    if (cp != null) {
      return new AnyClient(p, g, null, cp, new CompactClient(cp, g, Wire.readSecretKey(key,
          cp.keys()), clientId.get(), random));
    }
    return new AnyClient(p, g, new PirClient(p, g, Wire.readSecretKey(key, p), random), null,
        null);
  }

  /**
   * Refuses a secret key (wire form) made for another preset than the database's {@code p}, with
   * a message naming both presets and how to make the right key; a key whose header cannot be
   * read is left to {@link #withKey}, which names what is wrong with it.
   *
   * @throws IllegalArgumentException when the key names another preset
   */
  static void requireKeyFor(Params p, byte[] key, String keyName, String db) {
    CompactParams cp = Presets.compactFor(p);
    String expected = cp != null ? cp.keys().id() : p.id();
    String got = Wire.secretKeyPreset(key);
    if (got != null && !got.equals(expected)) {
      throw new IllegalArgumentException("the secret key " + keyName + " was made for preset '"
          + presetOfKey(got) + "', but the database " + db + " uses preset '" + p.id() + "':"
          + " make a key for this database with 'client keygen --db " + db + " --out FILE'"
          + " (a key works only with databases of its own preset)");
    }
  }

  /** The preset whose secret keys carry the id {@code keyPresetId} (a compact one's keys). */
  static String presetOfKey(String keyPresetId) {
    for (CompactParams c : CompactParams.all()) {
      if (c.keys().id().equals(keyPresetId)) {
        return c.id();
      }
    }
    return keyPresetId;
  }

  /** A client with a fresh secret key from {@code random}. */
  static AnyClient generate(Params p, Geometry g, String clientId, SecureRandom random) {
    CompactParams cp = Presets.compactFor(p);
    if (cp != null) {
      return new AnyClient(p, g, null, cp, new CompactClient(cp, g,
          CompactClient.generateSecret(cp, random), clientId, random));
    }
    return new AnyClient(p, g, new PirClient(p, g, SecretKey.generate(p, random), random), null,
        null);
  }

  /** Whether the preset is a compact one (queries need the client's evaluation keys). */
  boolean isCompact() {
    return compact != null;
  }

  /** Adopts the evaluation keys (wire form) this client generated and uploaded earlier. */
  void useEvaluationKeys(byte[] evk) {
    compact.useEvaluationKeys(Wire.readEvaluationKeys(evk, cp));
    haveKeys = true;
  }

  /** The query files' extension. */
  String extension() {
    return compact != null ? QueryFileName.COMPACT_SUFFIX : QueryFileName.CLASSIC_SUFFIX;
  }

  long recordCount() {
    return geometry.recordCount();
  }

  /** The query for record {@code index}, in its wire form. */
  byte[] query(long index) {
    if (compact != null && !haveKeys) {
      throw new IllegalArgumentException("a compact query needs the client's uploaded"
          + " evaluation keys: --evk FILE (made by client evk)");
    }
    return compact != null ? Wire.writeCompactQuery(compact.query(index))
        : Wire.writeQuery(classic.query(index));
  }

  /** The record {@code index} from its answer. */
  byte[] decode(Answer a, long index) {
    return compact != null ? compact.decode(a, index) : classic.decode(a, index);
  }

  /** Reads an answer file from the server without trusting it, and decodes it. */
  byte[] decode(Path answerFile, long index) throws IOException {
    return decode(Wire.readAnswer(Wire.readFile(answerFile, Wire.maxAnswerBytes(params,
        geometry), "answer"), params, geometry), index);
  }

  /** The evaluation keys (wire form) to upload once; generated on the first call. */
  byte[] evaluationKeys() {
    if (compact == null) {
      throw new IllegalArgumentException("evaluation keys exist only for compact presets");
    }
    byte[] evk = Wire.writeEvaluationKeys(compact.evaluationKeys());
    haveKeys = true;
    return evk;
  }

  /**
   * The plane-packing key (wire form) to upload beside the evaluation keys, or null when the
   * geometry has one plane (or more than {@link PlanePacking#MAX_PLANES}) or the
   * preset is classic: with it, answers to records spanning planes share one mask.
   */
  byte[] packingKey() {
    if (compact == null || geometry.planes() < 2
        || geometry.planes() > PlanePacking.MAX_PLANES) {
      return null;
    }
    return Wire.writePackingKey(params, compact.packingKey().upload());
  }
}
