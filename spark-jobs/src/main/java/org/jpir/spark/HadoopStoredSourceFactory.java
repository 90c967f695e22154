package org.jpir.spark;

import java.util.zip.CRC32C;
import org.jpir.core.Geometry;
import org.jpir.core.Params;
import org.jpir.core.PreparedDatabase;
import org.jpir.core.Presets;
import org.jpir.core.RecordSource;
import org.jpir.datasets.store.Manifest;

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
  private ChunkRecords load(Manifest m, int first, int count) {
    Geometry g = m.geometry();
    if (first < 0 || count < 1 || first + count > g.cols()) {
      throw new IllegalArgumentException("column range [" + first + ", " + (first + count)
          + ") is not inside [0, " + g.cols() + ")");
    }
    Storage dir = Storage.at(uri);
    int k0 = m.chunkOfColumn(first);
    int k1 = m.chunkOfColumn(first + count - 1);
    byte[][] chunks = new byte[k1 - k0 + 1][];
    long[] firsts = new long[chunks.length];
    for (int k = k0; k <= k1; k++) {
      Manifest.Chunk c = m.chunks().get(k);
      byte[] b = dir.readExactly(c.file(), c.bytes(), "chunk");
      CRC32C crc = new CRC32C();
      crc.update(b);
      if ((int) crc.getValue() != c.crc32c()) {
        throw new IllegalStateException(uri + ": chunk " + c.file() + " is corrupted: CRC32C "
            + String.format("%08x", (int) crc.getValue()) + " but the manifest says "
            + String.format("%08x", c.crc32c()));
      }
      chunks[k - k0] = b;
      firsts[k - k0] = c.firstRecord();
    }
    return new ChunkRecords(g, Manifest.firstRecordOfColumn(g, first),
        Manifest.firstRecordOfColumn(g, first + count), chunks, firsts);
  }

  @Override
  public String describe() {
    return "stored(" + uri + ")";
  }

  /**
   * Records {@code [lo, hi)} from consecutive chunks in memory (record r of chunk k at byte
   * {@code (r - firsts[k]) * recordSize}), with the whole database's record count.
   */
  private record ChunkRecords(Geometry g, long lo, long hi, byte[][] chunks, long[] firsts)
      implements RecordSource {
    @Override
    public long recordCount() {
      return g.recordCount();
    }

    @Override
    public int recordSize() {
      return g.recordSize();
    }

    @Override
    public void read(long index, byte[] dst, int off) {
      if (index < lo || index >= hi) {
        throw new IllegalArgumentException("record " + index + " is outside the loaded records ["
            + lo + ", " + hi + ")");
      }
      int k = chunks.length - 1;
      while (firsts[k] > index) {
        k--;
      }
      System.arraycopy(chunks[k], (int) ((index - firsts[k]) * g.recordSize()), dst, off,
          g.recordSize());
    }
  }
}
