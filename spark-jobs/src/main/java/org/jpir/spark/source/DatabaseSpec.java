package org.jpir.spark.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.datasets.cli.DatabaseShape;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabase;

/**
 * A database named on the command line, and the geometry both client and server derive from it:
 * {@code synthetic:<count>x<recordSize>[:<seed>]} is the seeded synthetic generator (geometry
 * from {@link Geometry#choose}); a URI with a scheme ({@code hdfs://nn/db}, {@code file:/db}) is a
 * stored database read through Hadoop's FileSystem ({@link HadoopStoredSourceFactory}); any other
 * value is the local directory of a stored database. A stored database's manifest fixes the preset
 * and the geometry; a synthetic one's preset is the one asked for, else the record size's default
 * ({@link #params}).
 *
 * @param storedGeometry the manifest's geometry, null for synthetic databases
 * @param storedPreset the manifest's preset id, null for synthetic databases
 * @param manifestExtra the manifest's further lines (e.g. {@code keyword.*}), empty for synthetic
 *     databases
 */
public record DatabaseSpec(RecordSourceFactory factory, long count, int recordSize,
    Geometry storedGeometry, String storedPreset, Map<String, String> manifestExtra) {

  /** Parses a spec; the message names what is wrong. */
  public static DatabaseSpec parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("no database given (a stored database directory or"
          + " synthetic:<count>x<size>[:seed])");
    }
    if (spec.startsWith("synthetic:")) {
      DatabaseShape.Synthetic d = DatabaseShape.synthetic(spec);
      return new DatabaseSpec(new SyntheticSourceFactory(d.count(), d.recordSize(), d.seed()),
          d.count(), d.recordSize(), null, null, Map.of());
    }
    if (Storage.hasScheme(spec)) {
      // hdfs://, s3a://, file:/...: read through Hadoop's FileSystem on the driver and executors
      Manifest m;
      try {
        m = HadoopStoredSourceFactory.manifest(spec);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("unknown database '" + spec + "': not a stored"
            + " database readable through Hadoop's FileSystem (" + e.getMessage() + ")", e);
      }
      // pinned: a partition prepared again later reads the version the job started on
      return new DatabaseSpec(new HadoopStoredSourceFactory(spec, m.columnsPerChunk(),
          m.dataVersion()),
          m.geometry().recordCount(), m.geometry().recordSize(), m.geometry(), m.presetId(),
          m.extra());
    }
    Path dir = Path.of(spec);
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("unknown database '" + spec + "': not a directory"
          + " (a stored database) nor synthetic:<count>x<recordSize>[:seed]");
    }
    try (StoredDatabase db = StoredDatabase.open(dir)) {
      return new DatabaseSpec(new StoredSourceFactory(dir.toAbsolutePath().toString(),
          db.manifest().columnsPerChunk(), db.manifest().dataVersion()),
          db.recordCount(), db.recordSize(), db.geometry(), db.params().id(),
          db.manifest().extra());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot open stored database " + dir + ": " + e);
    }
  }

  /**
   * The preset: the manifest's for a stored database (a different {@code requested} id is an
   * error), else {@code requested}, else the default for this record size, logged once with the
   * reason ({@link DatabaseShape#params}, which the client uses too).
   */
  public Params params(String requested) {
    return DatabaseShape.params(storedPreset, requested, recordSize);
  }


  /** The geometry client and server agree on (a compact preset's own chooser for its server). */
  public Geometry geometry(Params p, int maxRows) {
    return DatabaseShape.geometry(storedGeometry, p, count, recordSize, maxRows);
  }

}
