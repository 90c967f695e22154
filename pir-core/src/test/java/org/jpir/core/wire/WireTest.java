package org.jpir.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.function.Consumer;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.AnswerSwitch;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    Answer a = randomAnswer(P, 2, P.n());
    Answer a2 = Wire.readAnswer(Wire.writeAnswer(a), P);
    assertArrayEquals(a.values(), a2.values());
    assertEquals(2, a2.planes());
    Answer trimmed = randomAnswer(P, 1, 17);
    assertArrayEquals(trimmed.values(), Wire.readAnswer(Wire.writeAnswer(trimmed), P).values());
    assertEquals(Wire.answerBytes(P, 1, 17), Wire.writeAnswer(trimmed).length);
    Answer lastTrimmed = randomAnswer(P, 3, 29);
    assertArrayEquals(lastTrimmed.values(),
        Wire.readAnswer(Wire.writeAnswer(lastTrimmed), P).values());
    assertEquals(Wire.answerBytes(P, 3, 29), Wire.writeAnswer(lastTrimmed).length);
    assertEquals(Wire.maxAnswerBytes(P, Geometry.of(P, 10, 2 * P.bytesPerPolynomial() + 1, 4))
        - Answer.planeBytes(P.n(), P.answerBitsB(), P.answerBitsA(), P.n())
        + Answer.planeBytes(P.n(), P.answerBitsB(), P.answerBitsA(), 29),
        Wire.writeAnswer(lastTrimmed).length, "only the last plane is trimmed");
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
    // the geometry overloads refuse a message made for another database shape
    Geometry other = Geometry.of(P, 1000, 100, 8);
    rejects(q, b -> Wire.readQuery(b, P, other), "query was made for 4 rows x 2 columns");
    Answer a = randomAnswer(P, 2, P.n());
    rejects(Wire.writeAnswer(a), b -> Wire.readAnswer(b, P, G), "planes 1");
    Answer fewBits = new Answer(P.id(), 1, P.n(), P.answerBitsB() - 1, P.answerBitsA(), P.n(),
        new long[2 * P.n()]);
    rejects(Wire.writeAnswer(fewBits), b -> Wire.readAnswer(b, P), "b " + P.answerBitsB()
        + " bits");
    // b trimmed to a count the geometry does not give
    rejects(Wire.writeAnswer(randomAnswer(P, G.planes(), 17)), b -> Wire.readAnswer(b, P, G),
        "b of " + AnswerSwitch.bCoefficients(P, G) + " or " + P.n() + " coefficients");
    // non-zero padding bits
    Answer odd = randomAnswer(P, 1, 1);
    byte[] bad = Wire.writeAnswer(odd);
    if ((P.answerBitsB() + P.n() * (long) P.answerBitsA()) % 8 != 0) {
      bad[bad.length - 5] |= 1;
      rejects(Wire.sealChecksum(bad), b -> Wire.readAnswer(b, P), "padding");
    }
  }

  @Test
  void largestMessageSizesAreExactAndFilesBeyondThemAreRefusedUnread(@TempDir Path dir)
      throws Exception {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    byte[] q = Wire.writeQuery(new PirClient(P, G, sk, RANDOM).query(3));
    assertEquals(Wire.maxQueryBytes(P, G), q.length);
    assertEquals(Wire.maxSecretKeyBytes(P), Wire.writeSecretKey(sk).length);
    Answer a = randomAnswer(P, G.planes(), P.n());
    assertEquals(Wire.maxAnswerBytes(P, G), Wire.writeAnswer(a).length);
    // production sizes, for the jobs' limits
    Params prod = Presets.ONIONPIR_4096;
    Geometry big = Geometry.of(prod, 1L << 20, 4096, 1024);
    assertEquals(8, Geometry.levels(big.cols()));
    // header 34 (magic 4, version 2, type 1, id 2 + 17, revision 8), rows and cols 8, seed 32,
    // 1024 x 4 GLWEs and 8 x 10 GGSW rows of 6 x 4096 digits with their lengths, CRC 4
    assertEquals(34 + 8 + 32 + 4 + 2L * 1024 * 4 * 6 * 4096 + 4 + 2L * 8 * 10 * 6 * 4096 + 4,
        Wire.maxQueryBytes(prod, big));
    assertTrue(Wire.maxEvaluationKeysBytes(CompactParams.ONIONPIR_4096_COMPACT) < 5_000_000);
    Path f = dir.resolve("q.query");
    Files.write(f, q);
    assertArrayEquals(q, Wire.readFile(f, Wire.maxQueryBytes(P, G), "query"));
    Files.write(f, Arrays.copyOf(q, q.length + 1));
    Wire.WireException e = assertThrows(Wire.WireException.class,
        () -> Wire.readFile(f, Wire.maxQueryBytes(P, G), "query"));
    assertTrue(e.getMessage().contains("more than the largest valid " + q.length),
        e.getMessage());
    e = assertThrows(Wire.WireException.class, () -> Wire.readFile(dir, 100, "query"));
    assertTrue(e.getMessage().contains("is not a regular file"), e.getMessage());
    Path fifo = dir.resolve("fifo.query");
    if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) {
      e = assertThrows(Wire.WireException.class, () -> Wire.readFile(fifo, 100, "query"));
      assertTrue(e.getMessage().contains("fifo.query is not a regular file"), e.getMessage());
    }
    e = assertThrows(Wire.WireException.class, () -> Wire.readBounded(
        new java.io.ByteArrayInputStream(new byte[101]), 100, "stream"));
    assertTrue(e.getMessage().contains("stream holds more than the largest valid 100"),
        e.getMessage());
  }

  /** An answer of random switched values (the last plane's b of {@code nb} coefficients). */
  static Answer randomAnswer(Params p, int planes, int nb) {
    long[] v = new long[(int) Answer.valueCount(planes, p.n(), nb)];
    for (int pl = 0; pl < planes; pl++) {
      int nbHere = pl == planes - 1 ? nb : p.n();
      for (int j = 0; j < nbHere + p.n(); j++) {
        int bits = j < nbHere ? p.answerBitsB() : p.answerBitsA();
        long r = RANDOM.nextLong();
        v[pl * 2 * p.n() + j] = bits == 64 ? r : r >>> (64 - bits);
      }
    }
    return new Answer(p.id(), planes, p.n(), p.answerBitsB(), p.answerBitsA(), nb, v);
  }
}
