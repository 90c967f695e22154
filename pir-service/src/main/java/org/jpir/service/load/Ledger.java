package org.jpir.service.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * The accounts of one measured run, kept while it runs and checked after it: every query sent
 * (its request id, client, place in the client's pool, record index and the time it was meant
 * to leave) and every result that came back for a request id. Afterwards it tells what was
 * lost (sent, no result), answered twice (a second result for a request id), stray (a result for
 * an id never sent), refused (an error result, by status), and, through a {@link Decoder},
 * which answers decode to the record asked for. Thread-safe.
 */
final class Ledger {
  /** A query sent: latency counts from {@code plannedNanos} (open loop: its scheduled time). */
  record Sent(String requestId, int client, int slot, long index, long plannedNanos) {}

  /** Decodes an answer and compares it with the plaintext record (after the run). */
  @FunctionalInterface
  interface Decoder {
    /** True when {@code answer} decodes to record {@code s.index()}; may throw when it cannot. */
    boolean matches(Sent s, byte[] answer);
  }

  /** What came back for one request id. */
  private record Result(byte[] answer, String error, long doneNanos) {}

  /**
   * The counts of a run.
   *
   * @param sent queries sent (distinct request ids)
   * @param answered those with an answer
   * @param errors those with an error result (refused by the service or a failed call)
   * @param lost those with no result at all
   * @param duplicates results beyond the first for one request id
   * @param strays results for request ids never sent
   * @param retries calls sent again (a full queue or an unavailable service)
   * @param errorsByKind the errors by status
   */
  record Totals(int sent, int answered, int errors, int lost, int duplicates, int strays,
      int retries, Map<String, Integer> errorsByKind) {}

  /** The outcome of decoding every answer. */
  record Check(int decoded, int mismatches, int undecodable) {}

  private final Map<String, Sent> sent = new LinkedHashMap<>();
  private final Map<String, Result> results = new LinkedHashMap<>();
  private int duplicates;
  private int strays;
  private int retries;

  /**
   * Records a query about to be sent.
   *
   * @throws IllegalStateException when its request id was sent before (a harness error)
   */
  synchronized void sent(Sent s) {
    if (sent.putIfAbsent(s.requestId(), s) != null) {
      throw new IllegalStateException("request id " + s.requestId() + " sent twice");
    }
  }

  /** A call sent again with the same request ids. */
  synchronized void retried() {
    retries++;
  }

  /** The answer to {@code requestId}, received at {@code doneNanos}. */
  synchronized void answered(String requestId, byte[] answer, long doneNanos) {
    result(requestId, new Result(answer, null, doneNanos));
  }

  /** An error result for {@code requestId} ({@code kind}: its status). */
  synchronized void failed(String requestId, String kind, long doneNanos) {
    result(requestId, new Result(null, kind, doneNanos));
  }

  private void result(String requestId, Result r) {
    if (!sent.containsKey(requestId)) {
      strays++;
    } else if (results.putIfAbsent(requestId, r) != null) {
      duplicates++;
    }
  }

  /** The counts so far. */
  synchronized Totals totals() {
    int answered = 0;
    Map<String, Integer> kinds = new TreeMap<>();
    for (Result r : results.values()) {
      if (r.answer() != null) {
        answered++;
      } else {
        kinds.merge(r.error(), 1, Integer::sum);
      }
    }
    return new Totals(sent.size(), answered, results.size() - answered,
        sent.size() - results.size(), duplicates, strays, retries, Map.copyOf(kinds));
  }

  /** The latency of every answered query (microseconds, from its planned send). */
  synchronized Histogram latencies() {
    Histogram h = new Histogram(3);
    for (Map.Entry<String, Result> e : results.entrySet()) {
      Result r = e.getValue();
      if (r.answer() != null) {
        h.recordValue(Math.max(0, (r.doneNanos() - sent.get(e.getKey()).plannedNanos()) / 1000));
      }
    }
    return h;
  }

  /** The latest time a result came back (or {@code orElse} when none did). */
  synchronized long lastDoneNanos(long orElse) {
    long last = orElse;
    boolean any = false;
    for (Result r : results.values()) {
      last = any ? Math.max(last, r.doneNanos()) : r.doneNanos();
      any = true;
    }
    return last;
  }

  /** {@code {planned send, answer received}} of every answered query (ns), in sending order. */
  synchronized List<long[]> answeredTimes() {
    List<long[]> out = new ArrayList<>();
    for (Sent s : sent.values()) {
      Result r = results.get(s.requestId());
      if (r != null && r.answer() != null) {
        out.add(new long[] {s.plannedNanos(), r.doneNanos()});
      }
    }
    return out;
  }

  /** The answered queries, in the order they were sent. */
  synchronized List<Sent> answeredQueries() {
    List<Sent> out = new ArrayList<>();
    for (Sent s : sent.values()) {
      Result r = results.get(s.requestId());
      if (r != null && r.answer() != null) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * Decodes every answer with {@code d} (after the run) on {@code threads} threads (each
   * client's answers on one thread), counting mismatches and answers that do not decode, then
   * drops the answers' bytes.
   */
  Check check(Decoder d, int threads) {
    Map<Integer, List<Map.Entry<Sent, byte[]>>> byClient = new TreeMap<>();
    synchronized (this) {
      for (Map.Entry<String, Result> e : results.entrySet()) {
        if (e.getValue().answer() != null) {
          Sent s = sent.get(e.getKey());
          byClient.computeIfAbsent(s.client(), c -> new ArrayList<>())
              .add(Map.entry(s, e.getValue().answer()));
        }
      }
    }
    AtomicInteger decoded = new AtomicInteger();
    AtomicInteger mismatches = new AtomicInteger();
    AtomicInteger undecodable = new AtomicInteger();
    ExecutorService ex = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (List<Map.Entry<Sent, byte[]>> mine : byClient.values()) {
        fs.add(ex.submit(() -> {
          for (Map.Entry<Sent, byte[]> e : mine) {
            decoded.incrementAndGet();
            try {
              if (!d.matches(e.getKey(), e.getValue())) {
                mismatches.incrementAndGet();
              }
            } catch (RuntimeException ignored) {
              undecodable.incrementAndGet();
            }
          }
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while decoding", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("decoding failed", e.getCause());
    } finally {
      ex.shutdownNow();
    }
    synchronized (this) {
      results.replaceAll((id, r) -> r.answer() == null ? r
          : new Result(new byte[0], null, r.doneNanos()));
    }
    return new Check(decoded.get(), mismatches.get(), undecodable.get());
  }
}
