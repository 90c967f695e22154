package org.jpir.core.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.List;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

class PirEndToEndTest {
  static final SecureRandom RANDOM = new SecureRandom();

  /** Queries each index, answers through the wire format, checks the decoded bytes. */
  static void roundTrip(Params p, Geometry g, SyntheticRecords src, long... indices) {
    SecretKey sk = SecretKey.generate(p, RANDOM);
    PirClient client = new PirClient(p, g, sk, RANDOM);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    PirServer server = new PirServer(p);
    QueryExpander expander = new QueryExpander(p);
    for (long i : indices) {
      byte[] qBytes = Wire.writeQuery(client.query(i));
      PreparedQuery pq = expander.expand(Wire.readQuery(qBytes, p), g);
      Answer a = Wire.readAnswer(Wire.writeAnswer(server.answer(db, pq, null)), p);
      assertArrayEquals(src.record(i), client.decode(a, i), "record " + i + " of " + g);
    }
  }

  /** Classic queries at the scaled encoding (byte digits, 4-bit GGSW digits) decode too. */
  @Test
  void scaledEncodingDecodesWithClassicQueries() {
    Params p = Presets.TEST_INSECURE_256_COMPACT_SCALED;
    SyntheticRecords src = new SyntheticRecords(150, 100, 5);
    Geometry g = Geometry.of(p, 150, 100, 8);
    roundTrip(p, g, src, 0, 1, 77, 149);
  }

  @Test
  void decodesExactRecordsWithNonPowerOfTwoColumns() {
    Params p = Presets.TEST_INSECURE_256;
    SyntheticRecords src = new SyntheticRecords(200, 100, 1);
    Geometry g = Geometry.of(p, 200, 100, 4); // 17 records/poly -> 12 polys -> 4 x 3
    assertEquals(3, g.cols());
    roundTrip(p, g, src, 0, 1, 16, 17, 100, 199);
  }

  @Test
  void decodesRecordsSpanningSeveralPlanes() {
    Params p = Presets.TEST_INSECURE_256;
    SyntheticRecords src = new SyntheticRecords(11, 4000, 2); // 1792 bytes per poly -> 3 planes
    Geometry g = Geometry.of(p, 11, 4000, 2);
    assertEquals(3, g.planes());
    assertEquals(6, g.cols());
    roundTrip(p, g, src, 0, 5, 10);
  }

  /**
   * Records of 1.0-1.5 polynomials share a slot of one plane more when asked: two 2,500-byte
   * records in three 1,792-byte planes, the second straddling planes 1 and 2; every record of
   * both halves of a slot, and the odd last slot, decodes exactly.
   */
  @Test
  void recordsSharingASlotOfThreePlanesDecode() {
    Params p = Presets.TEST_INSECURE_256;
    assertEquals(3, Geometry.slotPlanes(2500, 1792));
    assertEquals(2, Geometry.slotPlanes(2500, 1792, false));
    assertEquals(2, Geometry.slotPlanes(3000, 1792)); // two would need four planes: no gain
    SyntheticRecords src = new SyntheticRecords(13, 2500, 4);
    Geometry g = Geometry.of(p, 13, 2500, 2, true);
    assertEquals(3, g.planes());
    assertEquals(2, g.recordsPerPoly());
    assertEquals(2500, g.offsetInSlot(5));
    assertEquals(4, g.cols()); // 7 slots in 2 rows
    roundTrip(p, g, src, 0, 1, 6, 7, 12);
    assertEquals(2, Geometry.of(p, 13, 2500, 2).planes()); // not by default
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Geometry(13, 2500, 1792, 1, 3, 2, 7));
    assertTrue(e.getMessage().contains("holds 2 records"), e.getMessage());
  }

  @Test
  void aOneColumnLastChunkSurvivesTheReusedPhase1Scratch() {
    // CHUNK + 1 columns: the last chunk folds to one of the thread's scratch leaves, which the
    // next plane's pass overwrites; two planes and repeated queries on one thread
    Params p = Presets.TEST_INSECURE_256;
    int cols = PirServer.CHUNK + 1;
    SyntheticRecords src = new SyntheticRecords(2 * cols, 3000, 6);
    Geometry g = Geometry.of(p, 2 * cols, 3000, 2);
    assertEquals(cols, g.cols());
    assertEquals(2, g.planes());
    roundTrip(p, g, src, 0, 2 * cols - 1, 2 * cols - 2, 2 * (cols - 1), 5);
    // one column of two planes: the whole range is one chunk whose root is a scratch leaf
    Geometry one = Geometry.of(p, 2, 3000, 2);
    assertEquals(1, one.cols());
    assertEquals(2, one.planes());
    roundTrip(p, one, new SyntheticRecords(2, 3000, 7), 0, 1, 1, 0);
  }

  @Test
  void singleColumnAndSingleRowDatabases() {
    Params p = Presets.TEST_INSECURE_256;
    roundTrip(p, Geometry.of(p, 30, 1792, 64), new SyntheticRecords(30, 1792, 3), 0, 29);
    roundTrip(p, Geometry.of(p, 30, 1792, 1), new SyntheticRecords(30, 1792, 4), 0, 13, 29);
  }

  @Test
  void batchAndColumnRangesGiveTheSameAnswersAsOneQuery() {
    Params p = Presets.TEST_INSECURE_256;
    SyntheticRecords src = new SyntheticRecords(40 * 8, 1792, 5);
    Geometry g = Geometry.of(p, 40 * 8, 1792, 8); // 8 rows x 40 columns
    SecretKey sk = SecretKey.generate(p, RANDOM);
    PirClient client = new PirClient(p, g, sk, RANDOM);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    QueryExpander ex = new QueryExpander(p);
    PirServer server = new PirServer(p);
    PreparedQuery q1 = ex.expand(client.query(7), g);
    PreparedQuery q2 = ex.expand(client.query(301), g);
    Answer a1 = server.answer(db, q1, null);
    Answer a2 = server.answer(db, q2, null);
    Answer[] batch = server.answerBatch(db, new PreparedQuery[] {q1, q2}, null);
    assertArrayEquals(a1.values(), batch[0].values(), "batched answer equals the single one");
    assertArrayEquals(a2.values(), batch[1].values());
    // two partitions of 32 and 8 columns, folded by the driver
    PreparedDatabase left = PreparedDatabase.prepare(p, g, src, 0, 32, null);
    PreparedDatabase right = PreparedDatabase.prepare(p, g, src, 32, 8, null);
    Glwe l = server.answerRange(left, new PreparedQuery[] {q2}, null)[0][0];
    Glwe r = server.answerRange(right, new PreparedQuery[] {q2}, null)[0][0];
    Glwe root = server.fold(List.of(l, r), 5, Geometry.levels(40), q2.ggsw()).get(0);
    assertArrayEquals(a2.values(), server.toAnswer(new Glwe[] {root}, g).values());
    assertArrayEquals(src.record(301), client.decode(a2, 301));
  }

  /**
   * fold reuses the GLWEs it made for later levels but never the caller's nodes, also when an
   * unpaired caller's node rises a level before it is consumed: 7 leaves over 3 levels (leaf 6
   * rises, pairs at level 1, and its slot would hold a level-2 output) equal the
   * CMux tree computed with a fresh output for every node, and the leaves are unchanged.
   */
  @Test
  void foldReusesOnlyItsOwnNodes() {
    Params p = Presets.TEST_INSECURE_256;
    SyntheticRecords src = new SyntheticRecords(7 * 4, 1792, 9);
    Geometry g = Geometry.of(p, 7 * 4, 1792, 4); // 4 rows x 7 columns
    PirClient client = new PirClient(p, g, SecretKey.generate(p, RANDOM), RANDOM);
    PirServer server = new PirServer(p);
    PreparedQuery q = new QueryExpander(p).expand(client.query(13), g);
    List<Glwe> leaves = new java.util.ArrayList<>();
    for (int c = 0; c < 7; c++) {
      PreparedDatabase one = PreparedDatabase.prepare(p, g, src, c, 1, null);
      leaves.add(server.answerRange(one, new PreparedQuery[] {q}, null)[0][0].copy());
    }
    List<long[]> before = leaves.stream().map(x -> x.data().clone()).toList();
    org.jpir.core.lwe.GlweOps ops = new org.jpir.core.lwe.GlweOps(p);
    List<Glwe> want = leaves;
    for (int t = 0; t < 3; t++) {
      List<Glwe> next = new java.util.ArrayList<>();
      for (int j = 0; j < want.size(); j += 2) {
        if (j + 1 < want.size()) {
          Glwe o = new Glwe(p.n(), p.glweLimbs());
          ops.cmux(q.ggsw()[t], want.get(j), want.get(j + 1), o);
          next.add(o);
        } else {
          next.add(want.get(j));
        }
      }
      want = next;
    }
    List<Glwe> got = server.fold(leaves, 0, 3, q.ggsw());
    assertEquals(1, got.size());
    assertArrayEquals(want.get(0).data(), got.get(0).data(), "fold equals the fresh-node tree");
    for (int c = 0; c < 7; c++) {
      assertArrayEquals(before.get(c), leaves.get(c).data(), "leaf " + c + " unchanged");
    }
    assertArrayEquals(src.record(13), client.decode(server.toAnswer(got.toArray(new Glwe[0]), g),
        13));
  }

  @Test
  void productionPresetEndToEndWithMeasuredNoiseBelowEstimate() {
    Params p = Presets.ONIONPIR_4096;
    int rows = 64;
    int cols = 16;
    int recordSize = p.bytesPerPolynomial();
    SyntheticRecords src = new SyntheticRecords((long) rows * cols, recordSize, 6);
    Geometry g = Geometry.of(p, (long) rows * cols, recordSize, rows);
    assertEquals(cols, g.cols());
    SecretKey sk = SecretKey.generate(p, RANDOM);
    PirClient client = new PirClient(p, g, sk, RANDOM);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    PirServer server = new PirServer(p);
    QueryExpander ex = new QueryExpander(p);
    ColumnEncoder enc = new ColumnEncoder(p, g, src);
    double estimate = Math.sqrt(Noise.answer(p, rows, cols));
    for (long i : new long[] {0, rows * cols - 1, 777}) {
      Answer a = server.answer(db, ex.expand(client.query(i), g), null);
      assertArrayEquals(src.record(i), client.decode(a, i), "record " + i);
      long[] digits = new long[p.plaintextLimbs() * p.n()];
      System.arraycopy(enc.digits(0, g.columnOf(i)), g.rowOf(i) * digits.length, digits, 0,
          digits.length);
      double max = client.measureNoise(a, new long[][] {digits});
      double[] e = client.noise(a, 0, digits);
      double ss = 0;
      for (int j = 0; j < a.bCoefficients(0); j++) {
        ss += e[j] * e[j];
      }
      double rms = Math.sqrt(ss / a.bCoefficients(0));
      // the sample deviation of 4096 coefficients is within 1.1% (1 sigma) of the true one
      assertTrue(rms <= 1.1 * estimate, "noise deviation " + rms + " above 1.1 x estimate "
          + estimate);
      // the largest of M Gaussian coefficients exceeds sqrt(2 ln(2M / d)) sigma with
      // probability below d (here d = 2^-30 per answer)
      double tail = Math.sqrt(2 * Math.log(2.0 * a.bCoefficients(0) * Math.pow(2, 30)));
      assertTrue(max <= tail * estimate, "noise " + max + " above " + tail + " x estimate "
          + estimate);
      // the answer's modulus switch spends the margin down to 2^-40 failure per coefficient
      assertTrue(max < Noise.margin(p), "noise " + max + " within the margin");
      assertTrue(Noise.log2FailureProbability(p, estimate * estimate) <= -40);
    }
  }

  @Test
  void outOfRangeIndexAndMismatchedQueryAreRejected() {
    Params p = Presets.TEST_INSECURE_256;
    Geometry g = Geometry.of(p, 100, 100, 4);
    PirClient client = new PirClient(p, g, SecretKey.generate(p, RANDOM), RANDOM);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> client.query(100));
    assertTrue(e.getMessage().contains("out of range"), e.getMessage());
    Geometry other = Geometry.of(p, 100, 100, 2);
    ClientQuery q = client.query(3);
    e = assertThrows(IllegalArgumentException.class, () -> new QueryExpander(p).expand(q, other));
    assertTrue(e.getMessage().contains("rows"), e.getMessage());
  }
}
