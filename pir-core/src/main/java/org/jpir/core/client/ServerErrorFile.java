package org.jpir.core.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.jpir.core.wire.SafeText;

/**
 * A server's {@code <id>.error} file as a client reads it: only a regular file (links are not
 * followed), at most {@value #MAX_BYTES} bytes of it, and its text escaped ({@link SafeText}), so
 * whatever the server wrote reaches the client's terminal as one line of printable ASCII of
 * bounded length.
 */
public final class ServerErrorFile {
  /** The most bytes of an error file a client reads; a server writes far fewer. */
  public static final int MAX_BYTES = 4096;

  private ServerErrorFile() {}

  /**
   * The text of the error file {@code f}: its first {@value #MAX_BYTES} bytes as UTF-8,
   * escaped, trailing line breaks dropped, followed by a note when the file holds more; a note
   * alone when {@code f} is not a regular file.
   *
   * @throws UncheckedIOException when it cannot be read
   */
  public static String read(Path f) {
    try {
      BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
      if (!a.isRegularFile()) {
        return "(the error file is not a regular file; not read)";
      }
      byte[] b;
      boolean more;
      try (InputStream in = Files.newInputStream(f, LinkOption.NOFOLLOW_LINKS)) {
        b = in.readNBytes(MAX_BYTES);
        more = in.read() >= 0;
      }
      int n = b.length;
      while (n > 0 && (b[n - 1] == '\n' || b[n - 1] == '\r')) {
        n--;
      }
      return SafeText.ofUtf8(b, n) + (more ? " ... (cut: the file holds more than " + MAX_BYTES
          + " bytes)" : "");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the error file "
          + SafeText.escape(String.valueOf(f.getFileName())), e);
    }
  }
}
