package org.jpir.service.rpc;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Per-client rate quotas: a token bucket per client holding at most {@code perWindow} units,
 * refilled at {@code perWindow} per {@code windowMillis} (so a client may send a burst of a whole
 * window's units, then the refill rate). What is counted is the client's calls (queries, key
 * uploads), never their content. The buckets of clients idle long enough to be full again are
 * dropped when more than {@value #MAX_CLIENTS} are held, so memory stays bounded. Thread-safe.
 */
public final class Quotas {
  static final int MAX_CLIENTS = 100_000;

  private final long perWindow;
  private final double perMilli;
  private final LongSupplier clockMillis;
  private final ConcurrentHashMap<String, double[]> buckets = new ConcurrentHashMap<>();

  /**
   * A quota of {@code perWindow} units per {@code windowMillis} for each client; {@code
   * clockMillis} gives the time.
   *
   * @throws IllegalArgumentException when either is below 1
   */
  public Quotas(long perWindow, long windowMillis, LongSupplier clockMillis) {
    if (perWindow < 1 || windowMillis < 1) {
      throw new IllegalArgumentException("a quota must be at least 1 per window");
    }
    this.perWindow = perWindow;
    this.perMilli = (double) perWindow / windowMillis;
    this.clockMillis = clockMillis;
  }

  /** The units a client may use per window. */
  public long perWindow() {
    return perWindow;
  }

  /**
   * Takes {@code units} from {@code client}'s bucket when it holds them and returns 0; else
   * takes nothing and returns how many milliseconds until it will (at least 1), or -1 when
   * {@code units} is more than a whole window allows.
   */
  public long take(String client, long units) {
    if (units > perWindow) {
      return -1;
    }
    long now = clockMillis.getAsLong();
    if (buckets.size() > MAX_CLIENTS) {
      buckets.values().removeIf(b -> {
        synchronized (b) {
          return level(b, now) >= perWindow;
        }
      });
    }
    double[] b = buckets.computeIfAbsent(client, c -> new double[] {perWindow, now});
    synchronized (b) {
      double have = level(b, now);
      b[0] = have;
      b[1] = now;
      if (have >= units) {
        b[0] = have - units;
        return 0;
      }
      return Math.max(1, (long) Math.ceil((units - have) / perMilli));
    }
  }

  /** The bucket's level at {@code now}: its level then plus the refill since, at most full. */
  private double level(double[] b, long now) {
    return Math.min(perWindow, b[0] + Math.max(0, now - (long) b[1]) * perMilli);
  }
}
