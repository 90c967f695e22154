package org.jpir.spark;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Params;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.DatasetsCli;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.cli.PresetOption;
import org.jpir.datasets.cli.RecordSizePresetOption;
import org.jpir.spark.source.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Entry point for {@code spark-submit --class org.jpir.spark.PirJob} and {@code ./pir} (picocli):
 * {@code demo}, {@code demo-compact}, {@code answer}, {@code serve} ({@link ServerCommands}),
 * {@code setup}; {@code --help} on any of them lists its options (the client's commands are in
 * the pir-client module, with no Spark on its class path). Exit code 0 on success (for {@code
 * answer}: every query has an answer or an error file), 1 on a failed check, 2 on bad usage (an
 * unknown or missing option, a malformed value) or a job that cannot run (e.g. not enough executor
 * memory).
 */
@Command(name = "pir", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Private information retrieval on Spark.")
public final class PirJob implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command (demo,"
        + " demo-compact, answer, serve, setup)");
  }

  public static void main(String[] args) throws Exception {
    int code;
    try {
      code = run(args);
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("pir: " + e.getMessage());
      code = 2;
    }
    if (inYarnApplicationMaster()) {
      // YARN's application master reports success when main returns and a failure with the
      // exception's message when it throws; System.exit would read as "exited early"
      if (code == 0) {
        return;
      }
      throw new IllegalStateException("pir: the job ended with exit code " + code
          + " (its reason is in the driver's log above)");
    }
    System.exit(code);
  }

  /** True when this JVM is the driver of a YARN cluster-mode application (its AM container). */
  static boolean inYarnApplicationMaster() {
    return System.getenv("CONTAINER_ID") != null
        && "cluster".equals(System.getProperty("spark.submit.deployMode"));
  }

  /**
   * Runs a command; returns its exit code. Usage errors print the message and the usage and
   * return 2; errors of the work itself propagate to the caller ({@link #main} prints them).
   */
  static int run(String[] args) throws Exception {
    CommandLine cl = commandLine();
    Exception[] failed = {null};
    cl.setExecutionExceptionHandler((e, line, parsed) -> {
      if (DatasetsCli.isImportSource(line.getCommand())) {
        return DatasetsCli.failure(e, line); // as data import reports it
      }
      failed[0] = e;
      return 2;
    });
    int rc = cl.execute(args);
    if (failed[0] != null) {
      throw failed[0];
    }
    return rc;
  }

  /** The command tree (its commands print to {@link System#out} as it is now). */
  static CommandLine commandLine() {
    CommandLine setup = new CommandLine(new Setup()).addSubcommand(new TableImport.Args())
        .addSubcommand(new DatabaseUpdate(System.out));
    DatasetsCli.addImportSources(setup, System.out);
    return new CommandLine(new PirJob()).addSubcommand(new Demo())
        .addSubcommand(new DemoCompact()).addSubcommand(new ServerCommands.Answer())
        .addSubcommand(new ServerCommands.Serve()).addSubcommand(setup);
  }

  @Command(name = "demo", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "The main job in Spark local mode on a generated"
      + " database, every record checked (exit 1 otherwise).")
  static final class Demo implements Callable<Integer> {
    @Option(names = "--mib", description = "database size (default: ${DEFAULT-VALUE})")
    long mib = 64;

    @Option(names = "--record-size", description = "record size (default: ${DEFAULT-VALUE})")
    int recordSize = 1024;

    @Option(names = "--queries", description = "queries (default: ${DEFAULT-VALUE})")
    int queries = 6;

    @Option(names = "--batch", description = "queries per batch (default: ${DEFAULT-VALUE})")
    int batch = 3;

    @Option(names = "--partitions", description = "prepared partitions (default: planned)")
    int partitions;

    @Option(names = "--max-rows", description = "most rows (default: ${DEFAULT-VALUE})")
    int maxRows = 1024;

    @Mixin
    RecordSizePresetOption preset = new RecordSizePresetOption();

    @Option(names = "--seed", description = "database seed (default: ${DEFAULT-VALUE})")
    long seed = 2026;

    @Option(names = "--master", description = "Spark master (default: ${DEFAULT-VALUE})")
    String master = "local[2]";

    @Override
    public Integer call() throws Exception {
      Params p = preset.id() != null ? preset.given() : DemoJob.defaultPreset(recordSize);
      try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.conf("jpir demo", master))) {
        sc.setLogLevel("WARN");
        return DemoJob.run(sc, p, mib, recordSize, queries, batch, partitions, maxRows, seed)
            ? 0 : 1;
      }
    }
  }

  @Command(name = "demo-compact", mixinStandardHelpOptions = true,
      versionProvider = JpirVersion.class,
      description = "Compact queries on Spark, expansion on the"
      + " driver against the executors.")
  static final class DemoCompact implements Callable<Integer> {
    @Option(names = "--mib", description = "database size (default: ${DEFAULT-VALUE})")
    long mib = 64;

    @Option(names = "--queries", description = "queries (default: ${DEFAULT-VALUE})")
    int queries = 4;

    @Option(names = "--batch", description = "queries per batch (default: ${DEFAULT-VALUE})")
    int batch = 2;

    @Option(names = "--partitions", description = "partitions (default: 2 x parallelism)")
    int partitions;

    @Mixin
    PresetOption preset =
        new PresetOption(CompactParams.ONIONPIR_4096_COMPACT);

    @Option(names = "--master", description = "Spark master (default: ${DEFAULT-VALUE})")
    String master = "local[2]";

    @Option(names = "--reps", description = "repetitions (default: ${DEFAULT-VALUE})")
    int reps = 3;

    @Override
    public Integer call() throws Exception {
      CompactParams cp = preset.compact();
      try (JavaSparkContext sc = new JavaSparkContext(
          SparkSetup.conf("jpir compact demo", master))) {
        sc.setLogLevel("WARN");
        return CompactDemoJob.run(sc, cp, mib, queries, batch,
            partitions > 0 ? partitions : 2 * sc.defaultParallelism(), reps) ? 0 : 1;
      }
    }
  }

  /**
   * The import command: {@code setup table ...} (Parquet, CSV, JSON through Spark's DataFrame
   * readers: {@link TableImport}), {@code setup update ...} ({@link DatabaseUpdate}) or {@code
   * setup <source> ...} for the sources {@link DatasetsCli#addImportSources} adds, which {@code
   * data import <source>} runs too, as an alias that names this form.
   */
  @Command(name = "setup", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Import a source into a stored database (table:"
      + " through Spark's readers; update: a new data version; synthetic, lines, csv, tsv,"
      + " binary, wordlist: local sources, also under the alias data import).")
  static final class Setup implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      throw new CommandLine.ParameterException(spec.commandLine(), "missing source (table,"
          + " update, synthetic, lines, csv, tsv, binary, wordlist)");
    }
  }

  /**
   * A directory of the answer job: a local path as given (relative to the working directory),
   * or a URI with a scheme ({@code hdfs://nn/q}) through Hadoop's FileSystem.
   */
  static Storage storage(String spec) {
    return Storage.at(Storage.hasScheme(spec) ? spec
        : Path.of(spec).toAbsolutePath().toUri().toString());
  }

  /** Writes a small text file (summary, metrics) through {@link #storage}. */
  static void writeFile(String spec, String text) {
    Path name = Path.of(Storage.hasScheme(spec) ? URI.create(spec).getPath() : spec)
        .getFileName();
    String dir = spec.substring(0, spec.length() - name.toString().length());
    Storage st = storage(dir.isEmpty() ? "." : dir);
    st.write(name.toString(), text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The evaluation keys under {@code spec}: a local directory is read lazily (keys prepared on
   * first use); on another file system every {@code <client id>.evk} is read (bounded by {@link
   * Wire#maxEvaluationKeysBytes}) and registered at start.
   */
  static EvaluationKeyStore keyStore(CompactParams cp, String spec) {
    if (!Storage.hasScheme(spec) || spec.startsWith("file:")) {
      return new EvaluationKeyStore(cp, Storage.hasScheme(spec)
          ? Path.of(URI.create(spec)) : Path.of(spec));
    }
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    Storage dir = Storage.at(spec);
    for (String f : dir.list(".evk")) {
      String client = f.substring(0, f.length() - ".evk".length());
      store.register(client, dir.read(f, Wire.maxEvaluationKeysBytes(cp), "evaluation keys"));
    }
    for (String f : dir.list(".pack")) {
      store.registerPackingKey(f.substring(0, f.length() - ".pack".length()),
          dir.read(f, Wire.packingKeyBytes(cp.server(), PlanePacking.MAX_PLANES),
              "packing key"));
    }
    return store;
  }
}
