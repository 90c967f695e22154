package org.jpir.spark.server;

import org.jpir.spark.AnswerJob;
import org.jpir.spark.source.DatabaseSpec;
import org.jpir.spark.source.SyntheticSourceFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.List;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.QueryCounters;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

class CompactSparkTest extends SparkTestBase {
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void compactQueriesAnsweredInTwoBatchesGiveTheSameExactRecords() {
    int recordSize = CP.server().bytesPerPolynomial();
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 21, recordSize, 12);
    Geometry g = Geometry.of(CP.server(), 8 * 21, recordSize, 8);
    DistributedPirServer server = DistributedPirServer.prepare(sc, CP.server(), g, src, 3);
    CompactClient alice = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "alice", RANDOM);
    EvaluationKeyStore store = new EvaluationKeyStore(CP);
    store.register(alice.evaluationKeys());
    List<CompactQuery> qs = List.of(alice.query(0), alice.query(8 * 21 - 1), alice.query(77));
    long[] idx = {0, 8 * 21 - 1, 77};
    DistributedPirServer.BatchResult first = Batches.compact(server, store, qs);
    assertTrue(first.stats().expandNanos() > 0);
    Answer[] once = first.answers();
    Answer[] again = Batches.compact(server, store, qs).answers();
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (int i = 0; i < idx.length; i++) {
      assertArrayEquals(once[i].data(), again[i].data(), "same answer, query " + i);
      assertArrayEquals(truth.record(idx[i]), alice.decode(again[i], idx[i]));
    }
    CompactClient mallory = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "mallory", RANDOM);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new CompactQueries(store).accept(mallory.query(1), g));
    assertTrue(e.getMessage().contains("no evaluation keys for client 'mallory'"),
        e.getMessage());
    // a query made for other keys than the server holds for that client
    CompactClient alice2 = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "alice", RANDOM);
    e = assertThrows(IllegalArgumentException.class,
        () -> new CompactQueries(store).accept(alice2.query(1), g));
    assertTrue(e.getMessage().contains("upload the current keys"), e.getMessage());
  }

  @Test
  void recordsSpanningPlanesGetOneSharedMaskWhenTheClientUploadedAPackingKey() {
    int recordSize = 2 * CP.server().bytesPerPolynomial() + 17; // three planes
    SyntheticSourceFactory src = new SyntheticSourceFactory(40, recordSize, 5);
    Geometry g = Geometry.of(CP.server(), 40, recordSize, 4);
    assertEquals(3, g.planes());
    DistributedPirServer server = DistributedPirServer.prepare(sc, CP.server(), g, src, 2);
    CompactClient carol = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "carol", RANDOM);
    EvaluationKeyStore store = new EvaluationKeyStore(CP);
    store.register(carol.evaluationKeys());
    List<CompactQuery> qs = List.of(carol.query(3), carol.query(39));
    long[] idx = {3, 39};
    SyntheticRecords truth = (SyntheticRecords) src.open();
    Answer[] perPlane = Batches.compact(server, store, qs).answers();
    store.registerPackingKey("carol", Wire.writePackingKey(CP.server(),
        carol.packingKey().upload()));
    Answer[] shared = Batches.compact(server, store, qs).answers();
    for (int i = 0; i < idx.length; i++) {
      byte[] wire = Wire.writeAnswer(shared[i]);
      assertTrue(wire.length < Wire.writeAnswer(perPlane[i]).length,
          "one mask for three planes is smaller");
      assertArrayEquals(truth.record(idx[i]), carol.decode(Wire.readAnswer(wire, CP.server(), g),
          idx[i]), "query " + i);
      assertArrayEquals(truth.record(idx[i]), carol.decode(perPlane[i], idx[i]));
    }
  }

  /**
   * The production N = 2048 preset on Spark: 3 KiB records (two 2 KiB planes) decode exactly with
   * queries expanded on the executors, and with the client's packing key the
   * answer is one shared mask, at most 11 KB on the wire.
   */
  @Test
  void smallAnswerPresetServesThreeKibRecordsInElevenKb() {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    SyntheticSourceFactory src = new SyntheticSourceFactory(60, 3072, 21);
    Geometry g = Geometry.of(cp.server(), 60, 3072, 8);
    assertEquals(2, g.planes());
    DistributedPirServer server = DistributedPirServer.prepare(sc, cp.server(), g, src, 2);
    CompactClient dana = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM),
        "dana", RANDOM);
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register(dana.evaluationKeys());
    List<CompactQuery> qs = List.of(dana.query(0), dana.query(59), dana.query(31));
    long[] idx = {0, 59, 31};
    SyntheticRecords truth = (SyntheticRecords) src.open();
    Answer[] perPlane = Batches.compact(server, store, qs).answers();
    store.registerPackingKey("dana", Wire.writePackingKey(cp.server(),
        dana.packingKey().upload()));
    Answer[] shared = Batches.compact(server, store, qs).answers();
    for (int i = 0; i < idx.length; i++) {
      assertArrayEquals(truth.record(idx[i]), dana.decode(perPlane[i], idx[i]), "per plane " + i);
      byte[] wire = Wire.writeAnswer(shared[i]);
      assertTrue(wire.length <= 11_000, "shared-mask answer " + wire.length + " B above 11 KB");
      assertArrayEquals(truth.record(idx[i]), dana.decode(Wire.readAnswer(
          wire, cp.server(), g), idx[i]), "shared mask " + i);
    }
  }

  /**
   * A paired tail plane on Spark (the compact chooser's default for 3 KiB records at N = 2048):
   * records in even and odd columns (7 columns in 3 partitions, so partitions may split a pair)
   * decode exactly, per plane and with a shared mask.
   */
  @Test
  void pairedTailPlanesDecodePerPlaneAndWithASharedMask() {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    SyntheticSourceFactory src = new SyntheticSourceFactory(45, 3072, 23);
    Geometry g = Geometry.of(cp.server(), 45, 3072, 7).withPairedTail();
    assertEquals(7, g.cols());
    assertEquals(4, g.planeColumns(1));
    DistributedPirServer server = DistributedPirServer.prepare(sc, cp.server(), g, src, 3);
    CompactClient erin = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM),
        "erin", RANDOM);
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register(erin.evaluationKeys());
    long[] idx = {0, 1, 6, 7, 13, 20, 27, 38, 44};
    List<CompactQuery> qs = java.util.Arrays.stream(idx).mapToObj(erin::query).toList();
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (int pass = 0; pass < 2; pass++) {
      Answer[] as = Batches.compact(server, store, qs).answers();
      for (int i = 0; i < idx.length; i++) {
        assertArrayEquals(truth.record(idx[i]), erin.decode(Wire.readAnswer(
            Wire.writeAnswer(as[i]), cp.server(), g), idx[i]), "pass " + pass + " record "
            + idx[i]);
      }
      store.registerPackingKey("erin", Wire.writePackingKey(cp.server(),
          erin.packingKey().upload()));
    }
  }

  @Test
  void answerJobServesCompactQueryFilesWithKeysFromADirectory(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    int recordSize = 300;
    SyntheticSourceFactory src = new SyntheticSourceFactory(500, recordSize, 13);
    Geometry g = DatabaseSpec.parse("synthetic:500x300:13").geometry(CP.server(), 1024);
    DistributedPirServer server = DistributedPirServer.prepare(sc, CP.server(), g, src, 2);
    CompactClient bob = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM), "bob",
        RANDOM);
    java.nio.file.Path keys = java.nio.file.Files.createDirectories(dir.resolve("keys"));
    java.nio.file.Files.write(keys.resolve("bob.evk"),
        Wire.writeEvaluationKeys(bob.evaluationKeys()));
    java.nio.file.Path q = java.nio.file.Files.createDirectories(dir.resolve("q"));
    for (long i : new long[] {0, 499, 250}) {
      java.nio.file.Files.write(q.resolve(String.format("%032x", i) + ".cquery"),
          Wire.writeCompactQuery(bob.query(i)));
    }
    CompactClient eve = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM), "eve",
        RANDOM);
    java.nio.file.Files.write(q.resolve(String.format("%032x", 77) + ".cquery"),
        Wire.writeCompactQuery(eve.query(77)));
    AnswerJob.Summary s = AnswerJob.run(server, CP.server(), q, dir.resolve("a"), 2,
        new AnswerJob.Compact(CP, new EvaluationKeyStore(CP, keys)));
    org.junit.jupiter.api.Assertions.assertEquals(3, s.answered());
    org.junit.jupiter.api.Assertions.assertEquals(1, s.rejected());
    String err = java.nio.file.Files.readString(dir.resolve("a/" + String.format("%032x", 77)
        + ".error"));
    assertTrue(err.contains("no evaluation keys for client 'eve'"), err);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (long i : new long[] {0, 499, 250}) {
      Answer a = Wire.readAnswer(
          java.nio.file.Files.readAllBytes(dir.resolve("a/" + String.format("%032x", i)
              + ".answer")), CP.server());
      assertArrayEquals(truth.record(i), bob.decode(a, i), "record " + i);
    }
  }

  @Test
  void aMixedBatchIsOneSparkJobAndCarriesEachClientsKeysOnce() {
    int recordSize = CP.server().bytesPerPolynomial();
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 21, recordSize, 13);
    Geometry g = Geometry.of(CP.server(), 8 * 21, recordSize, 8);
    DistributedPirServer server = DistributedPirServer.prepare(sc, CP.server(), g, src, 3);
    CompactClient alice = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "alice", RANDOM);
    EvaluationKeyStore store = new EvaluationKeyStore(CP);
    store.register(alice.evaluationKeys());
    PirClient carol = new PirClient(CP.server(), g,
        org.jpir.core.lwe.SecretKey.generate(CP.server(), RANDOM), RANDOM);
    CompactQueries compact = new CompactQueries(store);
    long[] idx = {5, 100, 167, 42};
    List<AcceptedQuery> qs = List.of(compact.accept(alice.query(idx[0]), g),
        compact.accept(alice.query(idx[1]), g), compact.accept(alice.query(idx[2]), g),
        new ClassicQueries(CP.server()).accept(carol.query(idx[3]), g));
    long queryBytes = 0;
    for (AcceptedQuery q : qs) {
      queryBytes += q.wire().length;
    }
    long keyBytes = store.wire("alice").length;
    DistributedPirServer.BatchResult r = server.answer(qs);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (int i = 0; i < 3; i++) {
      assertArrayEquals(truth.record(idx[i]), alice.decode(r.answers()[i], idx[i]));
    }
    assertArrayEquals(truth.record(idx[3]), carol.decode(r.answers()[3], idx[3]));
    for (AcceptedQuery q : qs) {
      assertEquals(1, QueryCounters.decodes(q.wire()), "decoded once, on acceptance");
      assertEquals(1, QueryCounters.expansions(q.wire()), "expanded once in this JVM");
    }
    SparkBatchMetrics m = r.stats().spark();
    assertEquals(server.partitioning().count(), m.tasks(), "one job over the partitions: " + m);
    // alice's keys travel once for her three queries (three copies would be 3 x keyBytes)
    assertTrue(m.broadcastBytes() >= keyBytes + queryBytes
        && m.broadcastBytes() < 1.5 * keyBytes + queryBytes + (1 << 16),
        "broadcast " + m.broadcastBytes() + " for keys of " + keyBytes + " and queries of "
        + queryBytes + " bytes");
  }
}
