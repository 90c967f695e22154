package org.jpir.datasets.source;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import org.jpir.core.server.SizedRecordSource;

/**
 * A binary file of fixed-size records: record i is bytes {@code [i*size, (i+1)*size)} (offsets
 * computed, no index). The file length must be a multiple of the record size. Not thread-safe.
 */
public final class FixedSizeRecords extends SizedRecordSource implements Closeable {
  private final FileWindow window;

  private FixedSizeRecords(FileWindow window, int size, long count) {
    super(count, size);
    this.window = window;
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
  public void read(long index, byte[] dst, int off) {
    checkIndex(index);
    window.read(index * recordSize(), dst, off, recordSize());
  }

  @Override
  public void close() throws IOException {
    window.close();
  }
}
