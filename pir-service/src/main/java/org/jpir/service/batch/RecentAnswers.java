package org.jpir.service.batch;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The recent queries by (client, request id), so that a retried request id is answered once:
 * a retry while the first is queued waits for the same result, a retry after it was answered
 * gets the same answer. Only answers are kept: a query that ended in an error (or was dropped
 * because every caller went away) is forgotten, so its retry is admitted afresh. Bounded: the
 * least recently used entries beyond {@code maxEntries} are dropped (a call already waiting on
 * one still gets its result). Thread-safe.
 */
public final class RecentAnswers {
  /** One query's shared result and the calls waiting for it. */
  public static final class Entry {
    final String digest;
    final CompletableFuture<Outcome> result = new CompletableFuture<>();
    final AtomicInteger waiters = new AtomicInteger();

    Entry(String digest) {
      this.digest = digest;
    }

    /**
     * An entry outside any recent answers, its creator its one waiter: for a front door that
     * names each query itself (the query directory, by file name) and never abandons it.
     */
    public static Entry detached() {
      Entry e = new Entry("");
      e.waiters.incrementAndGet();
      return e;
    }

    /** The result, completed once. */
    public CompletableFuture<Outcome> result() {
      return result;
    }

    /** One waiting call went away (cancelled or past its deadline). */
    public void leave() {
      waiters.decrementAndGet();
    }

    /** Whether no call waits for this result any more. */
    public boolean abandoned() {
      return waiters.get() <= 0;
    }
  }

  /**
   * The outcome of {@link #claim}: {@code fresh} when the caller must admit the query itself,
   * {@code conflict} when the id was used for another query (entry null).
   */
  public record Claim(Entry entry, boolean fresh, boolean conflict) {}

  private record Key(String client, String requestId) {}

  private final int maxEntries;
  private final LinkedHashMap<Key, Entry> map;

  /** Keeps at most {@code maxEntries} (at least 1). */
  public RecentAnswers(int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("recent answers " + maxEntries + " must be >= 1");
    }
    this.maxEntries = maxEntries;
    this.map = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, RecentAnswers.Entry> eldest) {
        return size() > RecentAnswers.this.maxEntries;
      }
    };
  }

  /**
   * Joins the query {@code requestId} of {@code client} whose content hashes to {@code digest}:
   * the entry already held (not fresh), a new one (fresh: the caller admits the query and
   * completes the entry), or a conflict when the id names another query. The caller counts as
   * a waiter until it calls {@link Entry#leave}.
   */
  public synchronized Claim claim(String client, String requestId, String digest) {
    Key k = new Key(client, requestId);
    Entry e = map.get(k);
    if (e != null) {
      if (!e.digest.equals(digest)) {
        return new Claim(null, false, true);
      }
      e.waiters.incrementAndGet();
      return new Claim(e, false, false);
    }
    Entry fresh = new Entry(digest);
    fresh.waiters.incrementAndGet();
    map.put(k, fresh);
    fresh.result.whenComplete((o, t) -> {
      if (o == null || !o.ok()) {
        forget(k, fresh);
      }
    });
    return new Claim(fresh, true, false);
  }

  /** Drops {@code requestId} of {@code client} if it still maps to {@code e}. */
  public void forget(String client, String requestId, Entry e) {
    forget(new Key(client, requestId), e);
  }

  private synchronized void forget(Key k, Entry e) {
    map.remove(k, e);
  }

  /** Entries held. */
  public synchronized int size() {
    return map.size();
  }
}
