package org.jpir.datasets.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
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
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseException;
import org.jpir.datasets.store.StoredDatabaseWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code data} command line (picocli): {@code import synthetic|lines|csv|tsv|binary|wordlist},
 * {@code manifest DIR}, {@code verify DIR}, {@code lookup DIR KEY}; {@code --help} on any of them
 * lists its options. {@code import} is the alias of {@code pir setup <source>}, the one import
 * command (spark-jobs' {@code PirJob}, which adds the Spark sources {@code table} and {@code
 * update}): the same sources ({@link #addImportSources}), and a one-line note on stderr. Exit codes: 0 ok, 1 a data or verification failure (message on stderr), 2
 * bad usage (an unknown or missing option, a malformed value), 3 a lookup of an absent key.
 */
@Command(name = "data", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Import record sources into the stored database format and inspect it.")
public final class DatasetsCli implements Callable<Integer> {
  /** What {@code data import} prints on stderr before it runs: the canonical form's name. */
  public static final String IMPORT_ALIAS_NOTE = "note: data import is an alias of the import"
      + " command ./pir setup <source> (same sources and options); use that form";

  private final PrintStream out;

  @Spec
  CommandSpec spec;

  private DatasetsCli(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "missing subcommand (import, manifest, verify, lookup)");
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs a subcommand; returns the exit code (see the class comment). {@code import} first prints
   * {@link #IMPORT_ALIAS_NOTE} on {@code err}.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 0 && "import".equals(args[0])) {
      err.println(IMPORT_ALIAS_NOTE);
    }
    CommandLine cl = commandLine(out);
    PrintWriter errw = new PrintWriter(err, true);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(errw);
    cl.setExecutionExceptionHandler((e, line, parsed) -> failure(e, line));
    int rc = cl.execute(args);
    out.flush();
    err.flush();
    return rc;
  }

  /**
   * The exit code of a failure of a data command's work: a stored-database, argument, state or
   * I/O error is reported as {@code error: MESSAGE} on {@code line}'s stderr and is exit code 1;
   * anything else is rethrown. Also for the import sources under another command ({@link
   * #addImportSources}).
   */
  public static int failure(Exception e, CommandLine line) throws Exception {
    if (e instanceof StoredDatabaseException || e instanceof IllegalArgumentException
        || e instanceof IllegalStateException || e instanceof IOException) {
      line.getErr().println("error: " + e.getMessage());
      line.getErr().flush();
      return 1;
    }
    throw e;
  }

  /** True when {@code command} is one of the import sources ({@link #addImportSources}). */
  public static boolean isImportSource(Object command) {
    return command instanceof Source;
  }

  /**
   * Adds the import sources (synthetic, lines, csv, tsv, binary, wordlist), printing to {@code
   * out}, as subcommands of {@code parent}: {@code setup} of {@code pir} (spark-jobs, the import
   * command) and its alias {@code data import}. Returns {@code parent}.
   */
  public static CommandLine addImportSources(CommandLine parent, PrintStream out) {
    parent.addSubcommand(new Synthetic(out)).addSubcommand(new Lines(out));
    for (Delimited d : new Delimited[] {new Delimited(out, true), new Delimited(out, false)}) {
      parent.addSubcommand(d.name(), d);
    }
    return parent.addSubcommand(new Binary(out)).addSubcommand(new Words(out));
  }

  /** The command tree, printing to {@code out}. */
  static CommandLine commandLine(PrintStream out) {
    CommandLine imp = addImportSources(new CommandLine(new ImportCmd()), out);
    return new CommandLine(new DatasetsCli(out)).addSubcommand(imp)
        .addSubcommand(new ManifestCmd(out)).addSubcommand(new VerifyCmd(out))
        .addSubcommand(new LookupCmd(out));
  }

  @Command(name = "import", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Alias of ./pir setup <source>, the import command: import a record source"
      + " into a stored database directory.")
  static final class ImportCmd implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "missing source type (synthetic, lines, csv, tsv, binary, wordlist)");
    }
  }

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

  @Command(name = "manifest", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Print a stored database's manifest.")
  static final class ManifestCmd implements Callable<Integer> {
    private final PrintStream out;

    @Parameters(paramLabel = "DIR", description = "the database directory")
    Path dir;

    ManifestCmd(PrintStream out) {
      this.out = out;
    }

    @Override
    public Integer call() throws IOException {
      out.print(StoredDatabase.readManifest(dir).toText());
      return 0;
    }
  }

  @Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Check every chunk's checksum; exit 1 naming the chunk on a failure.")
  static final class VerifyCmd implements Callable<Integer> {
    private final PrintStream out;

    @Parameters(paramLabel = "DIR", description = "the database directory")
    Path dir;

    VerifyCmd(PrintStream out) {
      this.out = out;
    }

    @Override
    public Integer call() throws IOException {
      try (StoredDatabase db = StoredDatabase.open(dir)) {
        long t0 = System.nanoTime();
        try {
          db.verify();
        } catch (StoredDatabaseException e) {
          throw new StoredDatabaseException("verify failed: " + e.getMessage());
        }
        double s = (System.nanoTime() - t0) / 1e9;
        out.printf("ok: %d chunks, %d bytes verified in %.2f s%n",
            db.manifest().chunks().size(), db.manifest().storedBytes(), s);
        return 0;
      }
    }
  }

  @Command(name = "lookup", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Plaintext-side keyword lookup (reads the candidate buckets directly, no"
          + " PIR): the value, or 'absent' with exit code 3.")
  static final class LookupCmd implements Callable<Integer> {
    private final PrintStream out;

    @Parameters(index = "0", paramLabel = "DIR", description = "the keyword database directory")
    Path dir;

    @Parameters(index = "1", paramLabel = "KEY", description = "the key")
    String key;

    LookupCmd(PrintStream out) {
      this.out = out;
    }

    @Override
    public Integer call() throws IOException {
      try (StoredDatabase db = StoredDatabase.open(dir)) {
        Optional<KeywordParams> kp = KeywordParams.fromManifest(db.manifest().extra());
        if (kp.isEmpty()) {
          throw new IllegalArgumentException(dir + " is not a keyword database");
        }
        Optional<byte[]> v = kp.get().lookup(key.getBytes(StandardCharsets.UTF_8), b -> {
          byte[] r = new byte[db.recordSize()];
          db.read(b, r, 0);
          return r;
        });
        out.println(v.isPresent() ? new String(v.get(), StandardCharsets.UTF_8) : "absent");
        return v.isPresent() ? 0 : 3;
      }
    }
  }
}
