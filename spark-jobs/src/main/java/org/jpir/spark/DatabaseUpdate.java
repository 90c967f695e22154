package org.jpir.spark;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.store.DatabaseFiles;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabaseException;
import org.jpir.datasets.store.StoredDatabaseUpdater;
import org.jpir.datasets.store.UpdateFile;
import org.jpir.spark.source.Storage;

/**
 * {@code setup update --db DIR --updates FILE}: applies an update file ({@link UpdateFile}: lines
 * {@code put INDEX hex:..|base64:..} and {@code delete INDEX}) to a stored database as its next
 * data version ({@link StoredDatabaseUpdater}). DIR is a local directory or a Hadoop FileSystem
 * URI ({@code hdfs://nn/db}); FILE is local. A refused file or update writes nothing.
 */
@picocli.CommandLine.Command(name = "update", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class,
    description = "Apply an update file (put INDEX"
    + " hex:..|base64:.., delete INDEX) as the database's next data version.")
public final class DatabaseUpdate implements Callable<Integer> {
  @picocli.CommandLine.Option(names = "--db", required = true,
      description = "the stored database (a directory or a Hadoop FileSystem URI)")
  String db;

  @picocli.CommandLine.Option(names = "--updates", required = true,
      description = "the update file (local)")
  Path updates;

  private final PrintStream out;

  /** {@code setup update}, printing its summary to {@code out}. */
  DatabaseUpdate(PrintStream out) {
    this.out = out;
  }

  /**
   * The options of {@code setup update} parsed from {@code options} (the words after {@code
   * setup update}), printing to {@code out}.
   *
   * @throws picocli.CommandLine.ParameterException on an unknown or missing option
   */
  static DatabaseUpdate parse(PrintStream out, String... options) {
    DatabaseUpdate u = new DatabaseUpdate(out);
    new picocli.CommandLine(u).parseArgs(options);
    return u;
  }

  /**
   * Applies the update; returns the exit status; a refused update is an {@link
   * IllegalArgumentException} naming the problem.
   */
  @Override
  public Integer call() throws IOException {
    return apply(out);
  }

  /** Applies the update these options name; returns the exit status. */
  int apply(PrintStream out) throws IOException {
    try {
      return run(out);
    } catch (StoredDatabaseException e) {
      throw new IllegalArgumentException("setup update: " + e.getMessage() + " (nothing changed)",
          e);
    }
  }

  private int run(PrintStream out) throws IOException {
    Storage dir = PirJob.storage(db);
    if (!dir.isDirectory()) {
      throw new IllegalArgumentException("setup update: --db " + db + " is not a directory");
    }
    DatabaseFiles files = dir.databaseFiles();
    long t0 = System.nanoTime();
    Manifest m = StoredDatabaseUpdater.current(files);
    Path f = updates;
    if (!Files.isRegularFile(f)) {
      throw new IllegalArgumentException("setup update: --updates " + f
          + " is not a regular file");
    }
    UpdateFile u;
    try (Reader r = new InputStreamReader(Files.newInputStream(f), StandardCharsets.UTF_8
        .newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT))) {
      u = UpdateFile.parse(r, f.toString(), m.geometry().recordSize());
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("setup update: " + f + " is not UTF-8 text", e);
    }
    StoredDatabaseUpdater.Result res = StoredDatabaseUpdater.apply(files, u);
    out.println(String.format(Locale.ROOT, "update: %s data version %d -> %d: %d operations,"
        + " %d of %d chunks rewritten (%.1f MiB), %d records, in %.2f s", db,
        res.before().dataVersion(), res.after().dataVersion(), res.operations(),
        res.rewrittenChunks().size(), res.after().chunks().size(), res.bytesWritten() / 1048576.0,
        res.after().geometry().recordCount(), (System.nanoTime() - t0) / 1e9));
    return 0;
  }
}
