package org.jpir.datasets.store;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.RecordSource;

/**
 * A stored database opened for reading. Opening parses and checks the manifest (format, version,
 * its own checksum, preset, geometry, chunk layout) and every chunk file's length. Chunk contents
 * are verified against their CRC32C before any of their bytes are returned: {@link
 * #loadColumns} verifies the chunks it reads; {@link #read} verifies a chunk on its first access;
 * {@link #verify} checks every chunk. A failure throws {@link StoredDatabaseException} naming the
 * chunk. Thread-safe.
 */
public final class StoredDatabase implements RecordSource, Closeable {
  private final Path dir;
  private final Manifest manifest;
  private final Params params;
  private final FileChannel[] channels;
  private final boolean[] verified;

  private StoredDatabase(Path dir, Manifest manifest, Params params) {
    this.dir = dir;
    this.manifest = manifest;
    this.params = params;
    this.channels = new FileChannel[manifest.chunks().size()];
    this.verified = new boolean[manifest.chunks().size()];
  }

  /** Opens the database in {@code dir}. */
  public static StoredDatabase open(Path dir) {
    return open(dir, null);
  }

  /**
   * Opens the database in {@code dir}, checking it was built for {@code expected} (null: any
   * preset).
   */
  public static StoredDatabase open(Path dir, Params expected) {
    return open(dir, expected, 0);
  }

  /**
   * Opens data version {@code dataVersion} of the database in {@code dir} ({@code <= 0}: the
   * current one), checking it was built for {@code expected} (null: any preset). An open database
   * keeps reading its version's files, also after an update made a newer version current.
   */
  public static StoredDatabase open(Path dir, Params expected, int dataVersion) {
    Manifest m = dataVersion <= 0 ? readManifest(dir) : readManifest(dir, dataVersion);
    Params p;
    try {
      p = Presets.byId(m.presetId());
    } catch (IllegalArgumentException e) {
      throw new StoredDatabaseException(dir + ": manifest preset '"
          + Manifest.printable(String.valueOf(m.presetId())) + "' is refused: " + e.getMessage(),
          e);
    }
    try {
      m.geometry().checkPrecision(p);
    } catch (IllegalArgumentException e) {
      throw new StoredDatabaseException(dir + ": manifest geometry is invalid for preset "
          + p.id() + ": " + e.getMessage(), e);
    }
    if (expected != null && !expected.id().equals(p.id())) {
      throw new StoredDatabaseException(dir + ": preset mismatch: the database was built for '"
          + p.id() + "', the caller expects '" + expected.id() + "'");
    }
    if (m.geometry().polyBytes() != p.bytesPerPolynomial()) {
      throw new StoredDatabaseException(dir + ": geometry has " + m.geometry().polyBytes()
          + " bytes per polynomial but preset " + p.id() + " has " + p.bytesPerPolynomial());
    }
    for (Manifest.Chunk c : m.chunks()) {
      Path f = dir.resolve(c.file());
      long len;
      if (Files.exists(f) && !Files.isRegularFile(f)) {
        throw new StoredDatabaseException(dir + ": chunk " + c.file() + " is not a regular file");
      }
      try {
        len = Files.size(f);
      } catch (IOException e) {
        throw new StoredDatabaseException(dir + ": chunk " + c.file() + " is missing", e);
      }
      if (len != c.bytes()) {
        throw new StoredDatabaseException(dir + ": chunk " + c.file() + " is " + len
            + " bytes but the manifest says " + c.bytes() + (len < c.bytes() ? " (truncated)"
            : " (extra bytes)"));
      }
    }
    return new StoredDatabase(dir, m, p);
  }

  /**
   * Reads and parses the manifest of the current data version of {@code dir} (the highest {@link
   * Manifest#versionOfFile} among its entries; {@code manifest.txt} when never updated); a
   * manifest that is not a regular file or is larger than {@link Manifest#MAX_BYTES} is refused
   * unread.
   */
  public static Manifest readManifest(Path dir) {
    List<String> names = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(f -> names.add(f.getFileName().toString()));
    } catch (IOException e) {
      // not a directory or unreadable: reported below as a missing manifest
    }
    String current = Manifest.currentFile(names);
    return readManifest(dir, current == null ? 1 : Manifest.versionOfFile(current));
  }

  /** Reads and parses the manifest of data version {@code dataVersion} of {@code dir}. */
  public static Manifest readManifest(Path dir, int dataVersion) {
    String name = Manifest.fileOf(dataVersion);
    Manifest m = readManifestFile(dir, name);
    if (m.dataVersion() != dataVersion) {
      throw new StoredDatabaseException(dir + ": " + name + " says data.version="
          + m.dataVersion() + " (renamed or copied from another version)");
    }
    return m;
  }

  private static Manifest readManifestFile(Path dir, String name) {
    Path mf = dir.resolve(name);
    byte[] bytes;
    if (!Files.exists(mf)) {
      throw new StoredDatabaseException(dir + ": no " + name
          + " (not a stored database, or an incomplete write)");
    }
    if (!Files.isRegularFile(mf)) {
      throw new StoredDatabaseException(dir + ": " + name + " is not a regular file");
    }
    try (InputStream in = Files.newInputStream(mf)) {
      bytes = in.readNBytes(Manifest.MAX_BYTES + 1);
    } catch (NoSuchFileException e) {
      throw new StoredDatabaseException(dir + ": no " + name
          + " (not a stored database, or an incomplete write)", e);
    } catch (IOException e) {
      throw new StoredDatabaseException(dir + ": cannot read " + name + ": " + e, e);
    }
    return Manifest.parse(bytes, dir.toString());
  }

  public Path directory() {
    return dir;
  }

  public Manifest manifest() {
    return manifest;
  }

  /** The preset the database was built for. */
  public Params params() {
    return params;
  }

  public Geometry geometry() {
    return manifest.geometry();
  }

  @Override
  public long recordCount() {
    return manifest.geometry().recordCount();
  }

  @Override
  public int recordSize() {
    return manifest.geometry().recordSize();
  }

  private synchronized FileChannel channel(int k) {
    if (channels[k] == null) {
      try {
        channels[k] = FileChannel.open(dir.resolve(manifest.chunks().get(k).file()),
            StandardOpenOption.READ);
      } catch (IOException e) {
        throw new StoredDatabaseException(dir + ": cannot open chunk "
            + manifest.chunks().get(k).file() + ": " + e, e);
      }
    }
    return channels[k];
  }

  /** Reads chunk k whole and checks its length and CRC32C. */
  public byte[] readChunk(int k) {
    Manifest.Chunk c = manifest.chunks().get(k);
    byte[] b;
    try {
      FileChannel ch = channel(k);
      checkSize(c, ch.size());
      b = new byte[Math.toIntExact(c.bytes())];
      readFully(ch, 0, ByteBuffer.wrap(b));
    } catch (IOException e) {
      throw new StoredDatabaseException(dir + ": chunk " + c.file() + " cannot be read: " + e, e);
    }
    CRC32C crc = new CRC32C();
    crc.update(b);
    markVerified(k, (int) crc.getValue());
    return b;
  }

  /** Verifies chunk k (streaming, without holding it), throwing a message naming it on failure. */
  public void verifyChunk(int k) {
    Manifest.Chunk c = manifest.chunks().get(k);
    CRC32C crc = new CRC32C();
    ByteBuffer bb = ByteBuffer.allocate(1 << 20);
    long pos = 0;
    try {
      FileChannel ch = channel(k);
      checkSize(c, ch.size());
      while (pos < c.bytes()) {
        bb.clear();
        bb.limit((int) Math.min(bb.capacity(), c.bytes() - pos));
        readFully(ch, pos, bb);
        bb.flip();
        pos += bb.remaining();
        crc.update(bb);
      }
    } catch (IOException e) {
      throw new StoredDatabaseException(dir + ": chunk " + c.file() + " cannot be read: " + e, e);
    }
    markVerified(k, (int) crc.getValue());
  }

  /** Throws, naming chunk c, unless its file is the manifest's length. */
  private void checkSize(Manifest.Chunk c, long size) {
    if (size != c.bytes()) {
      throw new StoredDatabaseException(dir + ": chunk " + c.file() + " is " + size
          + " bytes but the manifest says " + c.bytes() + (size < c.bytes()
          ? " (truncated)" : " (extra bytes)"));
    }
  }

  /** Records chunk k as verified when {@code crc} is its manifest CRC32C; throws otherwise. */
  private void markVerified(int k, int crc) {
    Manifest.Chunk c = manifest.chunks().get(k);
    if (crc != c.crc32c()) {
      throw new StoredDatabaseException(dir + ": chunk " + c.file() + " is corrupted: CRC32C "
          + String.format("%08x", crc) + " but the manifest says "
          + String.format("%08x", c.crc32c()));
    }
    synchronized (this) {
      verified[k] = true;
    }
  }

  /** Verifies every chunk; the first failure throws naming its chunk. */
  public void verify() {
    for (int k = 0; k < manifest.chunks().size(); k++) {
      verifyChunk(k);
    }
  }

  @Override
  public void read(long index, byte[] dst, int off) {
    manifest.geometry().checkRecord(index);
    Geometry g = manifest.geometry();
    int col = (int) (index / Manifest.recordsPerColumn(g));
    int k = manifest.chunkOfColumn(col);
    boolean ok;
    synchronized (this) {
      ok = verified[k];
    }
    if (!ok) {
      verifyChunk(k);
    }
    Manifest.Chunk c = manifest.chunks().get(k);
    try {
      readFully(channel(k), (index - c.firstRecord()) * g.recordSize(),
          ByteBuffer.wrap(dst, off, g.recordSize()));
    } catch (IOException e) {
      throw new StoredDatabaseException(dir + ": chunk " + c.file() + " cannot be read: " + e, e);
    }
  }

  /**
   * Loads columns {@code [firstCol, firstCol + count)} (what one Spark partition holds): reads and
   * verifies only the chunks covering them, and returns a record source over the whole database
   * whose records outside those columns throw. Chunk-aligned ranges read nothing extra.
   */
  public ColumnRange loadColumns(int firstCol, int count) {
    return loadColumns(manifest, firstCol, count, this::readChunk);
  }

  /**
   * {@link #loadColumns(int, int)} for any store: the chunks covering the columns of {@code m},
   * each read (whole and verified) by {@code readChunk(k)}.
   */
  public static ColumnRange loadColumns(Manifest m, int firstCol, int count,
      IntFunction<byte[]> readChunk) {
    Geometry g = m.geometry();
    if (firstCol < 0 || count < 1 || firstCol + count > g.cols()) {
      throw new IllegalArgumentException("column range [" + firstCol + ", " + (firstCol + count)
          + ") is not inside [0, " + g.cols() + ")");
    }
    int k0 = m.chunkOfColumn(firstCol);
    int k1 = m.chunkOfColumn(firstCol + count - 1);
    byte[][] chunks = new byte[k1 - k0 + 1][];
    long[] firsts = new long[chunks.length];
    for (int k = k0; k <= k1; k++) {
      chunks[k - k0] = readChunk.apply(k);
      firsts[k - k0] = m.chunks().get(k).firstRecord();
    }
    return new ColumnRange(g, firstCol, count, chunks, firsts);
  }

  /**
   * Loads and prepares columns {@code [firstCol, firstCol + count)} of every plane (PVEC form):
   * the whole work of a Spark partition on load.
   */
  public PreparedDatabase prepare(int firstCol, int count, IntConsumer progress) {
    return PreparedDatabase.prepare(params, manifest.geometry(), loadColumns(firstCol, count),
        firstCol, count, progress);
  }

  private static void readFully(FileChannel ch, long pos, ByteBuffer bb) throws IOException {
    while (bb.hasRemaining()) {
      int r = ch.read(bb, pos);
      if (r < 0) {
        throw new EOFException("unexpected end of file at byte " + pos + " (truncated)");
      }
      pos += r;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    for (FileChannel ch : channels) {
      if (ch != null) {
        ch.close();
      }
    }
  }

  /**
   * The records of a column range held in memory: a {@link RecordSource} with the whole
   * database's record count (as {@link PreparedDatabase#prepare} expects) that serves only the
   * records of its columns.
   */
  public static final class ColumnRange implements RecordSource {
    private final Geometry g;
    private final int firstCol;
    private final int count;
    private final byte[][] chunks;
    private final long[] firsts;
    private final long lo;
    private final long hi;

    ColumnRange(Geometry g, int firstCol, int count, byte[][] chunks, long[] firsts) {
      this.g = g;
      this.firstCol = firstCol;
      this.count = count;
      this.chunks = chunks;
      this.firsts = firsts;
      this.lo = Manifest.firstRecordOfColumn(g, firstCol);
      this.hi = Manifest.firstRecordOfColumn(g, firstCol + count);
    }

    public int firstColumn() {
      return firstCol;
    }

    public int columnCount() {
      return count;
    }

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
        throw new IllegalArgumentException("record " + index + " is outside columns ["
            + firstCol + ", " + (firstCol + count) + ") (records [" + lo + ", " + hi + "))");
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
