package org.jpir.core.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpir.core.wire.Wire.WireException;

/** Reading untrusted message files and streams with a size limit, before any decoding. */
final class WireFiles {
  private WireFiles() {}

  /** {@link Wire#readFile}: a regular file of at most {@code maxBytes} bytes, else refused. */
  static byte[] readFile(Path f, long maxBytes, String what) {
    if (!Files.isRegularFile(f)) {
      throw new WireException(what + " " + f.getFileName() + " is not a regular file");
    }
    try (InputStream in = Files.newInputStream(f)) {
      long size = Files.size(f);
      if (size > maxBytes) {
        throw new WireException(what + " " + f.getFileName() + " has " + size
            + " bytes, more than the largest valid " + maxBytes);
      }
      return readBounded(in, maxBytes, what + " " + f.getFileName());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + " " + f.getFileName(), e);
    }
  }

  /** {@link Wire#readBounded}: the stream to its end, refusing more than {@code maxBytes}. */
  static byte[] readBounded(InputStream in, long maxBytes, String what) throws IOException {
    int cap = (int) Math.min(maxBytes, Integer.MAX_VALUE - 16);
    byte[] b = in.readNBytes(cap);
    if (b.length == cap && in.read() >= 0) {
      throw new WireException(what + " holds more than the largest valid " + maxBytes
          + " bytes");
    }
    return b;
  }
}
