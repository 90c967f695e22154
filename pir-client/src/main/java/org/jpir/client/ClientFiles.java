package org.jpir.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.wire.Wire;

/** The client's local files: written atomically, answers read with a bound and unverified. */
public final class ClientFiles {
  private ClientFiles() {}

  /**
   * Writes {@code bytes} to {@code file} atomically (a temporary file in the same directory,
   * then a rename), creating the directory first: a reader sees the old file or the whole new one.
   */
  public static void write(Path file, byte[] bytes) throws IOException {
    Path target = file.toAbsolutePath();
    Files.createDirectories(target.getParent());
    Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
    try {
      Files.write(tmp, bytes);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * The record {@code index} from the server's answer file {@code answer}, read with the bound of
   * {@link PirQueryClient#maxAnswerBytes} and checked before it is decoded.
   *
   * @throws IllegalArgumentException when the file is too large, malformed or of another shape
   */
  public static byte[] decodeAnswer(PirQueryClient client, Path answer, long index) {
    return client.decodeMessage(Wire.readFile(answer, client.maxAnswerBytes(), "answer"), index);
  }

  /** The query id an answer or error file names: its file name without the extension. */
  public static String stem(Path file) {
    String n = file.getFileName().toString();
    int dot = n.lastIndexOf('.');
    return dot < 0 ? n : n.substring(0, dot);
  }
}
