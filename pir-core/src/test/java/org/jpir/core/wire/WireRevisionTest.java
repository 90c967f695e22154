package org.jpir.core.wire;

import static org.jpir.core.wire.WireTest.rejects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.PirServer;
import org.junit.jupiter.api.Test;

/**
 * Every message carries its preset's parameter revision ({@link ParameterRevision}) after the
 * preset id, and every reader refuses another revision, or a retired format version, with a
 * message naming the preset, both revisions and what to do.
 */
class WireRevisionTest {
  static final SecureRandom RANDOM = new SecureRandom();
  static final Params P = Presets.TEST_INSECURE_256;
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;

  /** One message of each type, with its reader, in the order of the types. */
  static Map<String, Case> messages() {
    Map<String, Case> m = new LinkedHashMap<>();
    SecretKey sk = SecretKey.generate(P, RANDOM);
    Geometry g = Geometry.of(P, 100, 100, 4);
    m.put("secret key", new Case(P.id(), Wire.writeSecretKey(sk), b -> Wire.readSecretKey(b, P)));
    m.put("query", new Case(P.id(), Wire.writeQuery(new PirClient(P, g, sk, RANDOM).query(3)),
        b -> Wire.readQuery(b, P, g)));
    m.put("answer", new Case(P.id(), Wire.writeAnswer(WireTest.randomAnswer(P, 1, P.n())),
        b -> Wire.readAnswer(b, P)));
    Geometry cg = CP.chooseGeometry(2000, 100);
    CompactClient cc = new CompactClient(CP, cg, CompactClient.generateSecret(CP, RANDOM), "alice",
        RANDOM);
    m.put("compact secret key", new Case(CP.keys().id(),
        Wire.writeSecretKey(CompactClient.generateSecret(CP, RANDOM)),
        b -> Wire.readSecretKey(b, CP.keys())));
    m.put("evaluation keys", new Case(CP.id(), Wire.writeEvaluationKeys(cc.evaluationKeys()),
        b -> Wire.readEvaluationKeys(b, CP)));
    m.put("compact query", new Case(CP.id(), Wire.writeCompactQuery(cc.query(5)),
        b -> Wire.readCompactQuery(b, CP, cg)));
    Geometry g2 = Geometry.of(P, 6, P.bytesPerPolynomial() + 100, 2);
    assertEquals(2, g2.planes());
    PlanePacking pk = new PlanePacking(P, 2);
    PlanePacking.Upload u = pk.generate(sk, RANDOM).upload();
    m.put("packing key", new Case(P.id(), Wire.writePackingKey(P, u),
        b -> Wire.readPackingKey(b, P, g2)));
    Glwe[] roots = {new Glwe(P.n(), P.glweLimbs()), new Glwe(P.n(), P.glweLimbs())};
    m.put("shared-mask answer", new Case(P.id(), Wire.writeAnswer(
        new PirServer(P).toSharedAnswer(roots, g2, pk.prepare(u))), b -> Wire.readAnswer(b, P)));
    return m;
  }

  /** A message of a preset and the reader that must accept it. */
  record Case(String presetId, byte[] msg, Consumer<byte[]> reader) {
    /** Offset of the revision: after magic, version, type and the id. */
    int revisionAt() {
      return 9 + presetId.getBytes(StandardCharsets.UTF_8).length;
    }

    long revision() {
      long v = 0;
      for (int i = 0; i < ParameterRevision.BYTES; i++) {
        v = (v << 8) | (msg[revisionAt() + i] & 0xFF);
      }
      return v;
    }
  }

  @Test
  void everyMessageCarriesItsPresetsRevisionAfterTheId() {
    for (Map.Entry<String, Case> e : messages().entrySet()) {
      Case c = e.getValue();
      c.reader().accept(c.msg());
      assertEquals(Wire.VERSION, ((c.msg()[4] & 0xFF) << 8) | (c.msg()[5] & 0xFF));
      assertEquals(c.presetId(), new String(c.msg(), 9, c.msg()[8], StandardCharsets.UTF_8));
      assertEquals(ParameterRevision.forId(c.presetId()), c.revision(), e.getKey());
    }
  }

  @Test
  void aTamperedRevisionIsRefusedNamingPresetBothRevisionsAndTheRemedy() {
    for (Map.Entry<String, Case> e : messages().entrySet()) {
      Case c = e.getValue();
      byte[] bad = c.msg().clone();
      bad[c.revisionAt() + 7] ^= 1;
      Wire.sealChecksum(bad);
      long expected = c.revision();
      Wire.WireException x = assertThrows(Wire.WireException.class,
          () -> c.reader().accept(bad), e.getKey());
      String m = x.getMessage();
      assertTrue(m.contains("was made for preset " + c.presetId() + " revision "
          + ParameterRevision.hex(expected ^ 1)), m);
      assertTrue(m.contains("this build runs revision " + ParameterRevision.hex(expected)), m);
      assertTrue(m.contains(e.getKey().contains("answer") ? "different jpir builds"
          : "`./pir client keygen`"), m);
    }
  }

  @Test
  void aKeyQueryOrAnswerMadeUnderAnOlderNoiseLevelOfTheSamePresetIsRefused() {
    Params older = new Params(P.id(), P.n(), P.base2k(), P.plaintextBits(), P.plaintextLimbs(),
        P.glweLimbs(), P.ggswLevels(), P.answerLimbs(), P.sigma() * 2, P.securityBits(),
        P.answerBitsB(), P.answerBitsA(), P.ggswBits(), P.scaledPlaintext());
    SecretKey sk = SecretKey.generate(older, RANDOM);
    String was = "revision " + ParameterRevision.hex(ParameterRevision.of(older))
        + ", but this build runs revision " + ParameterRevision.hex(ParameterRevision.of(P));
    rejects(Wire.writeSecretKey(sk), b -> Wire.readSecretKey(b, P), was);
    rejects(Wire.writeSecretKey(sk), b -> Wire.readSecretKey(b, P), "`./pir client keygen`");
    Geometry g = Geometry.of(older, 100, 100, 4);
    byte[] q = Wire.writeQuery(new PirClient(older, g, sk, RANDOM).query(1), older);
    rejects(q, b -> Wire.readQuery(b, P), was);
    byte[] a = Wire.writeAnswer(WireTest.randomAnswer(older, 1, older.n()), older);
    rejects(a, b -> Wire.readAnswer(b, P), was);
    // and the same messages are read under the parameters they were made with
    Wire.readQuery(q, older);
    Wire.readAnswer(a, older);
  }

  @Test
  void aFileOfARetiredFormatVersionIsRefusedAsSuch() {
    for (Map.Entry<String, Case> e : messages().entrySet()) {
      Case c = e.getValue();
      // the version-3 layout: no revision after the id
      byte[] v3 = new byte[c.msg().length - ParameterRevision.BYTES];
      System.arraycopy(c.msg(), 0, v3, 0, c.revisionAt());
      System.arraycopy(c.msg(), c.revisionAt() + ParameterRevision.BYTES, v3, c.revisionAt(),
          v3.length - c.revisionAt());
      v3[5] = 3;
      Wire.sealChecksum(v3);
      rejects(v3, c.reader(), "wire format version 3, which is no longer supported");
    }
    byte[] newer = messages().get("query").msg().clone();
    newer[5] = (byte) (Wire.VERSION + 1);
    rejects(newer, messages().get("query").reader(), "format version " + (Wire.VERSION + 1));
  }

  @Test
  void writersNeedTheParametersOfAPresetThatIsNotShipped() {
    Params custom = new Params("custom-insecure", 256, 16, 56, 4, 6, 5, 5, 3.2, 0);
    Answer a = WireTest.randomAnswer(custom, 1, custom.n());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Wire.writeAnswer(a));
    assertTrue(e.getMessage().contains("'custom-insecure'"), e.getMessage());
    assertEquals(Wire.answerBytes(custom, 1, custom.n()), Wire.writeAnswer(a, custom).length);
    assertThrows(IllegalArgumentException.class, () -> Wire.writeAnswer(a, P));
    int header = (int) Wire.headerBytes(P.id());
    assertTrue(Arrays.equals(Wire.writeAnswer(WireTest.randomAnswer(P, 1, 1), P), 0, header,
        Wire.writeAnswer(WireTest.randomAnswer(P, 1, 1)), 0, header),
        "a shipped preset's writers stamp one revision, given its parameters or its id");
  }
}
