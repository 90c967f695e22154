package org.jpir.spark.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.List;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryCounters;
import org.jpir.core.query.QueryExpansion;
import org.jpir.core.server.KeySource;
import org.jpir.core.server.QueryBatch;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

class QueryBatchTest {
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void aMixedBatchCarriesEachQueryAsReceivedAndEachClientsKeyFingerprintOnce() {
    Geometry g = Geometry.of(CP.server(), 40, CP.server().bytesPerPolynomial(), 4);
    EvaluationKeyStore store = new EvaluationKeyStore(CP);
    CompactClient alice = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "alice", RANDOM);
    CompactClient bob = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "bob", RANDOM);
    store.register(alice.evaluationKeys());
    store.register(bob.evaluationKeys());
    PirClient carol = new PirClient(CP.server(), g, SecretKey.generate(CP.server(), RANDOM),
        RANDOM);
    CompactQueries compact = new CompactQueries(store);
    ClassicQueries classic = new ClassicQueries(CP.server());
    byte[] aliceWire = Wire.writeCompactQuery(alice.query(3));
    List<AcceptedQuery> qs = List.of(compact.accept(aliceWire, g), classic.accept(carol.query(5),
        g), compact.accept(alice.query(39), g), compact.accept(bob.query(0), g));
    QueryBatch b = QueryBatch.of(qs);
    assertEquals(4, b.size());
    assertEquals(2, b.keyCount(), "alice's fingerprint once for her two queries");
    assertSame(qs.get(0).keys(), qs.get(2).keys(), "the driver holds alice's keys once, not a"
        + " copy per query");
    assertEquals(2, b.expansionIds().length);
    assertArrayEquals(aliceWire, b.query(0), "the bytes as received");
    assertNull(b.keysDigest(1), "classic queries name no keys");
    assertEquals(QueryBatch.sha256(store.wire("bob")), b.keysDigest(3));
    assertSame(qs.get(3).keys(), b.heldKeyBytes(1), "the accepting JVM's batch holds the bytes");
    QueryBatch back = KryoRoundTripTest.roundTrip(b);
    long keyBytes = store.wire("alice").length;
    long serialized = KryoRoundTripTest.KRYO.serialize(b,
        scala.reflect.ClassTag$.MODULE$.apply(QueryBatch.class)).remaining();
    long queryBytes = 0;
    for (AcceptedQuery q : qs) {
      queryBytes += q.wire().length;
    }
    assertTrue(serialized < queryBytes + 1024 && serialized < keyBytes, "the serialized batch"
        + " (" + serialized + " bytes) carries the queries (" + queryBytes + "), not the keys ("
        + keyBytes + " per client)");
    assertNull(back.heldKeyBytes(0), "a deserialized copy carries no key bytes");
    for (int i = 0; i < b.size(); i++) {
      assertArrayEquals(b.query(i), back.query(i));
      assertEquals(b.expansionId(i), back.expansionId(i));
      assertEquals(b.keysDigest(i), back.keysDigest(i),
          "query " + i + ": the fingerprint the executors key the client's prepared keys by");
    }
    // an executor's expansion of the bytes equals the driver's, and a deserialized copy (what
    // an executor JVM holds) decodes and expands each query once however often it is asked,
    // resolving each fingerprint's key bytes once (alice's two queries share hers)
    assertNull(back.accepted(0), "the accepted queries stay in the driver's JVM");
    QueryBatch.clearPreparedKeys();
    long resolved = QueryBatch.keyResolutions();
    for (int i = 0; i < b.size(); i++) {
      long[] nanos = new long[1];
      PreparedQuery onExecutor = back.expanded(i, g, 1L << 30, b.heldKeys(), nanos, true);
      assertSame(onExecutor, back.expanded(i, g, 1L << 30, KeySource.NONE, nanos, true));
      assertEquals(1, QueryCounters.decodes(back.query(i)), "query " + i + " decoded once");
      assertEquals(1, QueryCounters.expansions(back.query(i)), "query " + i + " expanded once");
      PreparedQuery onDriver = qs.get(i).expander().get();
      assertArrayEquals(onDriver.phase1().toArray(), onExecutor.phase1().toArray(), "query " + i);
      assertArrayEquals(qs.get(i).phase2Expander().apply(-1L)[0].matrix().toArray(),
          onExecutor.ggsw()[0].matrix().toArray());
    }
    assertEquals(2, QueryBatch.keyResolutions() - resolved, "alice's and bob's bytes, once each");
  }

  @Test
  void keyBytesThatDoNotHashToTheirFingerprintAreRefused() {
    Geometry g = Geometry.of(CP.server(), 40, CP.server().bytesPerPolynomial(), 4);
    EvaluationKeyStore store = new EvaluationKeyStore(CP);
    CompactClient alice = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "alice", RANDOM);
    CompactClient mallory = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "alice", RANDOM);
    store.register(alice.evaluationKeys());
    QueryBatch back = KryoRoundTripTest.roundTrip(QueryBatch.of(List.of(
        new CompactQueries(store).accept(alice.query(1), g))));
    byte[] other = Wire.writeEvaluationKeys(mallory.evaluationKeys());
    QueryBatch.clearPreparedKeys();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> back.expanded(0, g, 1L << 30, d -> other, new long[1], true));
    assertTrue(e.getMessage().contains("do not hash to it"), e.getMessage());
    e = assertThrows(IllegalStateException.class,
        () -> back.expanded(0, g, 1L << 30, KeySource.NONE, new long[1], true));
    assertTrue(e.getMessage().contains(back.keysDigest(0)), e.getMessage());
  }

  @Test
  void inconsistentIndicesAndUnknownKindsAreRefused() {
    byte[][] one = {{1}};
    String digest = QueryBatch.sha256(new byte[] {2});
    assertThrows(IllegalArgumentException.class,
        () -> new QueryBatch(new String[] {"classic:x"}, new int[] {1}, one, new int[] {-1},
            new String[0]));
    assertThrows(IllegalArgumentException.class,
        () -> new QueryBatch(new String[] {"classic:x"}, new int[] {0}, one, new int[] {0},
            new String[0]));
    assertThrows(IllegalArgumentException.class,
        () -> new QueryBatch(new String[] {"classic:x"}, new int[0], one, new int[] {-1},
            new String[0]));
    assertThrows(IllegalArgumentException.class,
        () -> new QueryBatch(0, new String[] {"classic:x"}, new int[] {0}, one, new int[] {0},
            new String[] {"not a digest"}), "a fingerprint that is not a hex SHA-256");
    assertThrows(IllegalArgumentException.class,
        () -> new QueryBatch(0, new String[] {"classic:x"}, new int[] {0}, one, new int[] {0},
            new String[] {digest, digest}), "more fingerprints than queries");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> QueryExpansion.byId("sealed:" + CP.id()));
    assertTrue(e.getMessage().contains("unknown query kind 'sealed'"), e.getMessage());
  }

  /**
   * The serialized form declares every count and length before its data; a corrupted one that
   * declares more than its bound is refused before anything of that size is allocated.
   */
  @Test
  void aSerializedBatchDeclaringHugeSizesIsRefusedBeforeAllocating() {
    assertRefused(o -> {
      o.writeLong(1);
      o.writeVarInt(1, true);
      o.writeVarInt(Integer.MAX_VALUE, true); // an expansion id of 2^31 - 1 characters
    }, "characters of an expansion id");
    assertRefused(o -> {
      o.writeLong(1);
      o.writeVarInt(0, true);
      o.writeVarInt(1 << 30, true); // 2^30 queries
    }, "queries");
    assertRefused(o -> {
      o.writeLong(1);
      o.writeVarInt(1, true);
      o.writeVarInt(2, true);
      o.writeBytes("ab".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      o.writeVarInt(1, true);
      o.writeVarInt(0, true);
      o.writeVarInt(0, true);
      o.writeVarLong(16, true); // 16 bytes of queries declared
      o.writeVarInt(1 << 30, true); // then a query of 2^30
    }, "more than the 16 left");
    assertRefused(o -> {
      o.writeLong(1);
      o.writeVarInt(0, true);
      o.writeVarInt(0, true);
      o.writeVarLong(1L << 40, true); // a terabyte of queries
    }, "bytes of queries");
  }

  private static void assertRefused(java.util.function.Consumer<com.esotericsoftware.kryo.io.Output>
      write, String message) {
    com.esotericsoftware.kryo.io.Output o = new com.esotericsoftware.kryo.io.Output(64, 1024);
    write.accept(o);
    com.esotericsoftware.kryo.io.Input in = new com.esotericsoftware.kryo.io.Input(o.toBytes());
    // unchecked, Kryo would try to allocate (an OutOfMemoryError) or run out of input (a
    // KryoException): only the bound's check throws this
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new PirKryoRegistrator.QueryBatchSerializer().read(null, in, QueryBatch.class));
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }
}
