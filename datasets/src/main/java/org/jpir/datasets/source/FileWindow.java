package org.jpir.datasets.source;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Positional reads through a 1 MiB window, so sequential record reads cost one system call per
 * window instead of one per record. Not thread-safe.
 */
final class FileWindow implements Closeable {
  private static final int WINDOW = 1 << 20;
  private final Path path;
  private final FileChannel ch;
  private final long size;
  private final byte[] buf = new byte[WINDOW];
  private long start = -1;
  private int len;

  FileWindow(Path path) throws IOException {
    this.path = path;
    this.ch = FileChannel.open(path, StandardOpenOption.READ);
    this.size = ch.size();
  }

  long size() {
    return size;
  }

  /** Copies file bytes {@code [pos, pos + n)} to {@code dst[off..]}. */
  void read(long pos, byte[] dst, int off, int n) {
    try {
      if (pos < 0 || pos + n > size) {
        throw new EOFException(path + ": read of " + n + " bytes at " + pos + " past the end ("
            + size + " bytes; was the file truncated?)");
      }
      if (n > WINDOW) {
        readFully(pos, ByteBuffer.wrap(dst, off, n));
        return;
      }
      if (start < 0 || pos < start || pos + n > start + len) {
        start = pos;
        len = (int) Math.min(WINDOW, size - pos);
        readFully(pos, ByteBuffer.wrap(buf, 0, len));
      }
      System.arraycopy(buf, (int) (pos - start), dst, off, n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void readFully(long pos, ByteBuffer bb) throws IOException {
    while (bb.hasRemaining()) {
      int r = ch.read(bb, pos);
      if (r < 0) {
        throw new EOFException(path + ": unexpected end of file at " + pos);
      }
      pos += r;
    }
  }

  @Override
  public void close() throws IOException {
    ch.close();
  }
}
