package org.jpir.spark.source;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.RecordSource;
import org.jpir.datasets.store.StoredDatabase;

/**
 * A stored database directory (see datasets/FORMAT.md) visible at the same path on every
 * executor (a shared or distributed file system): each partition reads and verifies only the
 * chunks of its own columns, of data version {@code dataVersion} ({@code <= 0}: whichever is
 * current when the partition is read), so a partition prepared again after an update made a
 * newer version current still reads the version the job started on.
 */
public record StoredSourceFactory(String directory, int columnsPerChunk, int dataVersion)
    implements RecordSourceFactory {
  /** The current version when each partition is read. */
  public StoredSourceFactory(String directory, int columnsPerChunk) {
    this(directory, columnsPerChunk, 0);
  }

  @Override
  public int storageChunk() {
    return columnsPerChunk;
  }

  @Override
  public RecordSource open() {
    return StoredDatabase.open(Path.of(directory), null, dataVersion);
  }

  @Override
  public PreparedDatabase prepare(Params p, Geometry g, int first, int count) {
    try (StoredDatabase db = StoredDatabase.open(Path.of(directory), p, dataVersion)) {
      if (!db.geometry().equals(g)) {
        throw new IllegalStateException("stored database " + directory + " has geometry "
            + db.geometry() + ", the job expects " + g);
      }
      return db.prepare(first, count, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String describe() {
    return "stored(" + directory + (dataVersion > 0 ? ", data version " + dataVersion : "")
        + ")";
  }
}
