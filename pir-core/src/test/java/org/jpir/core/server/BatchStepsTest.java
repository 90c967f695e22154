package org.jpir.core.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.QueryCounters;
import org.jpir.core.wire.Answer;
import org.junit.jupiter.api.Test;

/** The batch steps in one JVM (the library's path) against the single-pass server. */
class BatchStepsTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void theStepsInOneJvmGiveTheSinglePassAnswersWithOneDecodeAndOneExpansion() {
    Geometry g = Geometry.of(P, 8 * 37, 1792, 8);
    SyntheticRecords src = new SyntheticRecords(8 * 37, 1792, 3);
    PreparedDatabase db = PreparedDatabase.prepare(P, g, src);
    PirClient client = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    ClassicQueries kind = new ClassicQueries(P);
    long[] idx = {0, 8 * 37 - 1, 100};
    List<AcceptedQuery> qs = new ArrayList<>();
    for (long i : idx) {
      qs.add(kind.accept(client.query(i), g));
    }
    BatchSteps steps = new BatchSteps(P, g, 1L << 30);
    Answer[] a = steps.answerAll(db, qs);
    PirServer single = new PirServer(P);
    for (int i = 0; i < idx.length; i++) {
      assertArrayEquals(src.record(idx[i]), client.decode(a[i], idx[i]));
      assertArrayEquals(single.answer(db, qs.get(i).expander().get(), null).data(), a[i].data(),
          "query " + i + ": the single-pass answer");
      assertEquals(1, QueryCounters.decodes(qs.get(i).wire()));
      assertEquals(1, QueryCounters.expansions(qs.get(i).wire()), "counted by the steps only");
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new BatchSteps(Presets.TEST_INSECURE_1024, g, 1 << 20).ship(qs));
    assertEquals(true, e.getMessage().contains("serves preset " + P.id()), e.getMessage());
  }

  /**
   * As on a cluster: the ranges expand the batch's bytes (a copy with none of the driver's
   * objects) and the driver, holding no expansion, expands only the GGSW levels its root fold
   * uses; the answers are bit for bit those of the one-JVM path and decode exactly.
   */
  @Test
  void theDriverExpandsOnlyTheLevelsOfTheRootFold() {
    CompactParams cp = CompactParams.TEST_INSECURE_256_COMPACT;
    Params sp = cp.server();
    Geometry g = Geometry.of(sp, 4 * 16, sp.bytesPerPolynomial(), 4);
    assertEquals(16, g.cols());
    SyntheticRecords src = new SyntheticRecords(4 * 16, sp.bytesPerPolynomial(), 7);
    CompactClient alice = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM),
        "alice", RANDOM);
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register(alice.evaluationKeys());
    CompactQueries kind = new CompactQueries(store);
    long[] idx = {0, 37, 63};
    List<AcceptedQuery> qs = new ArrayList<>();
    for (long i : idx) {
      qs.add(kind.accept(alice.query(i), g));
    }
    BatchSteps steps = new BatchSteps(sp, g, 1L << 30);
    Answer[] oneJvm = steps.answerAll(PreparedDatabase.prepare(sp, g, src), qs);

    QueryBatch b = steps.ship(qs);
    byte[][] bytes = new byte[b.size()][];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = b.query(i).clone(); // as deserialized: other arrays than the driver's
    }
    QueryBatch shipped = new QueryBatch(b.number(), b.expansionIds(), b.kindOf(), bytes,
        b.keysOf(), b.keyDigests());
    int[] bounds = {0, 4, 8, 16};
    List<FoldSpan> spans = new ArrayList<>();
    for (int r = 0; r + 1 < bounds.length; r++) {
      PreparedDatabase part = PreparedDatabase.prepare(sp, g, src, bounds[r],
          bounds[r + 1] - bounds[r], null);
      spans.add(steps.answerRange(shipped, b.heldKeys(), part, r, "executor"));
    }
    QueryBatch.clearCaches(); // the driver's JVM holds no expansion of the batch
    long levels = BatchSteps.foldLevels(g.cols(), spans);
    assertEquals(0b1100, levels, "the root folds [0,4)+[4,8) at level 2, then [8,16) at 3");
    Answer[] a = steps.answers(b, steps.root(b, spans, new long[1]));
    for (int i = 0; i < idx.length; i++) {
      assertEquals(levels, QueryCounters.expandedLevels(qs.get(i).wire()),
          "query " + i + ": the driver expanded only the root's levels");
      assertEquals(1, QueryCounters.expansions(bytes[i]), "one expansion per executor JVM");
      assertArrayEquals(oneJvm[i].data(), a[i].data(), "query " + i + ": bit for bit");
      assertArrayEquals(src.record(idx[i]), alice.decode(a[i], idx[i]), "query " + i);
    }
  }
}
