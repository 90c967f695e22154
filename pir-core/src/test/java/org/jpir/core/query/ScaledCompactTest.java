package org.jpir.core.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jpir.core.client.CompactClient;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.DigitForm;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Security;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

/**
 * The N = 2048 compact preset and its N = 256 test shape: the scaled (plaintext-modulus)
 * encoding of byte plaintexts and gadgets finer than the limbs (key switching 8 x 6 bits, GGSW(s)
 * 6 x 6, phase-2 GGSWs 5 x 4), each noise measured against its estimate, and records decoded
 * exactly through the wire.
 */
class ScaledCompactTest {
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT_SCALED;
  static final CompactParams PROD = CompactParams.ONIONPIR_2048_COMPACT;

  @Test
  void presetShapeAndSecurity() {
    Params s = PROD.server();
    assertTrue(s.scaledPlaintext() && s.plaintextBits() == 8 && s.n() == 2048);
    assertEquals(4, s.ggswBits());
    assertEquals(6, PROD.ksBits());
    assertEquals(6, PROD.keys().ggswBits());
    assertTrue(Security.meets128(s) && Security.meets128(PROD.keys()));
    assertTrue(Security.effectiveLogQ(PROD.keys()) <= 51 + 1e-9, "keys' noise at the floor");
  }

  @Test
  void keySwitchWithSixBitDigitsHasTheEstimatedNoise() {
    Params p = CP.server();
    // 200 rows of one polynomial: 200 phase-1 slots, depth 8 = every automorphism key of N=256
    CompactQueryTest.checkKeySwitch(CP, Geometry.of(p, 200, p.bytesPerPolynomial(), 200));
  }

  /**
   * The server prepares the N = 2048 key-switching keys in two 29-bit digits per part (the widest
   * whose products stay exact: 5 + 28 + 11 + 3 = 47 bits), rounded to 58 of their 64 bits at a
   * cost within {@link DigitForm#MAX_SHARE}; the N = 256 shape takes 32-bit digits (no
   * rounding) and the N = 4096 preset its own 16-bit limbs. At N = 2048 the switches through the
   * rounded keys decrypt to the automorphism of the phase with the estimated noise.
   */
  @Test
  void keySwitchingKeysPreparedInWideDigitsKeepTheEstimatedNoise() {
    Params k = PROD.keys();
    assertEquals(new DigitForm(29, 2), PROD.ksForm());
    assertEquals(29, DigitForm.maxDigitBits(k, PROD.ksLevels(), PROD.ksBits()));
    double own = Noise.keySwitchOwnForm(PROD);
    double rounding = PROD.ksForm().roundingVariance(k, PROD.ksLevels(), PROD.ksBits());
    assertTrue(rounding > 0 && rounding <= DigitForm.MAX_SHARE * own,
        "rounding to 58 bits: " + rounding + " of a switch's " + own);
    assertEquals(own + rounding, Noise.keySwitch(PROD), 1e-12 * own);
    assertEquals(new DigitForm(32, 2), CP.ksForm());
    assertEquals(0, CP.ksForm().roundingVariance(CP.keys(), CP.ksLevels(), CP.ksBits()));
    CompactParams big = CompactParams.ONIONPIR_4096_COMPACT;
    assertTrue(big.ksForm().isLimbsOf(big.keys()), "N = 4096 keys span 112 bits: own limbs");
    Params p = PROD.server();
    CompactQueryTest.checkKeySwitch(PROD, Geometry.of(p, 512, p.bytesPerPolynomial(), 512),
        false);
  }

  @Test
  void ggswOfSWithSixBitDigitsHasTheEstimatedNoise() {
    Params p = CP.server();
    CompactQueryTest.checkGgswOfS(CP, Geometry.of(p, 16 * 5, 100, 16));
  }

  @Test
  void scaledQueriesDecodeExactRecords() {
    Params p = CP.server();
    Geometry g = Geometry.of(p, 16 * 5 * 2 - 3, 100, 16);
    assertEquals(16, g.rows());
    CompactQueryTest.roundTrip(CP, g, new SyntheticRecords(g.recordCount(), 100, 31), 0, 1, 15,
        77, g.recordCount() - 1);
    Geometry one = Geometry.of(p, 20, 60, 64);
    assertEquals(1, one.cols());
    CompactQueryTest.roundTrip(CP, one, new SyntheticRecords(20, 60, 32), 0, 19);
    Geometry planes = Geometry.of(p, 9, 700, 4);
    assertEquals(3, planes.planes());
    CompactQueryTest.roundTrip(CP, planes, new SyntheticRecords(9, 700, 33), 0, 5, 8);
  }

  /**
   * The production N = 2048 preset end to end at 1 GiB's row count (241 rows, 16 columns of 2 KiB
   * polynomials), with the size targets: query <= 14.5 KB, answer <= 11 KB per 2 KiB
   * plane, keys <= 1.4 MiB.
   */
  @Test
  void productionPresetEndToEndWithSizesWithinTargets() {
    Params p = PROD.server();
    Geometry big = PROD.chooseGeometry(349_696L, 3072);
    int rows = big.rows();
    Geometry g = Geometry.of(p, (long) rows * 16, p.bytesPerPolynomial(), rows);
    CompactQueryTest.roundTrip(PROD, g, new SyntheticRecords(g.recordCount(),
        p.bytesPerPolynomial(), 41), 0, (long) rows * 16 - 1, 333);
    CompactClient c = CompactQueryTest.client(PROD, big, "size");
    int queryBytes = Wire.writeCompactQuery(c.query(0)).length;
    int keyBytes = Wire.writeEvaluationKeys(c.evaluationKeys()).length;
    long answerBytes = Wire.maxAnswerBytes(p, g);
    System.out.printf(java.util.Locale.ROOT, "%s at 1 GiB / 3 KiB (%d x %d): query %d B, keys %d"
        + " B, answer %d B per 2 KiB plane%n", PROD.id(), big.rows(), big.cols(), queryBytes,
        keyBytes, answerBytes);
    assertTrue(queryBytes <= 14_500, "query " + queryBytes + " B above 14.5 KB");
    assertTrue(answerBytes <= 11_000, "answer " + answerBytes + " B above 11 KB per plane");
    assertTrue(keyBytes <= 1.4 * 1024 * 1024, "keys " + keyBytes + " B above 1.4 MiB");
  }

  /**
   * The chooser's cheapest rows at 1 GiB / 3 KiB (591) exceed the budget's 512, and at 512 the
   * query would need two GLWEs: it takes the most rows that pack into one, and says so.
   */
  @Test
  void geometryChooserKeepsTheQueryInOneGlweAndSaysWhy() {
    CompactParams.GeometryChoice c = PROD.chooseGeometryWithReason(349_525L, 3072);
    Geometry g = c.geometry();
    assertTrue(PROD.layout(g.rows(), g.cols()).packed(), c.reason());
    Geometry more = Geometry.of(PROD.server(), 349_525L, 3072, g.rows() + 1);
    assertTrue(!PROD.layout(more.rows(), more.cols()).packed(), "one more row does not pack");
    assertTrue(c.reason().contains("capped at the 512 rows") && c.reason().contains("lowered to "
        + g.rows()), c.reason());
    // the N = 4096 preset's 1 GiB / 3 KiB geometry is the one its cost formula gives
    assertEquals(99, CompactParams.ONIONPIR_4096_COMPACT.chooseGeometry(349_525L, 3072).rows());
  }

  @Test
  void productionPresetDecodesAtItsLargestGeometryWithWorstCaseDigits() {
    double var = CompactQueryTest.checkLargestGeometry(PROD, 1 << 16);
    double lf = Noise.log2FailureProbability(PROD.server(), var);
    System.out.printf(java.util.Locale.ROOT, "%s: failure per coefficient from the measured"
        + " noise 2^%.0f%n", PROD.id(), lf);
    assertTrue(lf <= -40, "measured failure 2^" + lf + " above 2^-40");
  }
}
