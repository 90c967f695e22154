package org.jpir.datasets.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jpir.core.params.Presets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetsCliTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return DatasetsCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void unknownOptionsAndSubcommandsAreUsageErrors(@TempDir Path dir) {
    String db = dir.resolve("db").toString();
    assertEquals(2, run("import", "synthetic", "--count", "10", "--record-size", "8",
        "--out", db, "--colums-per-chunk", "2"));
    assertTrue(err().contains("--colums-per-chunk"), err());
    assertFalse(Files.exists(dir.resolve("db")), "nothing written on a usage error");
    assertEquals(2, run("import", "synthetic", "--record-size", "8", "--out", db));
    assertTrue(err().contains("--count"), err()); // a missing required option is named
    assertEquals(2, run("import", "parquet", "--in", "x", "--out", db));
    assertEquals(2, run("import", "synthetic", "--count", "ten", "--record-size", "8", "--out",
        db));
    assertEquals(2, run("import", "synthetic", "--count", "10", "--out", db));
    assertTrue(err().contains("needs --record-size"), err());
    assertEquals(2, run("frobnicate"));
    assertEquals(2, run());
  }

  @Test
  void importIsAnAliasThatNamesSetup(@TempDir Path dir) {
    assertEquals(0, run("import", "synthetic", "--count", "10", "--record-size", "8",
        "--progress", "quiet", "--out", dir.resolve("db").toString()), err());
    assertEquals(DatasetsCli.IMPORT_ALIAS_NOTE + System.lineSeparator(), err());
    assertTrue(err().contains("./pir setup <source>"), err());
    assertEquals(0, run("manifest", dir.resolve("db").toString()), err());
    assertEquals("", err(), "only the alias prints the note");
  }

  @Test
  void helpListsTheOptionsOfEachSubcommand() {
    assertEquals(0, run("import", "csv", "--help"));
    String help = out.toString(StandardCharsets.UTF_8);
    for (String o : new String[] {"--in", "--key-column", "--value-column", "--keyword",
        "--out", "--preset", "--progress"}) {
      assertTrue(help.contains(o), o + " missing from\n" + help);
    }
    assertEquals(0, run("--help"));
    for (String c : new String[] {"import", "manifest", "verify", "lookup"}) {
      assertTrue(out.toString(StandardCharsets.UTF_8).contains(c), c);
    }
  }

  @Test
  void importsAKeywordTableAndLooksUpPresentAndAbsentKeys(@TempDir Path dir) throws Exception {
    Path tsv = dir.resolve("t.tsv");
    Files.writeString(tsv, "apple\tred\nbanana\tyellow\ncherry\tdark red\n");
    String db = dir.resolve("db").toString();
    assertEquals(0, run("import", "tsv", "--in", tsv.toString(), "--keyword", "--record-size",
        "16", "--preset", Presets.DEFAULT.id(), "--progress", "quiet", "--out", db), err());
    assertEquals(0, run("lookup", db, "banana"), err());
    assertEquals("yellow", out.toString(StandardCharsets.UTF_8).trim());
    assertEquals(3, run("lookup", db, "durian"));
    assertEquals("absent", out.toString(StandardCharsets.UTF_8).trim());
    assertEquals(1, run("lookup", dir.resolve("nope").toString(), "x"));
    assertTrue(err().startsWith("error: "), err());
  }
}
