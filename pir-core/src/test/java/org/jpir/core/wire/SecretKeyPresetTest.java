package org.jpir.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.security.SecureRandom;
import java.util.Arrays;
import org.jpir.core.client.CompactClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Presets;
import org.junit.jupiter.api.Test;

/** {@link Wire#secretKeyPreset}: a secret key's header preset, or null for anything else. */
class SecretKeyPresetTest {
  private static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void namesTheKeysPreset() {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    byte[] key = Wire.writeSecretKey(CompactClient.generateSecret(cp, RANDOM));
    assertEquals(cp.keys().id(), Wire.secretKeyPreset(key));
    byte[] classic = Wire.writeSecretKey(SecretKey.generate(Presets.ONIONPIR_4096, RANDOM));
    assertEquals(Presets.ONIONPIR_4096.id(), Wire.secretKeyPreset(classic));
  }

  @Test
  void anythingButASecretKeyHeaderIsNull() {
    byte[] key = Wire.writeSecretKey(SecretKey.generate(Presets.ONIONPIR_4096, RANDOM));
    assertNull(Wire.secretKeyPreset(null));
    assertNull(Wire.secretKeyPreset(new byte[0]));
    assertNull(Wire.secretKeyPreset(Arrays.copyOf(key, 12)), "the id cut off");
    byte[] magic = key.clone();
    magic[0] ^= 1;
    assertNull(Wire.secretKeyPreset(magic));
    byte[] version = key.clone();
    version[5] ^= 1;
    assertNull(Wire.secretKeyPreset(version));
    byte[] type = key.clone();
    type[6] ^= 1;
    assertNull(Wire.secretKeyPreset(type), "another message type");
    byte[] control = key.clone();
    control[9] = 0x0A;
    assertNull(Wire.secretKeyPreset(control), "a control character in the id");
  }
}
