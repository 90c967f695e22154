package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.List;
import org.jpir.core.Answer;
import org.jpir.core.CompactClient;
import org.jpir.core.CompactParams;
import org.jpir.core.CompactQuery;
import org.jpir.core.EvaluationKeyStore;
import org.jpir.core.Geometry;
import org.jpir.core.SyntheticRecords;
import org.junit.jupiter.api.Test;

class CompactSparkTest extends SparkTestBase {
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void compactQueriesExpandedOnDriverOrExecutorsGiveTheSameExactRecords() {
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
    DistributedPirServer.BatchStats[] st = new DistributedPirServer.BatchStats[1];
    Answer[] onDriver = server.answerCompactBatch(CP, qs, store,
        DistributedPirServer.ExpandMode.DRIVER, st);
    assertTrue(st[0].expandNanos() > 0);
    Answer[] onExecutors = server.answerCompactBatch(CP, qs, store,
        DistributedPirServer.ExpandMode.EXECUTOR, st);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (int i = 0; i < idx.length; i++) {
      assertArrayEquals(onDriver[i].data(), onExecutors[i].data(), "same answer, query " + i);
      assertArrayEquals(truth.record(idx[i]), alice.decode(onExecutors[i], idx[i]));
    }
    CompactClient mallory = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "mallory", RANDOM);
    for (DistributedPirServer.ExpandMode mode : DistributedPirServer.ExpandMode.values()) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> server.answerCompactBatch(CP, List.of(mallory.query(1)), store, mode, null));
      assertTrue(e.getMessage().contains("no evaluation keys for client 'mallory'"),
          e.getMessage());
    }
  }
}
