package org.jpir.datasets.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.jpir.core.params.Presets;
import org.jpir.datasets.store.StoredDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code data import} without {@code --preset}: the database's preset follows its record size
 * (N = 2048 up to 4 KiB, N = 4096 above), stored in the manifest and logged once with the
 * reason; an explicit {@code --preset} wins.
 */
class DefaultPresetTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return DatasetsCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** The preset id stored in the manifest of a synthetic import of 10 records of size bytes. */
  private String importedPreset(int size, String... extra) {
    Path db = dir.resolve("db-" + size + "-" + extra.length);
    List<String> args = new ArrayList<>(List.of("import", "synthetic", "--count", "10",
        "--record-size", Integer.toString(size), "--progress", "quiet", "--out", db.toString()));
    args.addAll(List.of(extra));
    assertEquals(0, run(args.toArray(String[]::new)), err.toString(StandardCharsets.UTF_8));
    return StoredDatabase.readManifest(db).presetId();
  }

  @Test
  void importWithoutPresetFollowsTheRecordSize() {
    String n2048 = Presets.ONIONPIR_2048_COMPACT.id();
    String n4096 = Presets.ONIONPIR_4096_COMPACT.id();
    assertEquals(n2048, importedPreset(1000));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("preset " + n2048
        + " (by the record size: " + Presets.recordSizeReason(1000) + ")"), out.toString());
    assertEquals(n2048, importedPreset(3072));
    assertEquals(n2048, importedPreset(Presets.N2048_MAX_RECORD));
    assertEquals(n4096, importedPreset(Presets.N2048_MAX_RECORD + 1));
    assertEquals(n4096, importedPreset(6000));
  }

  @Test
  void anExplicitPresetWins() {
    String n4096 = Presets.ONIONPIR_4096_COMPACT.id();
    assertEquals(n4096, importedPreset(1000, "--preset", n4096));
    assertTrue(!out.toString(StandardCharsets.UTF_8).contains("by the record size"),
        out.toString());
    assertEquals(Presets.ONIONPIR_2048_COMPACT.id(), importedPreset(6000, "--preset",
        Presets.ONIONPIR_2048_COMPACT.id()));
  }

  @Test
  void aKeywordTableFollowsItsBucketSize() throws Exception {
    Path tsv = dir.resolve("t.tsv");
    Files.writeString(tsv, "apple\tred\nbanana\tyellow\ncherry\tdark red\n");
    Path db = dir.resolve("kw");
    assertEquals(0, run("import", "tsv", "--in", tsv.toString(), "--keyword", "--record-size",
        "16", "--progress", "quiet", "--out", db.toString()), err.toString());
    try (StoredDatabase s = StoredDatabase.open(db)) {
      assertEquals(Presets.forRecordSize(s.recordSize()).id(), s.params().id(),
          "buckets of " + s.recordSize() + " bytes");
      assertEquals(Presets.ONIONPIR_2048_COMPACT, s.params());
    }
  }

  @Test
  void anUnknownPresetFailsBeforeTheRecordsAreRead() {
    // the file does not exist: the preset is refused first
    assertEquals(1, run("import", "binary", "--in", dir.resolve("absent.bin").toString(),
        "--record-size", "8", "--preset", "no-such-preset", "--out",
        dir.resolve("x").toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no-such-preset"), err.toString());
  }

  @Test
  void theChoiceIsLoggedOnceWithItsReason() {
    try (Capture log = new Capture()) {
      int size = 1237; // a size no other test chooses for
      assertEquals(Presets.ONIONPIR_2048_COMPACT, DefaultPreset.forRecordSize(size));
      assertEquals(Presets.ONIONPIR_2048_COMPACT, DefaultPreset.forRecordSize(size));
      List<String> lines = log.lines.stream()
          .filter(l -> l.contains(Presets.recordSizeReason(size))).toList();
      assertEquals(1, lines.size(), "logged once: " + log.lines);
      assertTrue(lines.get(0).startsWith("INFO preset " + Presets.ONIONPIR_2048_COMPACT.id()),
          lines.get(0));
    }
    assertEquals(Presets.ONIONPIR_4096_COMPACT, DefaultPreset.resolve(
        Presets.ONIONPIR_4096_COMPACT.id(), 1237));
  }

  @Test
  void theHelpTextNamesWhatForRecordSizeChooses() {
    String t = RecordSizePresetOption.DEFAULT_TEXT;
    assertTrue(t.contains(Presets.forRecordSize(1).id()), t);
    assertTrue(t.contains(Presets.forRecordSize(Presets.N2048_MAX_RECORD + 1).id()), t);
    assertTrue(t.contains(" " + Presets.N2048_MAX_RECORD + " bytes"), t);
    assertEquals(0, run("import", "synthetic", "--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ")
        .contains("by the record size"), out.toString());
  }

  /** Captures this JVM's log lines as "LEVEL message" while open. */
  static final class Capture extends AbstractAppender implements AutoCloseable {
    final List<String> lines = Collections.synchronizedList(new ArrayList<>());

    Capture() {
      super("jpir-default-preset-capture", null, null, false, Property.EMPTY_ARRAY);
      start();
      LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
      ctx.getConfiguration().getRootLogger().addAppender(this, Level.ALL, null);
      ctx.updateLoggers();
    }

    @Override
    public void append(LogEvent e) {
      lines.add(e.getLevel() + " " + e.getMessage().getFormattedMessage());
    }

    @Override
    public void close() {
      LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
      ctx.getConfiguration().getRootLogger().removeAppender(getName());
      ctx.updateLoggers();
      stop();
    }
  }
}
