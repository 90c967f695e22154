package org.jpir.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.QueryIdMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code client verify} reads a server's error file with a bound and prints it escaped: a 1 MiB
 * error file full of terminal escape sequences reaches the terminal as one bounded line of
 * printable ASCII.
 */
class ClientVerifyErrorFileTest {
  static final Params P = Presets.TEST_INSECURE_256;
  /** The most bytes of an error file a client reads ({@code ServerErrorFile.MAX_BYTES}). */
  static final int BOUND = 4096;
  @TempDir Path dir;

  @Test
  void anOversizedErrorFileIsPrintedCutAndEscaped() throws Exception {
    Path key = dir.resolve("key.bin");
    assertEquals(0, ClientCli.run("keygen", "--preset", P.id(), "--out", key.toString()));
    QueryIdMap ids = new QueryIdMap();
    String id = ids.add(5, new SecureRandom());
    Path map = dir.resolve("ids.map");
    ids.save(map);
    Path answers = Files.createDirectories(dir.resolve("a"));
    // clear screen, set the window title, ring the bell, a forged line: 1 MiB of it
    String evil = "\u001b[2J\u001b]0;owned\u0007\r\nclient: verified 1 answers exact\n";
    Files.write(answers.resolve(id + ".error"), evil.repeat((1 << 20) / evil.length())
        .getBytes(StandardCharsets.UTF_8));
    Object[] r = ClientRun.client("verify", "--db", "synthetic:100x32", "--preset",
        P.id(), "--key", key.toString(), "--ids", map.toString(), "--answers",
        answers.toString());
    assertEquals(1, r[0], "an error file fails verify");
    List<String> lines = ((String) r[1]).lines().toList();
    assertEquals(2, lines.size(), "the error line and the summary: " + lines.size() + " lines");
    String shown = lines.get(0);
    assertTrue(shown.startsWith("client: query " + id + " has an error file: \\u001b[2J"),
        shown.substring(0, Math.min(200, shown.length())));
    assertTrue(shown.chars().allMatch(c -> c >= 0x20 && c < 0x7f), "printable ASCII only");
    assertTrue(shown.length() < 6 * BOUND + 200, "bounded: "
        + shown.length() + " characters");
    assertTrue(shown.endsWith("(cut: the file holds more than " + BOUND + " bytes)"), "says it is cut");
    assertTrue(lines.get(1).startsWith("client: verified 0 answers exact"), lines.get(1));
  }
}
