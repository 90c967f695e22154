package org.jpir.service.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The micro-batcher without Spark: the queue bound refuses a call with a retry hint, calls are
 * taken whole (never split to fill a micro-batch), work whose callers all went away is dropped
 * with CANCELLED, the time bound holds a lone small call back while calls come close together
 * and not when they come further apart than the bound, and close answers what was accepted,
 * then refuses as closing.
 */
class MicroBatcherTest {
  /** A call of {@code n} queries whose callers have all gone (the batcher never answers it). */
  private static Work abandoned(int n, List<RecentAnswers.Entry> entries) {
    List<Work.Item> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      RecentAnswers.Entry e = new RecentAnswers.Entry("d" + i); // no waiter
      entries.add(e);
      items.add(new Work.Item(null, null, null, e));
    }
    return new Work(items);
  }

  @Test
  void boundsWholeCallsDropsAbandonedWorkAndDrainsOnClose() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch blocked = new CountDownLatch(1);
    MicroBatcher b = new MicroBatcher(new BatchSettings(4, 10_000, 6, 2, 20), () -> {
      blocked.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    assertTrue(blocked.await(10, TimeUnit.SECONDS), "the idle poll ran");
    List<RecentAnswers.Entry> a = new ArrayList<>();
    List<RecentAnswers.Entry> c = new ArrayList<>();
    b.submit(abandoned(3, a));
    b.submit(abandoned(3, c));
    assertEquals(6, b.queued());
    MicroBatcher.Refused full = assertThrows(MicroBatcher.Refused.class,
        () -> b.submit(abandoned(1, new ArrayList<>())));
    assertFalse(full.closing());
    assertTrue(full.retryAfterMillis() >= 50, "a retry hint: " + full.retryAfterMillis());
    assertTrue(full.getMessage().contains("queue is full"), full.getMessage());
    release.countDown();
    // the first call is taken whole; the second would overflow the bound of 4, so it waits
    for (RecentAnswers.Entry e : a) {
      Outcome o = e.result().get(10, TimeUnit.SECONDS);
      assertEquals(Status.Code.CANCELLED, o.code());
    }
    Thread.sleep(200);
    assertTrue(c.stream().noneMatch(e -> e.result().isDone()),
        "3 queries < the size bound wait for the time bound (10 s)");
    assertEquals(1, b.microBatches());
    assertTrue(b.close(10_000), "close drains and stops");
    for (RecentAnswers.Entry e : c) {
      assertTrue(e.result().isDone());
    }
    assertEquals(2, b.microBatches(), "the calls went into separate micro-batches, unsplit");
    assertEquals(0, b.queriesAnswered(), "dropped work never reaches the answer path");
    MicroBatcher.Refused closed = assertThrows(MicroBatcher.Refused.class,
        () -> b.submit(abandoned(1, new ArrayList<>())));
    assertTrue(closed.closing());
  }

  @Test
  void sparseCallsStartAtOnceCloseOnesWaitForTheTimeBound() throws Exception {
    long ms = 1_000_000L;
    assertTrue(MicroBatcher.lingers(-1, 20 * ms), "no gap known yet: wait as configured");
    assertTrue(MicroBatcher.lingers(5 * ms, 20 * ms));
    assertFalse(MicroBatcher.lingers(300 * ms, 20 * ms));
    assertEquals(300 * ms, MicroBatcher.averageGap(-1, 300 * ms));
    assertEquals(300 * ms - 280 * ms / 8, MicroBatcher.averageGap(300 * ms, 20 * ms));
    // through the batcher: calls 400 ms apart with a time bound of 150 ms start at once
    MicroBatcher b = new MicroBatcher(new BatchSettings(8, 150, 16, 2, 20), () -> { });
    try {
      long[] latency = new long[4];
      for (int i = 0; i < latency.length; i++) {
        List<RecentAnswers.Entry> e = new ArrayList<>();
        long t0 = System.nanoTime();
        b.submit(abandoned(1, e));
        e.get(0).result().get(10, TimeUnit.SECONDS);
        latency[i] = (System.nanoTime() - t0) / ms;
        Thread.sleep(400);
      }
      assertTrue(latency[0] >= 140, "the first call waits out the bound: " + latency[0] + " ms");
      for (int i = 2; i < latency.length; i++) {
        assertTrue(latency[i] < 100, "call " + i + " of calls 400 ms apart started at once: "
            + latency[i] + " ms");
      }
    } finally {
      b.close(10_000);
    }
  }

  @Test
  void recentAnswersKeepOnlyAnswersAndAreBounded() throws Exception {
    RecentAnswers r = new RecentAnswers(2);
    RecentAnswers.Claim first = r.claim("c", "id1", "x");
    assertTrue(first.fresh());
    RecentAnswers.Claim joined = r.claim("c", "id1", "x");
    assertFalse(joined.fresh());
    assertTrue(joined.entry() == first.entry());
    assertTrue(r.claim("c", "id1", "other bytes").conflict());
    assertTrue(r.claim("d", "id1", "other bytes").fresh(), "ids are per client");
    first.entry().result().complete(Outcome.answered(new byte[] {1}, 0, "cfg"));
    RecentAnswers.Claim err = r.claim("c", "id2", "y");
    err.entry().result().complete(Outcome.error(Status.Code.INTERNAL, "failed"));
    assertTrue(r.claim("c", "id2", "y").fresh(), "an error is forgotten: the retry is new");
    r.claim("c", "id3", "z");
    r.claim("c", "id4", "w");
    assertEquals(2, r.size(), "bounded");
    assertTrue(r.claim("c", "id1", "x").fresh(), "the oldest was evicted");
  }
}
