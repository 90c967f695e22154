package org.jpir.service.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The accounts of a run: lost, answered twice, stray, refused, latency from the planned send,
 * and the answers' check after the run.
 */
class LedgerTest {
  private static Ledger.Sent sent(String id, int client, long index, long plannedNanos) {
    return new Ledger.Sent(id, client, 0, index, plannedNanos);
  }

  @Test
  void countsLostDuplicateStrayAndErrors() {
    Ledger l = new Ledger();
    l.sent(sent("a", 0, 10, 0));
    l.sent(sent("b", 1, 11, 0));
    l.sent(sent("c", 2, 12, 0));
    l.sent(sent("d", 3, 13, 0));
    l.answered("a", new byte[] {10}, 5_000_000);
    l.answered("a", new byte[] {10}, 6_000_000); // answered twice
    l.failed("b", "RESOURCE_EXHAUSTED (call)", 7_000_000);
    l.answered("zz", new byte[] {1}, 8_000_000); // never sent
    l.retried();
    // c and d: nothing came back
    l.answered("d", new byte[] {13}, 9_000_000);
    Ledger.Totals t = l.totals();
    assertEquals(4, t.sent());
    assertEquals(2, t.answered());
    assertEquals(1, t.errors());
    assertEquals(1, t.lost(), "c");
    assertEquals(1, t.duplicates());
    assertEquals(1, t.strays());
    assertEquals(1, t.retries());
    assertEquals(Map.of("RESOURCE_EXHAUSTED (call)", 1), t.errorsByKind());
    assertEquals(List.of("a", "d"), l.answeredQueries().stream().map(Ledger.Sent::requestId)
        .toList());
    assertEquals(9_000_000, l.lastDoneNanos(0));
  }

  @Test
  void aRequestIdSentTwiceIsAHarnessError() {
    Ledger l = new Ledger();
    l.sent(sent("a", 0, 1, 0));
    assertThrows(IllegalStateException.class, () -> l.sent(sent("a", 1, 2, 0)));
  }

  @Test
  void latencyCountsFromThePlannedSendAndOnlyForAnswers() {
    Ledger l = new Ledger();
    l.sent(sent("a", 0, 1, 1_000_000_000L));
    l.sent(sent("b", 0, 2, 2_000_000_000L));
    l.sent(sent("c", 0, 3, 2_000_000_000L));
    l.answered("a", new byte[0], 1_250_000_000L);
    l.answered("b", new byte[0], 2_750_000_000L);
    l.failed("c", "INTERNAL (query)", 9_000_000_000L);
    Histogram h = l.latencies();
    assertEquals(2, h.getTotalCount());
    assertEquals(0.25, ServiceFigures.seconds(h, 50), 0.001);
    assertEquals(0.75, ServiceFigures.seconds(h, 100), 0.001);
  }

  @Test
  void checkDecodesEveryAnswerAndCountsMismatchesAndFailures() {
    Ledger l = new Ledger();
    for (int i = 0; i < 5; i++) {
      l.sent(sent("q" + i, 0, i, 0));
      l.answered("q" + i, new byte[] {(byte) (i == 3 ? 99 : i)}, 1);
    }
    l.sent(sent("q5", 0, 5, 0));
    l.answered("q5", new byte[0], 1); // does not decode
    Ledger.Check c = l.check((s, a) -> {
      if (a.length == 0) {
        throw new IllegalArgumentException("malformed answer");
      }
      return a[0] == s.index();
    }, 2);
    assertEquals(new Ledger.Check(6, 1, 1), c);
    assertEquals(6, l.totals().answered(), "the counts stay after the bytes are dropped");
  }
}
