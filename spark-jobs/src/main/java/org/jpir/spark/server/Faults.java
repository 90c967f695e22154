package org.jpir.spark.server;

import java.io.Serializable;
import java.util.Set;
import org.jpir.core.server.QueryBatch;

/**
 * The failures a test injects into a {@link DistributedPirServer}'s batches: the first attempt of
 * the task for partition {@code failFirstAttemptOf} fails (-1: none; Spark retries it when the
 * master allows retries, e.g. {@code local[2,3]}), and every task of a batch that holds a query
 * whose bytes have one of the hex SHA-256 digests {@code failQueries} ({@link QueryBatch#sha256})
 * fails on every attempt. {@link #NONE} in production.
 */
public record Faults(int failFirstAttemptOf, Set<String> failQueries) implements Serializable {
  /** No injected failure. */
  public static final Faults NONE = new Faults(-1, Set.of());

  /** Copies the digests. */
  public Faults {
    failQueries = Set.copyOf(failQueries);
  }

  /** The first attempt of partition {@code partition}'s task fails. */
  public static Faults firstAttemptOf(int partition) {
    return new Faults(partition, Set.of());
  }

  /** Every task of a batch holding a query with one of these wire bytes fails. */
  public static Faults queries(byte[]... wires) {
    String[] d = new String[wires.length];
    for (int i = 0; i < wires.length; i++) {
      d[i] = QueryBatch.sha256(wires[i]);
    }
    return new Faults(-1, Set.of(d));
  }

  /**
   * Throws the injected failure, if any, for attempt {@code attempt} of the task of partition
   * {@code partition} over {@code b}.
   *
   * @throws IllegalStateException the injected failure
   */
  void check(int partition, int attempt, QueryBatch b) {
    if (partition == failFirstAttemptOf && attempt == 0) {
      throw new IllegalStateException("injected failure of the first attempt of partition "
          + partition);
    }
    if (failQueries.isEmpty()) {
      return;
    }
    for (int i = 0; i < b.size(); i++) {
      if (failQueries.contains(QueryBatch.sha256(b.query(i)))) {
        throw new IllegalStateException("injected executor failure of query " + i
            + " of the batch");
      }
    }
  }
}
