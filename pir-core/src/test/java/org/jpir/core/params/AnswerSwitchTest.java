package org.jpir.core.params;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.NoiseSamples;
import org.jpir.core.lwe.PlaintextCodec;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.PreparedEvaluationKeys;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.server.ColumnEncoder;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.Sizes;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

/** The modulus switch of answers: exact values, derived bits, measured noise, trimmed b. */
class AnswerSwitchTest {
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void switchedValuesSurviveTheDigitFormExactly() {
    for (int k : new int[] {8, 12, 16}) {
      for (int bits : new int[] {17, 44, 50, 60, 64}) {
        int limbs = (bits + k - 1) / k;
        if (k * limbs > 64) {
          continue;
        }
        long[] d = new long[limbs];
        for (int t = 0; t < 2000; t++) {
          long r = RANDOM.nextLong();
          long w = bits == 64 ? r : r >>> (64 - bits);
          AnswerSwitch.toDigits(w, bits, k, limbs, d, 0, 1);
          for (long x : d) {
            assertTrue(x >= -(1L << (k - 1)) && x < (1L << (k - 1)), "digit " + x);
          }
          assertEquals(w, AnswerSwitch.round(AnswerSwitch.fixed64(d, 0, 1, limbs, k), bits),
              "K " + k + ", " + bits + " bits");
        }
      }
    }
    // rounding to nearest: 0.75 - 2^-20 at 1 bit rounds to 1/2 ... at 2 bits to 3/4
    long v = (3L << 62) - (1L << 44);
    assertEquals(3, AnswerSwitch.round(v, 2));
    assertEquals(0, AnswerSwitch.round(-1L, 8), "just below 1 wraps to 0");
  }

  /** Every preset's answer bits are the fewest that meet its failure bound (derivation). */
  @Test
  void everyPresetHasTheFewestAnswerBitsItsBudgetAllows() {
    List<Object[]> cases = new ArrayList<>();
    for (Params p : List.of(Presets.ONIONPIR_4096, Presets.TEST_INSECURE_256,
        Presets.TEST_INSECURE_1024)) {
      cases.add(new Object[] {p, Noise.answerBeforeSwitch(p, Geometry.maxRows(p),
          Presets.BUDGET_COLS), Presets.MAX_LOG2_FAILURE});
    }
    for (CompactParams cp : CompactParams.all()) {
      cases.add(new Object[] {cp.server(), Noise.compactAnswerBeforeSwitch(cp, cp.maxRows(),
          CompactParams.BUDGET_COLS), CompactParams.MAX_LOG2_FAILURE});
    }
    for (Object[] c : cases) {
      Params p = (Params) c[0];
      double v = (double) c[1];
      double bound = (double) c[2];
      int b = p.answerBitsB();
      int a = p.answerBitsA();
      assertTrue(Noise.log2FailureProbability(p, v + Noise.answerSwitch(p.n(), b, a)) <= bound,
          p.id());
      for (int a2 = p.plaintextBits() + 1; a2 <= 64; a2++) {
        int b2 = a + b - 1 - a2;
        if (b2 > p.plaintextBits() && b2 <= 64) {
          assertTrue(Noise.log2FailureProbability(p, v + Noise.answerSwitch(p.n(), b2, a2))
              > bound, p.id() + ": " + b2 + " + " + a2 + " bits would do");
        }
      }
      assertTrue(a + b < 2 * p.base2k() * p.answerLimbs(), p.id() + " switches below its limbs");
      System.out.printf(java.util.Locale.ROOT, "%s: answer b %d bits, a %d bits (limbs: %d);"
          + " failure 2^%.0f at the largest geometry%n", p.id(), b, a,
          p.base2k() * p.answerLimbs(), Noise.log2FailureProbability(p, v
              + Noise.answerSwitch(p.n(), b, a)));
    }
    assertEquals(Presets.ONIONPIR_4096_COMPACT, CompactParams.ONIONPIR_4096_COMPACT.server());
  }

  /** The noise the switch adds, measured on fresh ciphertexts, is its formula's. */
  @Test
  void measuredSwitchNoiseMatchesItsVariance() {
    measureSwitch(Presets.TEST_INSECURE_1024_COMPACT.withAnswerBits(42, 41));
    measureSwitch(Presets.TEST_INSECURE_1024.withAnswerBits(59, 58));
    measureSwitch(Presets.TEST_INSECURE_1024.withAnswerBits(64, 57));
  }

  static void measureSwitch(Params p) {
    Geometry g = Geometry.of(p, 1, p.bytesPerPolynomial(), 1);
    SecretKey sk = SecretKey.generate(p, RANDOM);
    GlweOps ops = new GlweOps(p);
    PirClient client = new PirClient(p, g, sk, RANDOM);
    Prg prg = Prg.fromSecureRandom(RANDOM);
    double sum = 0;
    int count = 0;
    for (int t = 0; t < 8; t++) {
      long[] msg = new long[p.glweLimbs() * p.n()];
      prg.fillUniformDigits(msg, 0, p.plaintextLimbs() * p.n(), p.base2k());
      Glwe c = ops.encrypt(sk, msg, prg, prg);
      Answer a = new PirServer(p).toAnswer(new Glwe[] {c});
      double[] e = client.noise(a, 0, java.util.Arrays.copyOf(msg, p.plaintextLimbs() * p.n()));
      for (double x : e) {
        sum += x * x;
        count++;
      }
    }
    double var = sum / count;
    // the formula takes the expected |s|^2 = 2N/3 of a ternary key; this key's own |s|^2
    // (2% spread at N = 1024) would otherwise make the check fail once in a few hundred runs
    double s2 = 0;
    for (long x : sk.coefficients()) {
      s2 += (double) x * x;
    }
    double perA = ((p.answerBitsA() >= 64 ? 0 : Math.pow(2, -2.0 * p.answerBitsA()))
        + Math.pow(2, -128)) / 12;
    double est = Noise.answerRounding(p) + (s2 - p.n() * 2.0 / 3) * perA + Noise.fresh(p);
    System.out.printf(java.util.Locale.ROOT, "%s b %d a %d: switch noise 2^%.2f, estimate"
        + " 2^%.2f%n", p.id(), p.answerBitsB(), p.answerBitsA(), Math.log(var) / Math.log(4),
        Math.log(est) / Math.log(4));
    assertTrue(var <= est * NoiseSamples.tolerance(count), var + " vs " + est);
    assertTrue(var >= est / NoiseSamples.tolerance(count), var + " vs " + est);
  }

  /** One record per polynomial: b carries only the record's coefficients and decodes exactly. */
  @Test
  void answersOfOneRecordPerPolynomialCarryOnlyTheRecordsCoefficients() {
    CompactParams cp = CompactParams.TEST_INSECURE_256_COMPACT;
    Params p = cp.server();
    int recordSize = 700; // of 1280 bytes per polynomial
    Geometry g = Geometry.of(p, 40, recordSize, 8);
    assertEquals(1, g.recordsPerPoly());
    assertEquals(140, AnswerSwitch.bCoefficients(p, g));
    SyntheticRecords src = new SyntheticRecords(40, recordSize, 3);
    CompactClient client = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM),
        "trim", RANDOM);
    PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(cp, client.evaluationKeys());
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    ColumnEncoder enc = new ColumnEncoder(p, g, src);
    for (long i : new long[] {0, 17, 39}) {
      PreparedQuery pq = new CompactExpander(cp).expand(client.query(i), keys, null);
      byte[] bytes = Wire.writeAnswer(new PirServer(p).answer(db, pq, null));
      assertEquals(Sizes.answer(p, g).total(), bytes.length);
      assertTrue(bytes.length < Wire.maxAnswerBytes(p, g));
      Answer a = Wire.readAnswer(bytes, p, g);
      assertEquals(140, a.bCoefficients());
      assertArrayEquals(src.record(i), client.decode(a, i), "record " + i);
      long[] digits = new long[p.plaintextLimbs() * p.n()];
      System.arraycopy(enc.digits(0, g.columnOf(i)), g.rowOf(i) * digits.length, digits, 0,
          digits.length);
      double max = client.measureNoise(a, new long[][] {digits});
      // P(|z| > 6) = 2e-9 per coefficient (4.5 sigma, 7e-6, was hit about once per 10 runs)
      assertTrue(max <= 6 * Math.sqrt(Noise.compactAnswer(cp, g.rows(), g.cols())),
          "noise " + max);
    }
  }

  /**
   * A record spanning planes: every plane but the last carries all of b, the last only the
   * coefficients of the record's remaining bytes; records decode exactly with every plane's noise
   * below the estimate, through the wire.
   */
  @Test
  void recordsSpanningPlanesTrimOnlyTheLastPlane() {
    CompactParams cp = CompactParams.TEST_INSECURE_256_COMPACT;
    Params p = cp.server();
    int recordSize = 2 * p.bytesPerPolynomial() + 333; // 2 full planes + 67 coefficients
    Geometry g = Geometry.of(p, 24, recordSize, 4);
    assertEquals(3, g.planes());
    assertEquals(67, AnswerSwitch.bCoefficients(p, g));
    SyntheticRecords src = new SyntheticRecords(24, recordSize, 9);
    CompactClient client = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM),
        "span", RANDOM);
    PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(cp, client.evaluationKeys());
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    ColumnEncoder enc = new ColumnEncoder(p, g, src);
    PlaintextCodec codec = new PlaintextCodec(p);
    double std = Math.sqrt(Noise.compactAnswer(cp, g.rows(), g.cols()));
    for (long i : new long[] {0, 13, 23}) {
      PreparedQuery pq = new CompactExpander(cp).expand(client.query(i), keys, null);
      byte[] bytes = Wire.writeAnswer(new PirServer(p).answer(db, pq, null));
      assertEquals(Sizes.answer(p, g).total(), bytes.length);
      assertEquals(Wire.maxAnswerBytes(p, g) - Answer.planeBytes(p.n(), p.answerBitsB(),
          p.answerBitsA(), p.n()) + Answer.planeBytes(p.n(), p.answerBitsB(), p.answerBitsA(),
          67), bytes.length);
      Answer a = Wire.readAnswer(bytes, p, g);
      assertEquals(p.n(), a.bCoefficients(0));
      assertEquals(67, a.bCoefficients(2));
      assertArrayEquals(src.record(i), client.decode(a, i), "record " + i);
      byte[] poly = new byte[codec.polynomialBytes()];
      for (int pl = 0; pl < 3; pl++) {
        enc.polynomialBytes(pl, g.polynomialOf(i), poly);
        long[] digits = new long[p.plaintextLimbs() * p.n()];
        codec.encode(poly, 0, poly.length, digits, 0);
        double[] e = client.noise(a, pl, digits);
        for (int j = 0; j < a.bCoefficients(pl); j++) {
          assertTrue(Math.abs(e[j]) < 6 * std, "plane " + pl + " coefficient " + j + ": " + e[j]);
        }
      }
    }
  }
}
