package org.jpir.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.jpir.core.params.Presets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's command line keeps the launcher's contract: bad usage is exit code 2 with the
 * option named, refused input is an IllegalArgumentException naming what to give instead.
 */
class ClientUsageTest {
  @TempDir Path dir;

  /** Runs a client command with stderr captured; returns its exit code and stderr. */
  private static Object[] run(String... args) throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      return new Object[] {ClientCli.run(args), buf.toString(StandardCharsets.UTF_8)};
    } finally {
      System.setErr(err);
    }
  }

  @Test
  void badUsageIsExitCode2NamingTheOption() throws Exception {
    String[][] cmds = {{"keygen", "--out", "k"}, {"query", "--db", "d", "--key", "k", "--ids",
        "m", "--out", "q"}, {"verify", "--db", "d", "--key", "k", "--ids", "m", "--answers",
        "a"}};
    for (String[] c : cmds) {
      String[] bad = Arrays.copyOf(c, c.length + 2);
      bad[c.length] = "--bacth";
      bad[c.length + 1] = "4";
      Object[] r = run(bad);
      assertEquals(2, r[0], String.join(" ", c));
      assertTrue(((String) r[1]).contains("--bacth"), String.join(" ", c) + ": " + r[1]);
    }
    assertEquals(2, run("query", "--db", "d", "--key", "k", "--ids", "m", "--out", "q",
        "--random", "many")[0]);
    Object[] none = run();
    assertEquals(2, none[0]);
    assertTrue(((String) none[1]).contains("missing client command"), (String) none[1]);
  }

  @Test
  void aCompactQueryWithoutUploadedKeysIsRefused() throws Exception {
    Path key = dir.resolve("key.bin");
    String db = "synthetic:50x100";
    assertEquals(0, ClientCli.run("keygen", "--db", db, "--preset",
        Presets.TEST_INSECURE_256_COMPACT.id(), "--out", key.toString()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ClientCli.run("query", "--db", db, "--preset",
            Presets.TEST_INSECURE_256_COMPACT.id(), "--key", key.toString(), "--client-id", "c1",
            "--index", "3", "--ids", dir.resolve("ids.map").toString(), "--out",
            dir.resolve("q").toString()));
    assertTrue(e.getMessage().contains("--evk FILE (made by client evk)"), e.getMessage());
  }
}
