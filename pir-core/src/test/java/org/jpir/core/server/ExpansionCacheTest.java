package org.jpir.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ExpansionCacheTest {
  @Test
  void boundedInBytesAndReleasedWhenANewerBatchStarts() {
    QueryBatch.ExpansionCache<byte[]> c = new QueryBatch.ExpansionCache<>("test");
    c.get("a", 1, 40, 100, () -> new byte[40]);
    c.get("b", 1, 40, 100, () -> new byte[40]);
    assertEquals(80, c.heldBytes());
    byte[] third = c.get("c", 1, 40, 100, () -> new byte[40]);
    assertEquals(40, third.length, "computed although it does not fit");
    assertEquals(2, c.size(), "but not cached: the bound is 100 bytes");
    assertEquals(1, c.uncachedCount());
    c.get("d", 2, 40, 100, () -> new byte[40]);
    assertEquals(1, c.size(), "batch 2 released batch 1's entries");
    assertEquals(40, c.heldBytes());
    // unbatched entries stay across batches, the oldest released first when room is needed
    c.get("k1", 0, 30, 100, () -> new byte[30]);
    c.get("k2", 0, 30, 100, () -> new byte[30]);
    c.get("e", 3, 40, 100, () -> new byte[40]);
    assertEquals(3, c.size(), "d released; k1, k2 and e held");
    c.get("f", 3, 40, 100, () -> new byte[40]);
    assertEquals(80, c.heldBytes(), "k1 and k2 released for f: " + c);
  }

  @Test
  void unlessBusyPassesOverAValueAnotherThreadIsComputingAndWaitsOnlyWhenAsked() throws Exception {
    QueryBatch.ExpansionCache<Integer> c = new QueryBatch.ExpansionCache<>("test");
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> other = pool.submit(() -> c.get("x", 1, 8, 1000, () -> {
        started.countDown();
        try {
          assertTrue(release.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        return 7;
      }));
      assertTrue(started.await(10, TimeUnit.SECONDS));
      AtomicInteger computed = new AtomicInteger();
      assertNull(c.get("x", 1, 8, 1000, () -> computed.incrementAndGet(), false),
          "x is being computed by the other thread");
      assertEquals(5, c.get("y", 1, 8, 1000, () -> 5, false), "a free key is computed");
      release.countDown();
      assertEquals(7, other.get(10, TimeUnit.SECONDS));
      assertEquals(7, c.get("x", 1, 8, 1000, () -> computed.incrementAndGet(), false),
          "done: the value, not a second computation");
      assertEquals(0, computed.get());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void oneComputationPerKeyAndDifferentKeysInParallel() throws Exception {
    QueryBatch.ExpansionCache<Integer> c = new QueryBatch.ExpansionCache<>("test");
    CountDownLatch bothStarted = new CountDownLatch(2);
    AtomicInteger computations = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> fs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        String key = t % 2 == 0 ? "x" : "y";
        fs.add(pool.submit(() -> c.get(key, 1, 8, 1000, () -> {
          computations.incrementAndGet();
          bothStarted.countDown();
          try {
            // a global lock around the computation would keep the other key from starting
            assertTrue(bothStarted.await(10, TimeUnit.SECONDS), "x and y computed together");
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          return key.hashCode();
        })));
      }
      for (int t = 0; t < 8; t++) {
        assertEquals((t % 2 == 0 ? "x" : "y").hashCode(), fs.get(t).get(20, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(2, computations.get(), "each key computed once");
  }

  @Test
  void unbatchedEntriesAreReleasedLeastRecentlyUsedFirst() {
    QueryBatch.ExpansionCache<String> c = new QueryBatch.ExpansionCache<>("test");
    c.get("k1", 0, 40, 100, () -> "one");
    c.get("k2", 0, 40, 100, () -> "two");
    assertSame("one", c.get("k1", 0, 40, 100, () -> "again"), "a hit, and k1 is now the newest");
    c.get("k3", 0, 40, 100, () -> "three");
    assertNull(c.peek("k2"), "k2, used least recently, made room");
    assertSame("one", c.peek("k1"));
    assertEquals(3, c.computedCount(), "k1's hit computed nothing");
  }

  @Test
  void aFailedComputationIsNotCached() {
    QueryBatch.ExpansionCache<String> c = new QueryBatch.ExpansionCache<>("test");
    assertThrows(IllegalStateException.class, () -> c.get("k", 1, 8, 100, () -> {
      throw new IllegalStateException("boom");
    }));
    assertEquals(0, c.heldBytes());
    assertSame("ok", c.get("k", 1, 8, 100, () -> "ok"));
  }

  @Test
  void keysAreCryptographicDigestsNotThirtyTwoBitHashes() {
    byte[] a = {0, 31};
    byte[] b = {1, 0};
    assertEquals(Arrays.hashCode(a), Arrays.hashCode(b), "the two inputs collide in hashCode");
    assertNotEquals(QueryBatch.sha256(a), QueryBatch.sha256(b));
    assertNotEquals(QueryBatch.sha256(new byte[] {1}, new byte[] {2, 3}),
        QueryBatch.sha256(new byte[] {1, 2}, new byte[] {3}), "parts are length-delimited");
    assertEquals(64, QueryBatch.sha256(a).length());
  }
}
