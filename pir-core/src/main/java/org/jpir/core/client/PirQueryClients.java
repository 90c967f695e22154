package org.jpir.core.client;

import java.security.SecureRandom;
import java.util.function.Supplier;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.Wire;

/**
 * Makes the client a database's preset needs: a {@link CompactClient} for a compact preset, a
 * {@link PirClient} for a classic one, with a fresh secret key or one read from its wire form.
 */
public final class PirQueryClients {
  private PirQueryClients() {}

  /**
   * The preset a secret key for databases of preset {@code p} is made for: a compact preset's
   * key preset ({@link CompactParams#keys}), else {@code p} itself.
   */
  public static Params keyParams(Params p) {
    CompactParams cp = Presets.compactFor(p);
    return cp != null ? cp.keys() : p;
  }

  /** The database preset whose secret keys carry the id {@code keyPresetId} (itself if none). */
  public static String presetOfKey(String keyPresetId) {
    for (CompactParams c : CompactParams.all()) {
      if (c.keys().id().equals(keyPresetId)) {
        return c.id();
      }
    }
    return keyPresetId;
  }

  /** A fresh secret key from {@code random} for databases of preset {@code p}. */
  public static SecretKey generateSecret(Params p, SecureRandom random) {
    return SecretKey.generate(keyParams(p), random);
  }

  /**
   * The client of preset {@code p} at geometry {@code g} holding {@code sk}; {@code clientId} is
   * asked only for a compact preset (its queries and keys name it).
   *
   * @throws IllegalArgumentException when the key is of another preset or the geometry does not
   *     fit the preset
   */
  public static PirQueryClient create(Params p, Geometry g, SecretKey sk,
      Supplier<String> clientId, SecureRandom random) {
    CompactParams cp = Presets.compactFor(p);
    if (cp != null) {
      return new CompactClient(cp, g, sk, clientId.get(), random);
    }
    return new PirClient(p, g, sk, random);
  }

  /**
   * The client of preset {@code p} at geometry {@code g} holding the secret key in wire form
   * {@code key}, read without trusting it (see {@link #create}).
   *
   * @throws IllegalArgumentException when the key is malformed or of another preset
   */
  public static PirQueryClient withKey(Params p, Geometry g, byte[] key,
      Supplier<String> clientId, SecureRandom random) {
    return create(p, g, Wire.readSecretKey(key, keyParams(p)), clientId, random);
  }

  /** A client with a fresh secret key from {@code random} (see {@link #create}). */
  public static PirQueryClient generate(Params p, Geometry g, String clientId,
      SecureRandom random) {
    return create(p, g, generateSecret(p, random), () -> clientId, random);
  }
}
