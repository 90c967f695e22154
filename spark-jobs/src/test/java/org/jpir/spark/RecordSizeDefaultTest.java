package org.jpir.spark;

import static org.jpir.spark.PirJobRun.pir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.datasets.cli.DatasetsCli;
import org.jpir.spark.source.DatabaseSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default preset follows the record (issue 41, item 4): a database without a preset of its
 * own gets {@link Presets#forRecordSize} (N = 2048 up to 4 KiB, else N = 4096), logged once with
 * the reason, and an explicit {@code --preset} wins (the client's side of it, {@code client
 * keygen --db}, is pir-client's KeyPresetTest).
 */
class RecordSizeDefaultTest {
  static final Params N2048 = Presets.ONIONPIR_2048_COMPACT;
  static final Params N4096 = Presets.ONIONPIR_4096_COMPACT;

  @TempDir Path dir;

  @Test
  void generatedDatabasesDefaultToTheRecordSizesPreset() {
    assertEquals(N2048, DatabaseSpec.parse("synthetic:100x1000").params(null));
    assertEquals(N2048, DatabaseSpec.parse("synthetic:100x3072").params(null));
    assertEquals(N2048, DatabaseSpec.parse("synthetic:100x4096").params(null));
    assertEquals(N4096, DatabaseSpec.parse("synthetic:100x4097").params(null));
    assertEquals(N4096, DatabaseSpec.parse("synthetic:100x6000").params(null));
    // the README's first command: ./pir demo, 1024-byte records unless --record-size
    assertEquals(N2048, DemoJob.defaultPreset(1024));
    assertEquals(N4096, DemoJob.defaultPreset(6000));
  }

  @Test
  void anExplicitPresetWins() {
    assertEquals(N4096, DatabaseSpec.parse("synthetic:100x1000").params(N4096.id()));
    assertEquals(N2048, DatabaseSpec.parse("synthetic:100x6000").params(N2048.id()));
  }

  @Test
  void aStoredDatabaseKeepsTheManifestsPreset() {
    // a database stored before the default changed: N = 4096 for 1000-byte records
    Path old = dir.resolve("old");
    assertEquals(0, DatasetsCli.run(new String[] {"import", "synthetic", "--count", "10",
        "--record-size", "1000", "--progress", "quiet", "--out", old.toString(), "--preset",
        N4096.id()}, System.out, System.err));
    assertEquals(N4096, DatabaseSpec.parse(old.toString()).params(null));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DatabaseSpec.parse(old.toString()).params(N2048.id()));
    assertTrue(e.getMessage().contains(N4096.id()) && e.getMessage().contains(N2048.id()),
        e.getMessage());
  }

  @Test
  void theChoiceIsLoggedOnceWithItsReason() {
    int size = 1239; // a record size no other test chooses for
    try (AnswerServiceTest.Capture log = new AnswerServiceTest.Capture()) {
      assertEquals(N2048, DatabaseSpec.parse("synthetic:5x" + size).params(null));
      assertEquals(N2048, DatabaseSpec.parse("synthetic:7x" + size).params(null));
      List<String> lines = log.lines.stream()
          .filter(l -> l.contains(Presets.recordSizeReason(size))).toList();
      assertEquals(1, lines.size(), "one line: " + log.lines);
      assertTrue(lines.get(0).contains("INFO preset " + N2048.id()), lines.get(0));
    }
  }

  @Test
  void theDemoRunsWithTheRecordSizesDefault() throws Exception {
    Object[] r = pir("demo", "--mib", "1", "--queries", "2", "--batch", "2", "--partitions", "2");
    String out = (String) r[1];
    assertEquals(0, r[0], out);
    assertTrue(out.contains("preset " + N2048.id()) && out.contains("ALL RECORDS CORRECT"), out);
  }
}
