package org.jpir.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class WireTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SecureRandom RANDOM = new SecureRandom();
  static final Geometry G = Geometry.of(P, 100, 100, 4);

  static void rejects(byte[] msg, Consumer<byte[]> reader, String expected) {
    Wire.WireException e = assertThrows(Wire.WireException.class, () -> reader.accept(msg));
    assertTrue(e.getMessage().contains(expected),
        "message '" + e.getMessage() + "' should mention '" + expected + "'");
  }

  @Test
  void queryAnswerAndKeyRoundTrip() {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    PirClient c = new PirClient(P, G, sk, RANDOM);
    ClientQuery q = c.query(42);
    ClientQuery back = Wire.readQuery(Wire.writeQuery(q), P);
    assertArrayEquals(q.seed(), back.seed());
    assertArrayEquals(q.phase1B(), back.phase1B());
    assertArrayEquals(q.ggswB(), back.ggswB());
    assertEquals(q.rows(), back.rows());
    assertEquals(q.cols(), back.cols());
    SecretKey sk2 = Wire.readSecretKey(Wire.writeSecretKey(sk), P);
    assertArrayEquals(sk.coefficients(), sk2.coefficients());
    Answer a = new Answer(P.id(), 2, 5, new short[2 * 2 * 5 * P.n()]);
    a.data()[7] = -3;
    Answer a2 = Wire.readAnswer(Wire.writeAnswer(a), P);
    assertArrayEquals(a.data(), a2.data());
    assertEquals(2, a2.planes());
  }

  @Test
  void corruptedTruncatedAndMismatchedBytesAreRejectedByName() {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    byte[] q = Wire.writeQuery(new PirClient(P, G, sk, RANDOM).query(1));
    Consumer<byte[]> readQ = b -> Wire.readQuery(b, P);
    byte[] flipped = q.clone();
    flipped[q.length / 2] ^= 1;
    rejects(flipped, readQ, "checksum mismatch");
    rejects(Arrays.copyOf(q, q.length - 100), readQ, "checksum mismatch");
    rejects(Arrays.copyOf(q, 6), readQ, "truncated");
    byte[] magic = q.clone();
    magic[0] = 'X';
    rejects(magic, readQ, "bad magic");
    byte[] version = q.clone();
    version[5] = 9;
    rejects(version, readQ, "format version");
    rejects(Wire.writeSecretKey(sk), readQ, "expected a query but got a secret key");
    rejects(q, b -> Wire.readQuery(b, Presets.TEST_INSECURE_1024), "is for preset");
    rejects(q, b -> Wire.readAnswer(b, P), "expected a answer but got a query");
  }
}
