package org.jpir.core.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

/**
 * Classic and compact clients behind {@link PirQueryClient}, made by {@link PirQueryClients}: the
 * preset picks the implementation, wire queries made through the interface are answered by the
 * server and decode to the exact records, and the key rules hold (a compact client queries only
 * with generated or adopted evaluation keys; a classic one has none).
 */
class PirQueryClientTest {
  static final SecureRandom RANDOM = new SecureRandom();
  static final SyntheticRecords SRC = new SyntheticRecords(200, 100, 3);

  @Test
  void theFactoryPicksTheImplementationByPreset() {
    Params classic = Presets.TEST_INSECURE_256;
    Params compact = Presets.TEST_INSECURE_256_COMPACT;
    PirQueryClient c = PirQueryClients.generate(classic, geometry(classic), "x", RANDOM);
    PirQueryClient k = PirQueryClients.generate(compact, geometry(compact), "x", RANDOM);
    assertInstanceOf(PirClient.class, c);
    assertInstanceOf(CompactClient.class, k);
    assertFalse(c.compact());
    assertTrue(k.compact());
    assertEquals(compact, k.params(), "a compact client answers to the server's preset");
    assertEquals(CompactParams.TEST_INSECURE_256_COMPACT.keys(),
        PirQueryClients.keyParams(compact));
    assertEquals(classic, PirQueryClients.keyParams(classic));
    assertEquals(compact.id(), PirQueryClients.presetOfKey(
        CompactParams.TEST_INSECURE_256_COMPACT.keys().id()));
    assertTrue(c.queryFileName("0".repeat(32)).fileName().endsWith(".query"));
    assertTrue(k.queryFileName("0".repeat(32)).fileName().endsWith(".cquery"));
  }

  @Test
  void classicQueriesThroughTheInterfaceDecodeExactly() {
    Params p = Presets.TEST_INSECURE_256;
    Geometry g = geometry(p);
    byte[] key = Wire.writeSecretKey(PirQueryClients.generateSecret(p, RANDOM));
    PirQueryClient client = PirQueryClients.withKey(p, g, key, () -> {
      throw new AssertionError("a classic client needs no client id");
    }, RANDOM);
    assertTrue(client.evaluationKeysMessage().isEmpty());
    assertTrue(client.packingKeyMessage().isEmpty());
    assertThrows(IllegalArgumentException.class,
        () -> client.useEvaluationKeysMessage(new byte[16]));
    PreparedDatabase db = PreparedDatabase.prepare(p, g, SRC);
    QueryExpander ex = new QueryExpander(p);
    for (long i : new long[] {0, 77, 199}) {
      PreparedQuery pq = ex.expand(Wire.readQuery(client.queryMessage(i), p), g);
      byte[] answer = Wire.writeAnswer(new PirServer(p).answer(db, pq, null));
      assertTrue(answer.length <= client.maxAnswerBytes());
      assertArrayEquals(SRC.record(i), client.decodeMessage(answer, i), "record " + i);
    }
  }

  @Test
  void compactQueriesNeedKeysAndDecodeExactly() {
    Params p = Presets.TEST_INSECURE_256_COMPACT;
    CompactParams cp = Presets.compactFor(p);
    Geometry g = geometry(p);
    byte[] key = Wire.writeSecretKey(PirQueryClients.generateSecret(p, RANDOM));
    PirQueryClient fresh = PirQueryClients.withKey(p, g, key, () -> "carol", RANDOM);
    assertThrows(IllegalStateException.class, () -> fresh.queryMessage(0),
        "no keys generated or adopted: the server could not answer");
    byte[] evk = fresh.evaluationKeysMessage().orElseThrow();
    // the same key in a later process adopts the uploaded keys and queries for them
    PirQueryClient later = PirQueryClients.withKey(p, g, key, () -> "carol", RANDOM);
    later.useEvaluationKeysMessage(evk);
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register("carol", evk);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, SRC);
    CompactExpander ex = new CompactExpander(cp);
    for (long i : new long[] {0, 123, 199}) {
      PreparedQuery pq = ex.expand(Wire.readCompactQuery(later.queryMessage(i), cp), g, store,
          null);
      byte[] answer = Wire.writeAnswer(new PirServer(p).answer(db, pq, null));
      assertArrayEquals(SRC.record(i), later.decodeMessage(answer, i), "record " + i);
    }
    PirQueryClient other = PirQueryClients.withKey(p, g, key, () -> "dave", RANDOM);
    assertThrows(IllegalArgumentException.class, () -> other.useEvaluationKeysMessage(evk),
        "keys of another client id");
  }

  private static Geometry geometry(Params p) {
    return Presets.geometry(p, SRC.recordCount(), SRC.recordSize(), 16);
  }
}
