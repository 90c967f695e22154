package org.jpir.service.load;

/**
 * When open-loop clients send: {@code clients} clients together send {@code rate} queries per
 * second for {@code windowNanos}. Each client sends every {@code clients / rate} seconds whatever
 * its answers do, client c first {@code c / rate} seconds after the window opens, so the sends of
 * all clients together are evenly spaced {@code 1 / rate} apart (send j of the whole schedule is
 * send {@code j / clients} of client {@code j % clients}, at {@code j / rate}).
 *
 * @param clients the number of clients (at least 1)
 * @param rate queries per second of all clients together (positive)
 * @param windowNanos the window; sends fall at offsets {@code [0, windowNanos)}
 */
record PacedSchedule(int clients, double rate, long windowNanos) {
  PacedSchedule {
    if (clients < 1) {
      throw new IllegalArgumentException("clients " + clients + " must be >= 1");
    }
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("rate " + rate + " queries/s must be positive");
    }
    if (windowNanos <= 0) {
      throw new IllegalArgumentException("window " + windowNanos + " ns must be positive");
    }
  }

  /** The offset from the window's start of send {@code k} of client {@code client} (ns). */
  long offsetNanos(int client, long k) {
    return globalOffsetNanos(client + k * clients);
  }

  /** Each client's interval between two sends (ns). */
  long intervalNanos() {
    return Math.round(clients * 1e9 / rate);
  }

  /** How many sends of all clients fall inside the window. */
  long total() {
    long j = Math.max(0, (long) Math.floor(windowNanos / 1e9 * rate) - 1);
    while (globalOffsetNanos(j) < windowNanos) {
      j++;
    }
    while (j > 0 && globalOffsetNanos(j - 1) >= windowNanos) {
      j--;
    }
    return j;
  }

  /** How many sends of client {@code client} fall inside the window. */
  int sends(int client) {
    if (client < 0 || client >= clients) {
      throw new IllegalArgumentException("client " + client + " of " + clients);
    }
    long t = total();
    return client >= t ? 0 : Math.toIntExact((t - client + clients - 1) / clients);
  }

  private long globalOffsetNanos(long j) {
    return Math.round(j * 1e9 / rate);
  }
}
