package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command of {@code pir} rejects an unknown or missing option with exit code 2. */
class PirJobUsageTest {
  private static String[] captured = {""};

  private static int pir(String... args) throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      return PirJob.run(args);
    } finally {
      System.setErr(err);
      captured[0] = buf.toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void unknownOptionsAreUsageErrorsInEveryCommand() throws Exception {
    String[][] cmds = {{"demo"}, {"demo-compact"}, {"answer", "--db", "d", "--queries", "q",
        "--out", "a"}, {"serve", "--db", "d", "--queries", "q", "--out", "a"},
        {"setup", "table", "--format", "csv", "--path", "p",
        "--key-column", "k", "--value-column", "v", "--out", "o"},
        {"setup", "update", "--db", "d", "--updates", "u"},
        {"setup", "synthetic", "--count", "1", "--record-size", "8", "--out", "o"}};
    for (String[] c : cmds) {
      String[] bad = java.util.Arrays.copyOf(c, c.length + 2);
      bad[c.length] = "--bacth";
      bad[c.length + 1] = "4";
      assertEquals(2, pir(bad), String.join(" ", c));
      assertTrue(captured[0].contains("--bacth"), String.join(" ", c) + ": " + captured[0]);
    }
    assertEquals(2, pir("answer", "--db", "d", "--out", "a"));
    assertTrue(captured[0].contains("--queries"), captured[0]);
    assertEquals(2, pir("client", "keygen", "--out", "k"), "the client's commands are"
        + " pir-client's, not the Spark job's");
    assertEquals(2, pir("frobnicate"));
    assertEquals(2, pir());
    assertEquals(2, pir("setup"));
    assertTrue(captured[0].contains("missing source"), captured[0]);
  }

  @Test
  void setupsImportSourcesReportAFailedImportAsDataImportDoes(@TempDir Path dir)
      throws Exception {
    // a failure of the work (not of the usage): "error: ..." and exit code 1, as data import
    assertEquals(1, pir("setup", "synthetic", "--count", "8", "--record-size", "8", "--out",
        dir.resolve("db").toString(), "--preset", "no-such-preset", "--progress", "quiet"));
    assertTrue(captured[0].startsWith("error: ") && captured[0].contains("no-such-preset"),
        captured[0]);
  }
}
