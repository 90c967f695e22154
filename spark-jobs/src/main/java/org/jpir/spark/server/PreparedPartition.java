package org.jpir.spark.server;

import org.jpir.core.server.PreparedDatabase;

/**
 * One cached partition: the prepared PVECs of a column range, built on the executor from the
 * compact records and kept in memory (never serialized: a lost partition is prepared again from
 * its source, which gives the same PVECs).
 */
public final class PreparedPartition {
  private final int index;
  private final transient PreparedDatabase db;

  PreparedPartition(int index, PreparedDatabase db) {
    this.index = index;
    this.db = db;
  }

  /** Range index in the {@link ColumnPartitioning}. */
  public int index() {
    return index;
  }

  /** The prepared columns. */
  public PreparedDatabase database() {
    return db;
  }
}
