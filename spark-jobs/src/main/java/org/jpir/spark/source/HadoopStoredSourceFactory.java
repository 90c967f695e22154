package org.jpir.spark.source;

import java.util.zip.CRC32C;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.RecordSource;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseException;

/**
 * A stored database (datasets/FORMAT.md) read through Hadoop's FileSystem ({@link Storage}), so
 * the same URI ({@code hdfs://nn/db}, {@code s3a://bucket/db}, {@code file:///shared/db}) serves
 * the driver and every executor: each partition reads its manifest (at most {@link
 * Manifest#MAX_BYTES}) and only the chunks of its columns, each checked against the manifest's
 * length before it is allocated and against its CRC32C after it is read. {@code dataVersion > 0}
 * pins the factory to that data version (a partition lost and prepared again reads the same
 * version after an update); 0 reads the current version each time.
 */
public record HadoopStoredSourceFactory(String uri, int columnsPerChunk, int dataVersion)
    implements RecordSourceFactory {

  /** A factory reading the current data version. */
  public HadoopStoredSourceFactory(String uri, int columnsPerChunk) {
    this(uri, columnsPerChunk, 0);
  }

  /** The current data version of the database at {@code uri} (its highest manifest file). */
  public static int currentVersion(String uri) {
    String name = Manifest.currentFile(Storage.at(uri).list(".txt"));
    if (name == null) {
      throw new IllegalArgumentException(uri + ": no " + Manifest.FILE
          + " (not a stored database, or an incomplete write)");
    }
    return Manifest.versionOfFile(name);
  }

  /**
   * Reads and checks the manifest at {@code uri} (preset allowed, geometry valid for it, every
   * chunk present with the manifest's length).
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static Manifest manifest(String uri) {
    return manifest(uri, 0);
  }

  /** {@link #manifest(String)} of data version {@code version} ({@code <= 0}: the current one). */
  public static Manifest manifest(String uri, int version) {
    Storage dir = Storage.at(uri);
    if (!dir.isDirectory()) {
      throw new IllegalArgumentException("stored database " + uri + " is not a directory");
    }
    int v = version > 0 ? version : currentVersion(uri);
    Manifest m;
    try {
      m = Manifest.parse(dir.read(Manifest.fileOf(v), Manifest.MAX_BYTES, "manifest"), uri);
    } catch (StoredDatabaseException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (m.dataVersion() != v) {
      throw new IllegalArgumentException(uri + ": " + Manifest.fileOf(v) + " says data.version="
          + m.dataVersion() + " (renamed or copied from another version)");
    }
    Params p;
    try {
      p = Presets.byId(m.presetId());
      m.geometry().checkPrecision(p);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(uri + ": manifest preset or geometry refused: "
          + e.getMessage(), e);
    }
    if (m.geometry().polyBytes() != p.bytesPerPolynomial()) {
      throw new IllegalArgumentException(uri + ": geometry has " + m.geometry().polyBytes()
          + " bytes per polynomial but preset " + p.id() + " has " + p.bytesPerPolynomial());
    }
    for (Manifest.Chunk c : m.chunks()) {
      long len = dir.length(c.file());
      if (len != c.bytes()) {
        throw new IllegalArgumentException(uri + ": chunk " + c.file() + " is " + (len < 0
            ? "missing or not a regular file" : len + " bytes") + " but the manifest says "
            + c.bytes());
      }
    }
    return m;
  }

  @Override
  public int storageChunk() {
    return columnsPerChunk;
  }

  @Override
  public RecordSource open() {
    Manifest m = manifest(uri, dataVersion);
    return load(m, 0, m.geometry().cols());
  }

  @Override
  public PreparedDatabase prepare(Params p, Geometry g, int first, int count) {
    Manifest m = manifest(uri, dataVersion);
    if (!m.geometry().equals(g) || !m.presetId().equals(p.id())) {
      throw new IllegalStateException("stored database " + uri + " has preset " + m.presetId()
          + " and geometry " + m.geometry() + ", the job expects " + p.id() + " and " + g);
    }
    return PreparedDatabase.prepare(p, g, load(m, first, count), first, count, null);
  }

  /** The records of columns [first, first + count): their chunks, read and verified. */
  private RecordSource load(Manifest m, int first, int count) {
    Storage dir = Storage.at(uri);
    return StoredDatabase.loadColumns(m, first, count, k -> {
      Manifest.Chunk c = m.chunks().get(k);
      byte[] b = dir.readExactly(c.file(), c.bytes(), "chunk");
      CRC32C crc = new CRC32C();
      crc.update(b);
      if ((int) crc.getValue() != c.crc32c()) {
        throw new IllegalStateException(uri + ": chunk " + c.file() + " is corrupted: CRC32C "
            + String.format("%08x", (int) crc.getValue()) + " but the manifest says "
            + String.format("%08x", c.crc32c()));
      }
      return b;
    });
  }

  @Override
  public String describe() {
    return "stored(" + uri + (dataVersion > 0 ? " v" + dataVersion : "") + ")";
  }
}
