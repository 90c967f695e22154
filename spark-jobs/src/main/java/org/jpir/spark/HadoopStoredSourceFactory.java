package org.jpir.spark;

import java.util.zip.CRC32C;
import org.jpir.core.Geometry;
import org.jpir.core.Params;
import org.jpir.core.PreparedDatabase;
import org.jpir.core.Presets;
import org.jpir.core.RecordSource;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabase;

/**
 * A stored database (datasets/FORMAT.md) read through Hadoop's FileSystem ({@link Storage}), so
 * the same URI ({@code hdfs://nn/db}, {@code s3a://bucket/db}, {@code file:///shared/db}) serves
 * the driver and every executor: each partition reads its manifest (at most {@link
 * Manifest#MAX_BYTES}) and only the chunks of its columns, each checked against the manifest's
 * length before it is allocated and against its CRC32C after it is read.
 */
public record HadoopStoredSourceFactory(String uri, int columnsPerChunk)
    implements RecordSourceFactory {

  /**
   * Reads and checks the manifest at {@code uri} (preset allowed, geometry valid for it, every
   * chunk present with the manifest's length).
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static Manifest manifest(String uri) {
    Storage dir = Storage.at(uri);
    if (!dir.isDirectory()) {
      throw new IllegalArgumentException("stored database " + uri + " is not a directory");
    }
    Manifest m;
    try {
      m = Manifest.parse(dir.read(Manifest.FILE, Manifest.MAX_BYTES, "manifest"), uri);
    } catch (org.jpir.datasets.store.StoredDatabaseException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
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
    Manifest m = manifest(uri);
    return load(m, 0, m.geometry().cols());
  }

  @Override
  public PreparedDatabase prepare(Params p, Geometry g, int first, int count) {
    Manifest m = manifest(uri);
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
    return "stored(" + uri + ")";
  }
}
