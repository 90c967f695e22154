package org.jpir.datasets.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jpir.datasets.keyword.KeywordParams;
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code data} command line (picocli): {@code import synthetic|lines|csv|tsv|binary|wordlist},
 * {@code manifest DIR}, {@code verify DIR}, {@code lookup DIR KEY}; {@code --help} on any of them
 * lists its options. {@code import} is the alias of {@code pir setup <source>}, the one import
 * command (spark-jobs' {@code PirJob}, which adds the Spark sources {@code table} and {@code
 * update}): the same sources ({@link #addImportSources}), and a one-line note on stderr. Exit
 * codes: 0 ok, 1 a data or verification failure (message on stderr), 2
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
    return command instanceof ImportSources.Source;
  }

  /**
   * Adds the import sources (synthetic, lines, csv, tsv, binary, wordlist), printing to {@code
   * out}, as subcommands of {@code parent}: {@code setup} of {@code pir} (spark-jobs, the import
   * command) and its alias {@code data import}. Returns {@code parent}.
   */
  public static CommandLine addImportSources(CommandLine parent, PrintStream out) {
    parent.addSubcommand(new ImportSources.Synthetic(out))
        .addSubcommand(new ImportSources.Lines(out));
    for (boolean csv : new boolean[] {true, false}) {
      ImportSources.Delimited d = new ImportSources.Delimited(out, csv);
      parent.addSubcommand(d.name(), d);
    }
    return parent.addSubcommand(new ImportSources.Binary(out))
        .addSubcommand(new ImportSources.Words(out));
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
