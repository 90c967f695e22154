package org.jpir.datasets.source;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import org.jpir.core.server.RecordSource;

/**
 * A binary file of fixed-size records: record i is bytes {@code [i*size, (i+1)*size)} (offsets
 * computed, no index). The file length must be a multiple of the record size. Not thread-safe.
 */
public final class FixedSizeRecords implements RecordSource, Closeable {
  private final FileWindow window;
  private final int size;
  private final long count;

  private FixedSizeRecords(FileWindow window, int size, long count) {
    this.window = window;
    this.size = size;
    this.count = count;
  }

  /** Opens {@code path} as records of {@code recordSize} bytes. */
  public static FixedSizeRecords open(Path path, int recordSize) throws IOException {
    if (recordSize < 1) {
      throw new IllegalArgumentException("record size " + recordSize + " must be at least 1");
    }
    FileWindow w = new FileWindow(path);
    long len = w.size();
    if (len == 0 || len % recordSize != 0) {
      w.close();
      throw new IllegalArgumentException(path + " is " + len + " bytes, not a positive multiple of "
          + "the record size " + recordSize + " (" + (len % recordSize)
          + " trailing bytes: truncated file or wrong record size?)");
    }
    return new FixedSizeRecords(w, recordSize, len / recordSize);
  }

  @Override
  public long recordCount() {
    return count;
  }

  @Override
  public int recordSize() {
    return size;
  }

  @Override
  public void read(long index, byte[] dst, int off) {
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException("record " + index + " out of range [0, " + count + ")");
    }
    window.read(index * size, dst, off, size);
  }

  @Override
  public void close() throws IOException {
    window.close();
  }
}
