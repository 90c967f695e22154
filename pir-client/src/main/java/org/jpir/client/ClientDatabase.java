package org.jpir.client;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.server.RecordSource;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.datasets.cli.DatabaseShape;
import org.jpir.datasets.keyword.KeywordParams;
import org.jpir.datasets.store.StoredDatabase;

/**
 * The database a client names with {@code --db}, as far as a client needs it: its preset and
 * geometry (which the server derives the same way), its keyword parameters and, for {@code
 * verify}, its records. {@code synthetic:<count>x<recordSize>[:<seed>]} is the seeded synthetic
 * generator; a local directory (or a {@code file:} URI) is a stored database. A client reads local
 * files only: a database on HDFS or an object store is copied to a local directory first.
 *
 * @param spec the value given, for messages
 * @param directory the stored database's directory, null for a synthetic one
 * @param count the number of records
 * @param recordSize the bytes per record
 * @param seed the synthetic generator's seed (unused for a stored database)
 * @param storedGeometry the manifest's geometry, null for a synthetic database
 * @param storedPreset the manifest's preset id, null for a synthetic database
 * @param manifestExtra the manifest's further lines (e.g. {@code keyword.*}), empty for synthetic
 */
public record ClientDatabase(String spec, Path directory, long count, int recordSize, long seed,
    Geometry storedGeometry, String storedPreset, Map<String, String> manifestExtra) {

  /**
   * Parses {@code --db}; the message names what is wrong.
   *
   * @throws IllegalArgumentException for a malformed synthetic spec, a URI of a remote file
   *     system, or a directory that is not a readable stored database
   */
  public static ClientDatabase parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("no database given (a stored database directory or"
          + " synthetic:<count>x<size>[:seed])");
    }
    if (spec.startsWith("synthetic:")) {
      return synthetic(spec);
    }
    return stored(spec, localDirectory(spec));
  }

  private static ClientDatabase synthetic(String spec) {
    DatabaseShape.Synthetic d = DatabaseShape.synthetic(spec);
    return new ClientDatabase(spec, null, d.count(), d.recordSize(), d.seed(), null, null,
        Map.of());
  }


  /** The local directory {@code spec} names: a path, or a {@code file:} URI. */
  private static Path localDirectory(String spec) {
    if (spec.matches("^[A-Za-z][A-Za-z0-9+.-]*:/.*")) {
      if (!spec.startsWith("file:")) {
        throw new IllegalArgumentException("database '" + spec + "': the client reads local"
            + " files only; copy the stored database to a local directory and give that");
      }
      return Path.of(URI.create(spec));
    }
    return Path.of(spec);
  }

  private static ClientDatabase stored(String spec, Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("unknown database '" + spec + "': not a directory"
          + " (a stored database) nor synthetic:<count>x<recordSize>[:seed]");
    }
    try (StoredDatabase db = StoredDatabase.open(dir)) {
      return new ClientDatabase(spec, dir.toAbsolutePath(), db.recordCount(), db.recordSize(),
          0, db.geometry(), db.params().id(), db.manifest().extra());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot open stored database " + dir + ": " + e);
    }
  }

  /**
   * The preset: the manifest's for a stored database (a different {@code requested} id is an
   * error), else {@code requested}, else the record size's default ({@link DatabaseShape#params}).
   */
  public Params params(String requested) {
    return DatabaseShape.params(storedPreset, requested, recordSize);
  }


  /** The geometry client and server agree on: the manifest's, else the preset's chooser. */
  public Geometry geometry(Params p, int maxRows) {
    return DatabaseShape.geometry(storedGeometry, p, count, recordSize, maxRows);
  }


  /** The keyword parameters of a keyword database (imported with {@code --keyword}), if any. */
  public Optional<KeywordParams> keywordParams() {
    return KeywordParams.fromManifest(manifestExtra);
  }

  /** The records themselves (what {@code verify} compares answers with); close it after use. */
  public RecordSource records() {
    return directory != null ? StoredDatabase.open(directory)
        : new SyntheticRecords(count, recordSize, seed);
  }
}
