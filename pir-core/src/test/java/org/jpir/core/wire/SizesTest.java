package org.jpir.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.PreparedEvaluationKeys;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.junit.jupiter.api.Test;

/** The size breakdowns add up to the real messages and to the readers' limits. */
class SizesTest {
  static final SecureRandom RANDOM = new SecureRandom();
  static final String LONG_ID = "c".repeat(Wire.MAX_CLIENT_ID);

  @Test
  void compactBreakdownsEqualTheMessagesTheyDescribe() {
    CompactParams cp = CompactParams.TEST_INSECURE_256_COMPACT;
    Geometry unpacked = Geometry.of(cp.server(), 85 * 2, cp.server().bytesPerPolynomial(), 85);
    assertTrue(!cp.layout(unpacked.rows(), unpacked.cols()).packed());
    assertTrue(cp.layout(16, 5).packed());
    for (Geometry g : new Geometry[] {Geometry.of(cp.server(), 12 * 16 * 5 - 7, 100, 16),
        Geometry.of(cp.server(), 3, 100, 16), unpacked}) {
      CompactClient c = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM),
          LONG_ID, RANDOM);
      byte[] q = Wire.writeCompactQuery(c.query(g.recordCount() - 1));
      assertEquals(q.length, Sizes.compactQuery(cp, g).total());
      assertEquals(Wire.maxCompactQueryBytes(cp, g), Sizes.compactQuery(cp, g).total());
      byte[] k = Wire.writeEvaluationKeys(c.evaluationKeys());
      assertEquals(k.length, Sizes.evaluationKeys(cp, g).total());
      assertTrue(Sizes.evaluationKeys(cp, g).total() <= Wire.maxEvaluationKeysBytes(cp));
      PreparedDatabase db = PreparedDatabase.prepare(cp.server(), g,
          new SyntheticRecords(g.recordCount(), g.recordSize(), 5));
      PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(cp, c.evaluationKeys());
      PreparedQuery pq = new CompactExpander(cp).expand(c.query(1), keys, null);
      // the memory formulas against the real objects
      assertEquals(Sizes.preparedColumns(cp.server(), g, 0, g.cols()), db.sizeBytes());
      assertEquals(Sizes.preparedQuery(cp, g), pq.sizeBytes(), "expanded query");
      assertEquals(Sizes.preparedKeys(cp, cp.keyDepth(g.rows(), g.cols())), keys.sizeBytes());
      assertTrue(keys.sizeBytes() <= Sizes.preparedKeys(cp));
      byte[] a = Wire.writeAnswer(new PirServer(cp.server()).answer(db, pq, null));
      assertEquals(a.length, Sizes.answer(cp.server(), g).total());
      assertEquals(Wire.maxAnswerBytes(cp.server(), g), a.length);
    }
  }

  @Test
  void classicBreakdownsEqualTheMessagesTheyDescribe() {
    Params p = Presets.TEST_INSECURE_256;
    Geometry g = Geometry.of(p, 40, 3000, 4);
    PirClient c = new PirClient(p, g, SecretKey.generate(p, RANDOM), RANDOM);
    ClientQuery q = c.query(7);
    assertEquals(Wire.writeQuery(q).length, Sizes.query(p, g).total());
    assertEquals(Wire.maxQueryBytes(p, g), Sizes.query(p, g).total());
    PreparedDatabase db = PreparedDatabase.prepare(p, g, new SyntheticRecords(40, 3000, 1));
    byte[] a = Wire.writeAnswer(new PirServer(p).answer(db, new QueryExpander(p).expand(q, g),
        null));
    assertEquals(a.length, Sizes.answer(p, g).total());
    assertTrue(g.planes() > 1);
    assertEquals(Sizes.preparedColumns(p, g, 0, g.cols()), db.sizeBytes());
    assertEquals(Sizes.preparedColumnPlane(p, g) * g.cols() * g.planes(), db.sizeBytes());
    assertEquals(Sizes.preparedQuery(p, g), new QueryExpander(p).expand(q, g).sizeBytes());
  }

  @Test
  void productionTotalsEqualTheReadersLimits() {
    CompactParams cp = CompactParams.ONIONPIR_4096_COMPACT;
    Geometry g = cp.chooseGeometry((1L << 30) / 3072, 3072);
    assertEquals(Wire.maxCompactQueryBytes(cp, g), Sizes.compactQuery(cp, g).total());
    assertEquals(Wire.maxAnswerBytes(cp.server(), g), Sizes.answer(cp.server(), g).total());
    assertTrue(Sizes.evaluationKeys(cp, g).total() <= Wire.maxEvaluationKeysBytes(cp));
    assertTrue(Sizes.evaluationKeys(cp, g).describe().contains("automorphism keys"));
  }

  /**
   * A production compact preset whose phase-1 rows are fewer digits than the server's limbs: the
   * memory formulas equal the real expanded query and prepared keys.
   */
  @Test
  void productionCompactMemoryFormulasEqualTheRealObjects() {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    assertTrue(!cp.phase1().isLimbsOf(cp.server()), "the preset keeps fewer phase-1 digits");
    Geometry g = cp.chooseGeometry(60, 3072);
    CompactClient c = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM), "dana",
        RANDOM);
    PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(cp, c.evaluationKeys());
    PreparedQuery pq = new CompactExpander(cp).expand(c.query(7), keys, null);
    assertEquals(Sizes.preparedQuery(cp, g), pq.sizeBytes());
    assertTrue(Sizes.preparedQuery(cp, g) < Sizes.preparedQuery(cp.server(), g),
        "fewer phase-1 digits than a classic query's limbs");
    assertEquals(Sizes.preparedKeys(cp, cp.keyDepth(g.rows(), g.cols())), keys.sizeBytes());
  }
}
