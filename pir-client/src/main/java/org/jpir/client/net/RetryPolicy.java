package org.jpir.client.net;

/**
 * How {@link NetworkPirClient} retries a call that failed with {@code UNAVAILABLE} or {@code
 * RESOURCE_EXHAUSTED}: up to {@code maxAttempts} tries in all, waiting an exponential backoff
 * from {@code initialBackoffMillis} (doubling, at most {@code maxBackoffMillis}, with up to 50%
 * random jitter added) or the server's {@code retry-after-ms} hint when that is longer. Each
 * retry sends the same request ids, so the server answers each query once.
 */
public record RetryPolicy(int maxAttempts, long initialBackoffMillis, long maxBackoffMillis) {
  /** Validates. */
  public RetryPolicy {
    if (maxAttempts < 1 || initialBackoffMillis < 0 || maxBackoffMillis < initialBackoffMillis) {
      throw new IllegalArgumentException("retry policy needs maxAttempts >= 1 and 0 <="
          + " initialBackoffMillis <= maxBackoffMillis");
    }
  }

  /** 8 tries, 100 ms doubling to 5 s. */
  public static RetryPolicy defaults() {
    return new RetryPolicy(8, 100, 5000);
  }

  /** The wait before try {@code attempt} (2, 3, ...) without jitter. */
  long backoffMillis(int attempt) {
    long b = initialBackoffMillis;
    for (int i = 2; i < attempt && b < maxBackoffMillis; i++) {
      b *= 2;
    }
    return Math.min(b, maxBackoffMillis);
  }
}
