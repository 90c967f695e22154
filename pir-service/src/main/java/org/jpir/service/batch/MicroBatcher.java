package org.jpir.service.batch;

import io.grpc.Status;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Gathers the queries of many calls into micro-batches and answers them on one thread, so one
 * micro-batch is in flight at a time ({@link BatchSettings#IN_FLIGHT}). A micro-batch starts when
 * {@link BatchSettings#maxQueries} queries wait or the oldest has waited {@link
 * BatchSettings#maxWaitMillis}, or at once when calls arrive further apart than that bound (the
 * moving average of the gaps between calls, {@link #lingers}: waiting would only delay a lone
 * query); it takes whole calls in arrival order (a call's queries are never
 * split). Before each micro-batch, and every {@link BatchSettings#pollMillis} when idle, {@code
 * between} runs (database version switches). Work whose callers all went away is dropped
 * unanswered; a query whose version is no longer served gets the outdated status. The queue is
 * bounded ({@link BatchSettings#maxQueued}); {@link #close} stops admitting and answers what was
 * accepted before returning.
 */
public final class MicroBatcher implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(MicroBatcher.class);

  /** Thrown by {@link #submit} when the queue is full or the batcher is closing. */
  public static final class Refused extends Exception {
    private final boolean closing;
    private final long retryAfterMillis;

    Refused(String message, boolean closing, long retryAfterMillis) {
      super(message);
      this.closing = closing;
      this.retryAfterMillis = retryAfterMillis;
    }

    /** True when the service is shutting down (not a full queue). */
    public boolean closing() {
      return closing;
    }

    /** When a retry has a chance (milliseconds). */
    public long retryAfterMillis() {
      return retryAfterMillis;
    }
  }

  private final BatchSettings settings;
  private final BatchAnswerer answerer;
  private final Runnable between;
  private final BatchListener listener;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Work> queue = new ArrayDeque<>();
  private final Thread thread;
  private int queued;
  private boolean closing;
  private volatile long lastBatchMillis = 100;
  /** When the last call was queued (0: none yet), and the moving average of the gaps (-1). */
  private long lastArrivalNanos;
  private long gapNanos = -1;
  private long microBatches;
  private long queriesAnswered;

  /** Starts the batcher's thread, with no listener. */
  public MicroBatcher(BatchSettings settings, Runnable between) {
    this(settings, between, BatchListener.NONE);
  }

  /** Starts the batcher's thread; {@code listener} hears of every micro-batch. */
  public MicroBatcher(BatchSettings settings, Runnable between, BatchListener listener) {
    this.listener = listener;
    this.settings = settings;
    this.answerer = new BatchAnswerer(settings.sparkBatch(), listener);
    this.between = between;
    this.thread = new Thread(this::loop, "jpir-micro-batcher");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Queues {@code w}; its items' entries complete when answered.
   *
   * @throws Refused when the queue would exceed its bound, or the batcher is closing
   */
  public void submit(Work w) throws Refused {
    lock.lock();
    try {
      if (closing) {
        throw new Refused("the service is shutting down", true, 0);
      }
      if (queued + w.size() > settings.maxQueued()) {
        throw new Refused("the service's queue is full (" + queued + " of "
            + settings.maxQueued() + " queries waiting)", false, retryAfterMillis());
      }
      queue.add(w);
      queued += w.size();
      final long now = System.nanoTime();
      if (lastArrivalNanos != 0) {
        gapNanos = averageGap(gapNanos, now - lastArrivalNanos);
      }
      lastArrivalNanos = now;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The moving average of the gaps between calls after one more gap (weight 1/8; {@code
   * average} -1: none yet).
   */
  static long averageGap(long average, long gap) {
    return average < 0 ? gap : average + (gap - average) / 8;
  }

  /**
   * Whether a micro-batch waits for its time bound ({@code maxWaitNanos}) to gather more calls:
   * unless the calls' average gap ({@code gapNanos}, -1 when unknown) is longer than the bound.
   */
  static boolean lingers(long gapNanos, long maxWaitNanos) {
    return gapNanos < 0 || gapNanos <= maxWaitNanos;
  }

  /** A retry hint: the expected time until the queue has room, at least 50 ms. */
  long retryAfterMillis() {
    long batches = queued / settings.maxQueries() + 1;
    return Math.max(50, batches * lastBatchMillis);
  }

  /** Queries waiting now. */
  public int queued() {
    lock.lock();
    try {
      return queued;
    } finally {
      lock.unlock();
    }
  }

  /** Micro-batches answered so far. */
  public synchronized long microBatches() {
    return microBatches;
  }

  /** Queries handed to the answer path so far (each admitted query once). */
  public synchronized long queriesAnswered() {
    return queriesAnswered;
  }

  private void loop() {
    while (true) {
      List<Work> batch;
      try {
        batch = next();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (batch == null) {
        return;
      }
      runBetween();
      if (!batch.isEmpty()) {
        answer(batch);
      }
    }
  }

  /** The next micro-batch; empty after an idle poll interval; null once closed and drained. */
  private List<Work> next() throws InterruptedException {
    lock.lock();
    try {
      long idleEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.pollMillis());
      while (queue.isEmpty()) {
        if (closing) {
          return null;
        }
        long left = idleEnd - System.nanoTime();
        if (left <= 0) {
          return List.of();
        }
        changed.awaitNanos(left);
      }
      final long maxWait = TimeUnit.MILLISECONDS.toNanos(settings.maxWaitMillis());
      long due = lingers(gapNanos, maxWait) ? queue.peek().queuedNanos + maxWait
          : System.nanoTime();
      while (!closing && queued < settings.maxQueries() && due - System.nanoTime() > 0) {
        changed.awaitNanos(due - System.nanoTime());
      }
      List<Work> out = new ArrayList<>();
      int n = 0;
      while (!queue.isEmpty() && (out.isEmpty()
          || n + queue.peek().size() <= settings.maxQueries())) {
        Work w = queue.poll();
        queued -= w.size();
        n += w.size();
        out.add(w);
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  private void runBetween() {
    try {
      between.run();
    } catch (RuntimeException e) {
      LOG.error("service: between micro-batches: {}", e.toString());
    }
  }

  private void answer(List<Work> batch) {
    long t0 = System.nanoTime();
    List<Work.Item> items = new ArrayList<>();
    int dropped = 0;
    int outdated = 0;
    for (Work w : batch) {
      if (w.abandoned()) {
        dropped += w.size();
        w.completeAll(Outcome.error(Status.Code.CANCELLED, "every caller went away"));
        continue;
      }
      for (Work.Item it : w.items()) {
        if (!it.db().serves(it.version(), t0)) {
          outdated++;
          it.entry().result().complete(Outcome.outdated("config " + it.version().configId()
              + " of database " + it.db().name() + " is no longer served; the current one is "
              + it.db().current().configId(), it.db().current().configId()));
        } else {
          items.add(it);
        }
      }
    }
    synchronized (this) {
      queriesAnswered += items.size(); // before the answers go out: callers see it counted
    }
    try {
      if (!items.isEmpty()) {
        answerer.answer(items);
      }
    } catch (RuntimeException e) { // never leave a caller waiting
      LOG.error("service: micro-batch failed: {}", e.toString());
      for (Work w : batch) {
        w.completeAll(Outcome.error(Status.Code.INTERNAL, "the micro-batch failed"));
      }
    }
    double s = (System.nanoTime() - t0) / 1e9;
    lastBatchMillis = Math.max(1, Math.round(s * 1000));
    long number;
    synchronized (this) {
      number = ++microBatches;
    }
    int waiting = queued();
    LOG.info(String.format(Locale.ROOT, "service: micro-batch %d: %d queries of %d calls answered"
        + " in %.2f s; %d dropped (callers gone), %d for an outdated config; %d queued",
        number, items.size(), batch.size(), s, dropped, outdated, waiting));
    try {
      listener.answered(new BatchListener.Stats(number, items.size(), batch.size(), s, dropped,
          outdated, waiting));
    } catch (RuntimeException e) {
      LOG.error("service: batch listener: {}", e.toString());
    }
  }

  /**
   * Stops admitting (later {@link #submit}s are refused as closing), answers every call
   * accepted before, then stops the thread; waits at most {@code timeoutMillis}.
   */
  public boolean close(long timeoutMillis) throws InterruptedException {
    lock.lock();
    try {
      closing = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    thread.join(timeoutMillis);
    return !thread.isAlive();
  }

  /** {@link #close(long)} waiting as long as it takes. */
  @Override
  public void close() throws InterruptedException {
    close(0);
  }
}
