package org.jpir.spark.source;

import java.io.Serializable;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.RecordSource;

/**
 * How an executor opens the database's records: a small serializable description (a path, a
 * generator seed) shipped with each task, never the records themselves.
 */
public interface RecordSourceFactory extends Serializable {
  /** Opens the source (on an executor). */
  RecordSource open();

  /** Prepares columns {@code [first, first + count)} on an executor. */
  default PreparedDatabase prepare(Params p, Geometry g, int first, int count) {
    return PreparedDatabase.prepare(p, g, open(), first, count, null);
  }

  /**
   * Columns per stored chunk (a power of two) that partition boundaries should be aligned to, so
   * that no two partitions read the same chunk; 1 when the source has no chunks.
   */
  default int storageChunk() {
    return 1;
  }

  /** A one-line description for logs. */
  String describe();
}
