package org.jpir.core.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.ClassicQueries;
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
      assertArrayEquals(single.answer(db, qs.get(i).expand(), null).data(), a[i].data(),
          "query " + i + ": the single-pass answer");
      assertEquals(1, QueryCounters.decodes(qs.get(i).wire()));
      assertEquals(1, QueryCounters.expansions(qs.get(i).wire()), "counted by the steps only");
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new BatchSteps(Presets.TEST_INSECURE_1024, g, 1 << 20).ship(qs));
    assertEquals(true, e.getMessage().contains("serves preset " + P.id()), e.getMessage());
  }
}
