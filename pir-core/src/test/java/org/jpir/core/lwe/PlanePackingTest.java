package org.jpir.core.lwe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import org.jpir.core.client.CompactClient;
import org.jpir.core.params.AnswerSwitch;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
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
import org.jpir.vmp.Pmat;
import org.junit.jupiter.api.Test;

/** Shared-mask answers of records spanning planes: exact records, measured noise, sizes. */
class PlanePackingTest {
  static final SecureRandom RANDOM = new SecureRandom();

  /** The packing key switch alone, on fresh ciphertexts: noise measured against its formula. */
  @Test
  void packingAddsTheNoiseItsFormulaStates() {
    Params p = Presets.TEST_INSECURE_256_COMPACT;
    int n = p.n();
    int limbs = p.glweLimbs();
    GlweOps ops = new GlweOps(p);
    for (int t : new int[] {2, 3}) {
      SecretKey s = SecretKey.generate(p, RANDOM);
      PlanePacking pk = new PlanePacking(p, t);
      PlanePacking.Key key = pk.generate(s, RANDOM);
      Pmat prepared = pk.prepare(key.upload());
      double sum = 0;
      long count = 0;
      for (int trial = 0; trial < 6; trial++) {
        Glwe[] roots = new Glwe[t];
        long[][] msgs = new long[t][];
        for (int j = 0; j < t; j++) {
          msgs[j] = new long[limbs * n];
          for (int c = 0; c < n; c++) {
            msgs[j][c] = RANDOM.nextInt(1 << 16) - (1 << 15);
          }
          roots[j] = ops.encrypt(s, msgs[j], Prg.fromSecureRandom(RANDOM),
              Prg.fromSecureRandom(RANDOM));
        }
        long[] packed = pk.pack(roots, prepared);
        long[] a = Arrays.copyOfRange(packed, t * limbs * n, (t + 1) * limbs * n);
        for (int j = 0; j < t; j++) {
          long[] d = new long[2 * limbs * n];
          System.arraycopy(packed, j * limbs * n, d, 0, limbs * n);
          System.arraycopy(a, 0, d, limbs * n, limbs * n);
          double[] e = ops.noise(key.secrets()[j], new Glwe(n, limbs, d), msgs[j]);
          for (double x : e) {
            sum += x * x;
            count++;
          }
        }
      }
      double measured = Math.sqrt(sum / count);
      double est = Math.sqrt(PlanePacking.variance(p, t) + Noise.fresh(p));
      System.out.printf(Locale.ROOT, "packing of %d planes at N = %d: noise std 2^%.2f, estimate"
          + " 2^%.2f%n", t, n, Math.log(measured) / Math.log(2), Math.log(est) / Math.log(2));
      assertTrue(measured <= est * 1.15 && measured >= est * 0.7, "packing noise " + measured
          + " vs estimate " + est);
    }
  }

  /** Records spanning 2 and 3 planes decode exactly from shared-mask answers, through the wire. */
  @Test
  void recordsSpanningPlanesDecodeExactlyFromSharedMaskAnswers() {
    CompactParams cp = CompactParams.TEST_INSECURE_256_COMPACT;
    Params p = cp.server();
    for (int recordSize : new int[] {p.bytesPerPolynomial() + 700, 3 * p.bytesPerPolynomial()}) {
      Geometry g = Geometry.of(p, 20, recordSize, 4);
      checkShared(cp, g, new long[] {0, 9, 19});
    }
  }

  /**
   * At the production compact preset: 30 KiB records (2 planes) decode exactly, the noise of
   * every plane is within the estimate, and the answer's rate is at least 0.4.
   */
  @Test
  void productionThirtyKibRecordsDecodeExactlyAtARateAboveTheTarget() {
    CompactParams cp = CompactParams.ONIONPIR_4096_COMPACT;
    Params p = cp.server();
    Geometry g = Geometry.of(p, 12, 30 * 1024, 3);
    assertEquals(2, g.planes());
    long bytes = checkShared(cp, g, new long[] {0, 7, 11});
    double rate = 30.0 * 1024 / bytes;
    double before = 30.0 * 1024 / Sizes.answer(p, g).total();
    System.out.printf(Locale.ROOT, "30 KiB records, production compact preset: shared-mask"
        + " answer %d B (rate %.3f), per-plane answer %d B (rate %.3f)%n", bytes, rate,
        Sizes.answer(p, g).total(), before);
    assertTrue(rate >= 0.4, "rate " + rate);
    assertEquals(Sizes.sharedAnswer(p, g).total(), bytes);
    // the preset's answer bits still meet its bound at the largest geometry with packing noise
    double v = Noise.compactAnswer(cp, cp.maxRows(), CompactParams.BUDGET_COLS)
        + PlanePacking.variance(p, 2);
    assertTrue(Noise.log2FailureProbability(p, v) <= CompactParams.MAX_LOG2_FAILURE,
        "2^" + Noise.log2FailureProbability(p, v));
  }

  /** Answers every index through the wire; returns the answer's size in bytes. */
  private static long checkShared(CompactParams cp, Geometry g, long[] indices) {
    Params p = cp.server();
    SyntheticRecords src = new SyntheticRecords(g.recordCount(), g.recordSize(), 31);
    SecretKey secret = CompactClient.generateSecret(cp, RANDOM);
    CompactClient client = new CompactClient(cp, g, secret, "pack", RANDOM);
    // the same key file in a later process: never made the packing key, derives its secrets
    CompactClient later = new CompactClient(cp, g, secret, "pack", RANDOM);
    PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(cp, client.evaluationKeys());
    byte[] keyBytes = Wire.writePackingKey(p, client.packingKey().upload());
    assertEquals(Wire.packingKeyBytes(p, g.planes()), keyBytes.length);
    assertEquals(Sizes.packingKey(p, g.planes()).total(), keyBytes.length);
    Pmat packing = new PlanePacking(p, g.planes()).prepare(Wire.readPackingKey(keyBytes, p, g));
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    ColumnEncoder enc = new ColumnEncoder(p, g, src);
    PlaintextCodec codec = new PlaintextCodec(p);
    double std = Math.sqrt(Noise.compactAnswer(cp, g.rows(), g.cols())
        + PlanePacking.variance(p, g.planes()));
    long size = -1;
    double pooled = 0;
    long pooledCount = 0;
    for (long i : indices) {
      PreparedQuery pq = new CompactExpander(cp).expand(client.query(i), keys, null);
      byte[] bytes = Wire.writeAnswer(new PirServer(p).answerShared(db, pq, null, packing));
      Answer a = Wire.readAnswer(bytes, p, g);
      assertTrue(a.sharedA());
      assertEquals(Wire.sharedAnswerBytes(p, g.planes(), AnswerSwitch.bCoefficients(p, g)),
          bytes.length);
      assertArrayEquals(src.record(i), client.decode(a, i), "record " + i);
      assertArrayEquals(src.record(i), later.decode(a, i), "record " + i + ", later client");
      byte[] poly = new byte[codec.polynomialBytes()];
      double sum = 0;
      long count = 0;
      for (int pl = 0; pl < g.planes(); pl++) {
        enc.polynomialBytes(pl, g.polynomialOf(i), poly);
        long[] digits = new long[p.plaintextLimbs() * p.n()];
        codec.encode(poly, 0, poly.length, digits, 0);
        double[] e = client.noise(a, pl, digits);
        for (int j = 0; j < a.bCoefficients(pl); j++) {
          sum += e[j] * e[j];
          count++;
          assertTrue(Math.abs(e[j]) < 7 * std, "plane " + pl + ": " + e[j]);
        }
      }
      double rms = Math.sqrt(sum / count);
      System.out.printf(Locale.ROOT, "%s %d x %d x %d planes, record %d: noise std 2^%.2f,"
          + " estimate 2^%.2f%n", p.id(), g.rows(), g.cols(), g.planes(), i,
          Math.log(rms) / Math.log(2), Math.log(std) / Math.log(2));
      pooled += sum;
      pooledCount += count;
      size = bytes.length;
    }
    // at these small geometries the modulus switch's rounding dominates, whose variance the
    // estimate holds exactly for E[s^2] = 2/3: the sample std scatters by about 1/sqrt(2 count),
    // and one client's secrets spread the rounding's variance by sqrt(1/(2N)) (|s|^2 is binomial)
    double rms = Math.sqrt(pooled / pooledCount);
    double tol = 1 + 3 / Math.sqrt(2.0 * pooledCount) + 1.5 * Math.sqrt(1.0 / (2 * p.n()));
    assertTrue(rms <= std * tol, "noise " + rms
        + " above the estimate " + std + " over " + pooledCount + " coefficients");
    return size;
  }

  /** Hostile or mismatched packed answers and keys are refused by name. */
  @Test
  void malformedSharedAnswersAndKeysAreRefused() {
    Params p = Presets.TEST_INSECURE_256_COMPACT;
    Geometry g = Geometry.of(p, 20, p.bytesPerPolynomial() + 100, 4);
    int nb = AnswerSwitch.bCoefficients(p, g);
    long[] v = new long[(int) Answer.valueCount(2, p.n(), nb, true)];
    for (int j = 0; j < v.length; j++) {
      int bits = j < v.length - p.n() ? p.answerBitsB() : p.answerBitsA();
      v[j] = RANDOM.nextLong() >>> (64 - bits);
    }
    Answer a = new Answer(p.id(), 2, p.n(), p.answerBitsB(), p.answerBitsA(), nb, v, true);
    byte[] bytes = Wire.writeAnswer(a);
    assertArrayEquals(v, Wire.readAnswer(bytes, p, g).values());
    assertThrows(Wire.WireException.class, () -> Wire.readAnswer(Arrays.copyOf(bytes,
        bytes.length - 9), p, g));
    Geometry three = Geometry.of(p, 20, 2 * p.bytesPerPolynomial() + 100, 4);
    Wire.WireException e = assertThrows(Wire.WireException.class,
        () -> Wire.readAnswer(bytes, p, three));
    assertTrue(e.getMessage().contains("planes"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new Answer(p.id(), 1, p.n(), 44, 50, 10, new long[10 + p.n()], true));
    assertThrows(IllegalArgumentException.class,
        () -> new PlanePacking(p, PlanePacking.MAX_PLANES + 1));
    assertThrows(IllegalArgumentException.class, () -> new PlanePacking(p, 1));
    PlanePacking.Upload u = new PlanePacking(p, 2).generate(SecretKey.generate(p, RANDOM),
        RANDOM).upload();
    byte[] key = Wire.writePackingKey(p, u);
    assertThrows(Wire.WireException.class, () -> Wire.readPackingKey(key, p, three));
    assertThrows(Wire.WireException.class, () -> Wire.readPackingKey(Arrays.copyOf(key,
        key.length / 2), p, g));
  }
}
