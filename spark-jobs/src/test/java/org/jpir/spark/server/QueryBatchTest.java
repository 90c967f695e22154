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
import org.jpir.core.server.QueryBatch;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

class QueryBatchTest {
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void aMixedBatchCarriesEachQueryAsReceivedAndEachClientsKeysOnce() {
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
    assertEquals(2, b.keyCount(), "alice's keys travel once for her two queries");
    assertSame(qs.get(0).keys(), qs.get(2).keys(), "the driver holds alice's keys once, not a"
        + " copy per query");
    assertEquals(2, b.expansionIds().length);
    assertArrayEquals(aliceWire, b.query(0), "the bytes as received");
    assertNull(b.keys(1), "classic queries carry no keys");
    assertArrayEquals(store.wire("bob"), b.keys(3));
    QueryBatch back = KryoRoundTripTest.roundTrip(b);
    for (int i = 0; i < b.size(); i++) {
      assertArrayEquals(b.query(i), back.query(i));
      assertArrayEquals(b.keys(i), back.keys(i));
      assertEquals(b.expansionId(i), back.expansionId(i));
      assertEquals(b.keys(i) == null ? null : QueryBatch.sha256(b.keys(i)), back.keysDigest(i),
          "query " + i + ": the digest the executors key the client's prepared keys by");
    }
    // an executor's expansion of the bytes equals the driver's, and a deserialized copy (what
    // an executor JVM holds) decodes and expands each query once however often it is asked
    assertNull(back.accepted(0), "the accepted queries stay in the driver's JVM");
    for (int i = 0; i < b.size(); i++) {
      long[] nanos = new long[1];
      PreparedQuery onExecutor = back.expanded(i, g, 1L << 30, nanos, true);
      assertSame(onExecutor, back.expanded(i, g, 1L << 30, nanos, true));
      assertEquals(1, QueryCounters.decodes(back.query(i)), "query " + i + " decoded once");
      assertEquals(1, QueryCounters.expansions(back.query(i)), "query " + i + " expanded once");
      PreparedQuery onDriver = qs.get(i).expander().get();
      assertArrayEquals(onDriver.phase1().toArray(), onExecutor.phase1().toArray(), "query " + i);
      assertArrayEquals(qs.get(i).phase2Expander().apply(-1L)[0].matrix().toArray(),
          onExecutor.ggsw()[0].matrix().toArray());
    }
  }

  @Test
  void inconsistentIndicesAndUnknownKindsAreRefused() {
    byte[][] one = {{1}};
    assertThrows(IllegalArgumentException.class,
        () -> new QueryBatch(new String[] {"classic:x"}, new int[] {1}, one, new int[] {-1},
            new byte[0][]));
    assertThrows(IllegalArgumentException.class,
        () -> new QueryBatch(new String[] {"classic:x"}, new int[] {0}, one, new int[] {0},
            new byte[0][]));
    assertThrows(IllegalArgumentException.class,
        () -> new QueryBatch(new String[] {"classic:x"}, new int[0], one, new int[] {-1},
            new byte[0][]));
    assertThrows(IllegalArgumentException.class,
        () -> new QueryBatch(0, new String[] {"classic:x"}, new int[] {0}, one, new int[] {0},
            new byte[][] {{2}}, new String[0]), "a key blob without its digest");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> QueryExpansion.byId("sealed:" + CP.id()));
    assertTrue(e.getMessage().contains("unknown query kind 'sealed'"), e.getMessage());
  }
}
