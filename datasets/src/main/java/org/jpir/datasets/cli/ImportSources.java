package org.jpir.datasets.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.RecordSource;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.datasets.KeyValueSource;
import org.jpir.datasets.keyword.KeywordParams;
import org.jpir.datasets.keyword.KeywordTable;
import org.jpir.datasets.progress.Progress;
import org.jpir.datasets.source.DelimitedRecords;
import org.jpir.datasets.source.FixedSizeRecords;
import org.jpir.datasets.source.LineRecords;
import org.jpir.datasets.source.WordList;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabaseWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The import sources of {@code pir setup <source>} and its alias {@code data import}: one
 * subcommand per source (synthetic, lines, csv, tsv, binary, wordlist) over one shared import
 * into the stored database format ({@link StoredDatabaseWriter}).
 */
final class ImportSources {
  private ImportSources() {}

  /** Options every import shares. */
  static final class Common {
    @Option(names = "--out", required = true, description = "the database directory to write")
    Path out;

    @Mixin
    RecordSizePresetOption preset = new RecordSizePresetOption();

    @Option(names = "--max-rows", description = "most rows of the grid (default: ${DEFAULT-VALUE})")
    int maxRows = 1024;

    @Option(names = "--columns-per-chunk",
        description = "columns per chunk file, a power of two (default: chunks of at most 64 MiB)")
    int columnsPerChunk;

    @Option(names = "--record-size", description = "record size in bytes (keyword tables: the"
        + " value field's)")
    int recordSize;

    @Option(names = "--progress", description = "auto, bar, lines or quiet (default: auto, a bar"
        + " on a terminal, else quiet)")
    String progress = "auto";

    @Option(names = "--keyword-seed", description = "seed of the keyword table's hashes (default:"
        + " ${DEFAULT-VALUE})")
    long keywordSeed = 1;
  }

  /** What a source subcommand opened: the records, what to close, a description. */
  private record Opened(RecordSource src, Closeable toClose, String desc) {}

  /** A source subcommand: opens its records, then the shared import runs. */
  abstract static class Source implements Callable<Integer> {
    final PrintStream out;

    @Spec
    CommandSpec spec;

    @Mixin
    Common common;

    Source(PrintStream out) {
      this.out = out;
    }

    /** Opens the records; manifest entries the source needs (keyword parameters) into extra. */
    abstract Opened open(Map<String, String> extra) throws IOException;

    @Override
    public Integer call() throws IOException {
      Params given = common.preset.given(); // an unknown or refused id fails before reading
      Progress.Mode progress = Progress.Mode.parse(common.progress);
      long t0 = System.nanoTime();
      Map<String, String> extra = new LinkedHashMap<>();
      Opened o = open(extra);
      try {
        RecordSource src = o.src();
        // without --preset the records choose it (keyword tables: the bucket's size)
        Params p = given != null ? given : DefaultPreset.forRecordSize(src.recordSize());
        Geometry g = Presets.geometry(p, src.recordCount(), src.recordSize(), common.maxRows);
        out.printf("importing %s: %d records of %d bytes (%.1f MiB) -> %s, preset %s%s, %d rows"
            + " x %d cols x %d planes, %d records per polynomial%n", o.desc(), g.recordCount(),
            g.recordSize(), g.rawBytes() / 1048576.0, common.out, p.id(), given != null ? ""
            : " (by the record size: " + Presets.recordSizeReason(src.recordSize()) + ")",
            g.rows(), g.cols(), g.planes(), g.recordsPerPoly());
        long tw = System.nanoTime();
        Manifest m;
        try (Progress bar = Progress.start("import", g.rawBytes(), "MiB", 1 << 20, progress,
            out)) {
          m = StoredDatabaseWriter.write(common.out, p, g, src, common.columnsPerChunk,
              o.desc(), extra,
              (done, total) -> bar.stepTo(done * g.rawBytes() / Math.max(1, total)));
        }
        double write = (System.nanoTime() - tw) / 1e9;
        double all = (System.nanoTime() - t0) / 1e9;
        out.printf("wrote %d chunks (%d columns each), %d bytes stored for %d raw record bytes;"
            + " write %.2f s = %.1f MB/s (total with indexing %.2f s)%n", m.chunks().size(),
            m.columnsPerChunk(), m.storedBytes(), g.rawBytes(), write,
            g.rawBytes() / 1e6 / write, all);
        return 0;
      } finally {
        if (o.toClose() != null) {
          o.toClose().close();
        }
      }
    }

    /** A cuckoo keyword table over {@code kv} (bucket = record), its parameters into extra. */
    RecordSource keyword(KeyValueSource kv, boolean truncate, Map<String, String> extra) {
      KeywordTable t = KeywordTable.build(kv, KeywordTable.Options.defaults(common.keywordSeed)
          .withValueField(common.recordSize, truncate));
      KeywordParams kp = t.params();
      extra.putAll(kp.toManifest());
      out.printf("keyword table: %d entries in %d buckets of %d slot(s) x %d bytes (key field"
          + " %d, value field %d), %d choices = %d PIR retrievals per lookup, stash %d, space"
          + " overhead %.2fx of raw entry bytes%n", kp.entries(), kp.buckets(),
          kp.slotsPerBucket(), kp.slotBytes(), kp.keyField(), kp.valueField(), kp.choices(),
          kp.retrievalsPerLookup(), t.stashSize(), t.spaceOverhead());
      return t;
    }

    int requireRecordSize(String what) {
      if (common.recordSize < 1) {
        throw new CommandLine.ParameterException(spec.commandLine(), what
            + " needs --record-size");
      }
      return common.recordSize;
    }
  }

  @Command(name = "synthetic", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Pseudorandom records from a seed (the server can regenerate them).")
  static final class Synthetic extends Source {
    @Option(names = "--count", required = true, description = "number of records")
    long count;

    @Option(names = "--seed", description = "generator seed (default: ${DEFAULT-VALUE})")
    long seed = 1;

    Synthetic(PrintStream out) {
      super(out);
    }

    @Override
    Opened open(Map<String, String> extra) {
      int size = requireRecordSize("synthetic");
      return new Opened(new SyntheticRecords(count, size, seed), null,
          "synthetic count=" + count + " size=" + size + " seed=" + seed);
    }
  }

  @Command(name = "lines", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "One record per line of a text file.")
  static final class Lines extends Source {
    @Option(names = "--in", required = true, description = "the text file")
    Path in;

    @Option(names = "--truncate", description = "cut lines longer than the record size")
    boolean truncate;

    Lines(PrintStream out) {
      super(out);
    }

    @Override
    Opened open(Map<String, String> extra) throws IOException {
      LineRecords l = LineRecords.open(in, common.recordSize, truncate);
      return new Opened(l, l, "lines " + in);
    }
  }

  @Command(mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Index (or, with --keyword, key) and value columns of a delimited file.")
  static final class Delimited extends Source {
    private final boolean csv;

    @Option(names = "--in", required = true, description = "the delimited file")
    Path in;

    @Option(names = "--key-column", description = "the key or index column (default:"
        + " ${DEFAULT-VALUE})")
    int keyColumn;

    @Option(names = "--value-column", description = "the value column (default:"
        + " ${DEFAULT-VALUE})")
    int valueColumn = 1;

    @Option(names = "--header", description = "skip the first line")
    boolean header;

    @Option(names = "--truncate", description = "cut values longer than the record size")
    boolean truncate;

    @Option(names = "--keyword", description = "a keyword table over the key column")
    boolean keyword;

    Delimited(PrintStream out, boolean csv) {
      super(out);
      this.csv = csv;
    }

    /** Registered as {@code csv} and {@code tsv}. */
    String name() {
      return csv ? "csv" : "tsv";
    }

    @Override
    Opened open(Map<String, String> extra) throws IOException {
      DelimitedRecords d = DelimitedRecords.open(in, csv, header, keyColumn, valueColumn,
          keyword ? 0 : common.recordSize, truncate);
      RecordSource src = keyword ? keyword(d, truncate, extra) : d;
      return new Opened(src, d, name() + " " + in + (keyword ? " keyword" : ""));
    }
  }

  @Command(name = "binary", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Fixed-size records cut from a binary file.")
  static final class Binary extends Source {
    @Option(names = "--in", required = true, description = "the binary file")
    Path in;

    Binary(PrintStream out) {
      super(out);
    }

    @Override
    Opened open(Map<String, String> extra) throws IOException {
      FixedSizeRecords f = FixedSizeRecords.open(in, requireRecordSize("binary"));
      return new Opened(f, f, "binary " + in);
    }
  }

  @Command(name = "wordlist", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "A keyword table over a word list (see datasets/fetch-wordlist.sh).")
  static final class Words extends Source {
    @Option(names = "--in", required = true, description = "the word list")
    Path in;

    @Option(names = "--truncate", description = "cut values longer than the value field")
    boolean truncate;

    Words(PrintStream out) {
      super(out);
    }

    @Override
    Opened open(Map<String, String> extra) throws IOException {
      WordList w = WordList.open(in);
      return new Opened(keyword(w, truncate, extra), w, "wordlist " + in);
    }
  }
}
