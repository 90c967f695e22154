package org.jpir.core.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server's error file as a client shows it: bounded, escaped, links not followed. */
class ServerErrorFileTest {
  @TempDir Path dir;

  static boolean printableAscii(String s) {
    return s.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
  }

  @Test
  void anOrdinaryErrorFileReadsAsItsText() throws Exception {
    Path f = Files.writeString(dir.resolve("e.error"), "query e.query rejected: truncated\n");
    assertEquals("query e.query rejected: truncated", ServerErrorFile.read(f));
  }

  @Test
  void anOversizedErrorFileWithTerminalControlsIsCutAndEscaped() throws Exception {
    // 1 MiB of escape sequences (clear screen, set title, bell) and line breaks
    String evil = "\u001b[2J\u001b]0;owned\u0007\r\n".repeat(1 << 16);
    Path f = Files.write(dir.resolve("e.error"), evil.getBytes(StandardCharsets.UTF_8));
    String shown = ServerErrorFile.read(f);
    assertTrue(printableAscii(shown), "no control character reaches the terminal");
    assertTrue(shown.length() <= 6 * ServerErrorFile.MAX_BYTES + 100, "bounded: "
        + shown.length());
    assertTrue(shown.startsWith("\\u001b[2J") && shown.contains("cut"), shown.substring(0, 40));
  }

  @Test
  void aLinkIsNotFollowed(@TempDir Path outside) throws Exception {
    Path secret = Files.writeString(outside.resolve("secret"), "the client's own secret");
    Path link = Files.createSymbolicLink(dir.resolve("l.error"), secret);
    String shown = ServerErrorFile.read(link);
    assertTrue(shown.contains("not a regular file") && !shown.contains("secret"), shown);
  }
}
