package org.jpir.spark.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.jpir.core.client.CompactClient;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.server.BatchSteps;
import org.jpir.core.server.FoldSpan;
import org.jpir.core.server.KeySource;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.QueryBatch;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.Wire;
import org.jpir.spark.source.SyntheticSourceFactory;
import org.junit.jupiter.api.Test;

/**
 * Evaluation keys travel once per key fingerprint ({@link KeyBroadcasts}), not once per batch: a
 * client's second batch carries no key bytes; a key evicted for the bound is broadcast again,
 * resolved by an executor's JVM (a deserialized batch, whose prepared keys missed) through the
 * task's handles, and its queries decode.
 */
class KeyBroadcastsTest extends SparkTestBase {
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;
  static final Params SP = CP.server();
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void aClientsSecondBatchCarriesNoKeyBytes() {
    int recordSize = SP.bytesPerPolynomial();
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 21, recordSize, 17);
    Geometry g = Geometry.of(SP, 8 * 21, recordSize, 8);
    DistributedPirServer server = DistributedPirServer.prepare(sc, SP, g, src, 2);
    EvaluationKeyStore store = new EvaluationKeyStore(CP);
    CompactClient alice = client(g, "alice", store);
    CompactQueries kind = new CompactQueries(store);
    long keyBytes = store.wire("alice").length;
    KeyBroadcasts registry = KeyBroadcasts.on(sc);
    long created = registry.created();
    SyntheticRecords truth = (SyntheticRecords) src.open();
    long[][] rounds = {{5, 100}, {167, 42}, {0, 1}};
    long[] shipped = new long[rounds.length];
    for (int r = 0; r < rounds.length; r++) {
      List<AcceptedQuery> qs = new ArrayList<>();
      long queryBytes = 0;
      for (long i : rounds[r]) {
        qs.add(kind.accept(alice.query(i), g));
        queryBytes += qs.get(qs.size() - 1).wire().length;
      }
      DistributedPirServer.BatchResult res = server.answer(qs);
      for (int i = 0; i < qs.size(); i++) {
        assertArrayEquals(truth.record(rounds[r][i]), alice.decode(res.answers()[i],
            rounds[r][i]), "round " + r + " query " + i);
      }
      shipped[r] = res.stats().spark().broadcastBytes();
      assertTrue(shipped[r] >= queryBytes, "round " + r + ": " + shipped[r]);
    }
    assertTrue(shipped[0] >= keyBytes, "the first batch broadcasts alice's keys ("
        + keyBytes + " bytes): " + shipped[0]);
    for (int r = 1; r < rounds.length; r++) {
      assertTrue(shipped[r] < keyBytes / 4, "batch " + (r + 1) + " carries no key bytes: "
          + shipped[r] + " bytes broadcast, alice's keys are " + keyBytes);
    }
    assertEquals(1, registry.created() - created, "one key broadcast for three batches");
  }

  @Test
  void anEvictedKeyIsBroadcastAgainAndAnExecutorResolvesItsBytes() throws Exception {
    int recordSize = SP.bytesPerPolynomial();
    SyntheticRecords truth = new SyntheticRecords(8 * 21, recordSize, 19);
    Geometry g = Geometry.of(SP, 8 * 21, recordSize, 8);
    PreparedDatabase db = PreparedDatabase.prepare(SP, g, truth);
    EvaluationKeyStore store = new EvaluationKeyStore(CP);
    CompactClient alice = client(g, "alice", store);
    CompactClient bobby = client(g, "bobby", store);
    CompactQueries kind = new CompactQueries(store);
    long keyBytes = store.wire("alice").length;
    assertEquals(keyBytes, store.wire("bobby").length);
    // room for one client's keys between batches
    KeyBroadcasts registry = new KeyBroadcasts(keyBytes);
    BatchSteps steps = new BatchSteps(SP, g, 1L << 30);

    QueryBatch a1 = steps.ship(List.of(kind.accept(alice.query(3), g)));
    KeySource first;
    try (KeyBroadcasts.Lease lease = registry.lease(sc, a1)) {
      assertEquals(1, lease.created());
      assertEquals(keyBytes, lease.createdBytes());
      first = lease.source();
    }
    assertArrayEquals(store.wire("alice"), first.keyBytes(a1.keysDigest(0)),
        "held between batches within the bound");
    QueryBatch b1 = steps.ship(List.of(kind.accept(bobby.query(4), g)));
    try (KeyBroadcasts.Lease lease = registry.lease(sc, b1)) {
      assertEquals(1, lease.created());
      assertEquals(keyBytes, registry.heldBytes(), "alice's keys, unleased, made room");
    }
    assertEquals(1, registry.size());
    assertEquals(1, registry.destroyed());
    assertThrows(Exception.class, () -> first.keyBytes(a1.keysDigest(0)),
        "alice's first broadcast is destroyed");

    // alice again: her keys are broadcast anew; an executor JVM (a deserialized batch, no
    // prepared keys) resolves them through the task's handles and answers exactly
    long[] idx = {0, 99, 167};
    List<AcceptedQuery> qs = new ArrayList<>();
    for (long i : idx) {
      qs.add(kind.accept(alice.query(i), g));
    }
    QueryBatch a2 = steps.ship(qs);
    assertEquals(1, a2.keyCount());
    Answer[] answers;
    try (KeyBroadcasts.Lease lease = registry.lease(sc, a2)) {
      assertEquals(1, lease.created(), "re-shipped after eviction");
      assertNotEquals(-1, lease.broadcastIds()[0]);
      KeySource onExecutor = javaRoundTrip(lease.source()); // as the task closure carries it
      QueryBatch shipped = KryoRoundTripTest.roundTrip(a2); // as the batch broadcast carries it
      QueryBatch.clearPreparedKeys();
      long resolved = QueryBatch.keyResolutions();
      FoldSpan span = steps.answerRange(shipped, onExecutor, db, 0, "executor");
      assertEquals(1, QueryBatch.keyResolutions() - resolved,
          "the bytes resolved once, on the prepared-key cache's miss, for three queries");
      answers = steps.answers(a2, steps.root(a2, List.of(span), new long[1]));
    }
    for (int i = 0; i < idx.length; i++) {
      assertArrayEquals(truth.record(idx[i]), alice.decode(answers[i], idx[i]), "query " + i);
    }
    assertEquals(3, registry.created());
    assertEquals(2, registry.destroyed(), "bobby's keys made room for alice's");
  }

  @Test
  void theBoundIsASettingAndZeroKeepsNothingBetweenBatches() {
    KeyBroadcasts none = new KeyBroadcasts(0);
    Geometry g = Geometry.of(SP, 8 * 21, SP.bytesPerPolynomial(), 8);
    EvaluationKeyStore store = new EvaluationKeyStore(CP);
    CompactClient carol = client(g, "carol", store);
    QueryBatch b = new BatchSteps(SP, g, 1L << 30).ship(List.of(
        new CompactQueries(store).accept(carol.query(1), g)));
    try (KeyBroadcasts.Lease lease = none.lease(sc, b)) {
      assertEquals(store.wire("carol").length, none.heldBytes(), "held while leased");
    }
    assertEquals(0, none.heldBytes());
    assertThrows(IllegalArgumentException.class, () -> new KeyBroadcasts(-1));
    assertEquals(KeyBroadcasts.DEFAULT_BYTES, KeyBroadcasts.bound(new org.apache.spark.SparkConf(
        false)));
    assertEquals(3L << 20, KeyBroadcasts.bound(new org.apache.spark.SparkConf(false)
        .set(KeyBroadcasts.BYTES_SETTING, "3m")));
    QueryBatch deserialized = KryoRoundTripTest.roundTrip(b);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> none.lease(sc, deserialized));
    assertTrue(e.getMessage().contains("holds no key bytes"), e.getMessage());
    assertEquals(0, none.heldBytes(), "a failed lease holds nothing");
  }

  private static CompactClient client(Geometry g, String id, EvaluationKeyStore store) {
    CompactClient c = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM), id,
        RANDOM);
    store.register(c.evaluationKeys());
    return c;
  }

  @SuppressWarnings("unchecked")
  private static <T> T javaRoundTrip(T value) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    assertTrue(bytes.size() < 4096, "the handles are small: " + bytes.size() + " bytes");
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(
        bytes.toByteArray()))) {
      return (T) in.readObject();
    }
  }
}
