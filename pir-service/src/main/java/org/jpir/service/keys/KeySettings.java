package org.jpir.service.keys;

import java.util.Collection;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jpir.core.params.CompactParams;

/**
 * The key store's settings of {@code ./pir serve --port}: the directory (null: memory only), the
 * time to live of unused keys (0: forever) and the memory bound.
 *
 * @param dir the directory or Hadoop URI keys are persisted under, or null
 * @param ttlMillis keys unused this long expire; 0: never
 * @param cacheBytes most bytes of keys held in memory
 */
public record KeySettings(String dir, long ttlMillis, long cacheBytes) {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)?");

  /** Checks the bounds. */
  public KeySettings {
    if (ttlMillis < 0 || cacheBytes < 1) {
      throw new IllegalArgumentException("--key-ttl must be >= 0 and --key-cache-mib >= 1");
    }
  }

  /**
   * A duration as {@code <n>[ms|s|m|h|d]} (no unit: seconds) in milliseconds; {@code 0} means
   * forever.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static long durationMillis(String text) {
    Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("duration '" + text + "': expected a number with an"
          + " optional unit ms, s, m, h or d (e.g. 7d, 12h, 90s)");
    }
    long n = Long.parseLong(m.group(1));
    String u = m.group(2) == null ? "s" : m.group(2);
    return switch (u) {
      case "ms" -> n;
      case "s" -> TimeUnit.SECONDS.toMillis(n);
      case "m" -> TimeUnit.MINUTES.toMillis(n);
      case "h" -> TimeUnit.HOURS.toMillis(n);
      default -> TimeUnit.DAYS.toMillis(n);
    };
  }

  /** The store for {@code presets} under these settings, on the system clock. */
  public StoredServiceKeys open(Collection<CompactParams> presets) {
    return new StoredServiceKeys(presets, dir, ttlMillis, cacheBytes, System::currentTimeMillis);
  }

  /**
   * Sweeps {@code keys} ({@link StoredServiceKeys#sweep}) every eighth of the time to live (at
   * least every minute, at most every hour) on a daemon thread; null without a time to live.
   * The caller shuts the returned executor down.
   */
  public ScheduledExecutorService sweeper(StoredServiceKeys keys) {
    if (ttlMillis == 0) {
      return null;
    }
    long every = Math.max(60_000, Math.min(3_600_000, ttlMillis / 8));
    ScheduledExecutorService ex = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "jpir-key-sweeper");
      t.setDaemon(true);
      return t;
    });
    ex.scheduleWithFixedDelay(() -> {
      try {
        keys.sweep();
      } catch (RuntimeException e) { // a file system hiccup: the next sweep tries again
        System.err.println("serve: key sweep failed: " + e.getClass().getSimpleName());
      }
    }, every, every, TimeUnit.MILLISECONDS);
    return ex;
  }
}
