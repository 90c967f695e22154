package org.jpir.datasets.source;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.jpir.core.server.RecordSource;
import org.jpir.datasets.LengthPrefix;
import org.jpir.datasets.ValueTooLargeException;

/**
 * Newline-delimited records: record i is line i+1 of the file (LF or CRLF; the terminator is not
 * part of the record; a final line without terminator counts, an empty tail after the last
 * terminator does not). Each record is the line as a length-prefixed field of {@link
 * #recordSize()} bytes ({@link LengthPrefix}). Opening streams the file once and keeps an index of
 * 12 bytes per line (start offset and length); records are then read from the file on demand.
 * Not thread-safe: open one instance per thread.
 */
public final class LineRecords implements RecordSource, Closeable {
  private final Path path;
  private final int recordSize;
  private final boolean truncate;
  private final long[] starts;
  private final int[] lengths;
  private final int maxLength;
  private final FileWindow window;
  private byte[] lineBuf = new byte[256];

  private LineRecords(Path path, int recordSize, boolean truncate, long[] starts, int[] lengths,
      int maxLength) throws IOException {
    this.path = path;
    this.recordSize = recordSize;
    this.truncate = truncate;
    this.starts = starts;
    this.lengths = lengths;
    this.maxLength = maxLength;
    this.window = new FileWindow(path);
  }

  /**
   * Indexes {@code path}. {@code recordSize <= 0} picks the smallest size that holds the longest
   * line; otherwise a longer line is an error naming its line number unless {@code truncate}.
   */
  public static LineRecords open(Path path, int recordSize, boolean truncate) throws IOException {
    long[] starts = new long[1024];
    int[] lengths = new int[1024];
    int count = 0;
    int max = 0;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(path), 1 << 16)) {
      long pos = 0;
      long lineStart = 0;
      int c;
      boolean pendingCr = false;
      while ((c = in.read()) >= 0) {
        pos++;
        if (c == '\n') {
          long len = pos - 1 - lineStart - (pendingCr ? 1 : 0);
          if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
          }
          if (len > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(path + " line " + (count + 1) + " is too long");
          }
          starts[count] = lineStart;
          lengths[count] = (int) len;
          max = Math.max(max, (int) len);
          count++;
          lineStart = pos;
        }
        pendingCr = c == '\r';
      }
      if (pos > lineStart) {
        long len = pos - lineStart - (pendingCr ? 1 : 0);
        if (count == starts.length) {
          starts = Arrays.copyOf(starts, count + 1);
          lengths = Arrays.copyOf(lengths, count + 1);
        }
        starts[count] = lineStart;
        lengths[count] = (int) len;
        max = Math.max(max, (int) len);
        count++;
      }
    }
    if (count == 0) {
      throw new IllegalArgumentException(path + " has no lines");
    }
    int size = recordSize > 0 ? recordSize : LengthPrefix.fieldSizeFor(max);
    if (!truncate) {
      int cap = LengthPrefix.capacity(size);
      for (int i = 0; i < count; i++) {
        if (lengths[i] > cap) {
          throw new ValueTooLargeException(path + " line " + (i + 1)
              + ": value of " + lengths[i] + " bytes does not fit the " + cap + " bytes a "
              + size + "-byte record holds (" + LengthPrefix.prefixBytes(size)
              + "-byte length prefix); raise the record size or choose truncation explicitly");
        }
      }
    }
    return new LineRecords(path, size, truncate, Arrays.copyOf(starts, count),
        Arrays.copyOf(lengths, count), max);
  }

  @Override
  public long recordCount() {
    return starts.length;
  }

  @Override
  public int recordSize() {
    return recordSize;
  }

  /** Length of the longest line. */
  public int maxLineLength() {
    return maxLength;
  }

  /** The bytes of line {@code index + 1}, without terminator. */
  public byte[] line(long index) {
    check(index);
    byte[] b = new byte[lengths[(int) index]];
    window.read(starts[(int) index], b, 0, b.length);
    return b;
  }

  @Override
  public void read(long index, byte[] dst, int off) {
    check(index);
    int i = (int) index;
    int len = lengths[i];
    if (lineBuf.length < len) {
      lineBuf = new byte[Math.max(len, lineBuf.length * 2)];
    }
    window.read(starts[i], lineBuf, 0, len);
    LengthPrefix.write(lineBuf, 0, len, dst, off, recordSize, truncate,
        path + " line " + (index + 1));
  }

  private void check(long index) {
    if (index < 0 || index >= starts.length) {
      throw new IllegalArgumentException("record " + index + " out of range [0, " + starts.length
          + ")");
    }
  }

  @Override
  public void close() throws IOException {
    window.close();
  }
}
