package org.jpir.datasets.store;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.jpir.core.params.Geometry;

/**
 * Applies an {@link UpdateFile} to a stored database (index mode) as a new data version: only the
 * chunks holding a changed record are written again, as new files {@code chunk-K-vN.bin}; the new
 * manifest {@code manifest-vN.txt} references those and the unchanged chunks' existing files, and
 * is published last in one rename. Until then the previous version stays current and whole; after
 * it, readers that opened the previous version keep reading its files (never deleted here).
 *
 * <p>One update at a time: the updater holds {@code update.lock} (created exclusively) while it
 * runs. Keyword databases are refused: an insert moves other keys between cuckoo buckets and the
 * stash, which needs the whole table rebuilt.
 */
public final class StoredDatabaseUpdater {
  /** The lock file held while an update runs. */
  public static final String LOCK = "update.lock";

  private StoredDatabaseUpdater() {}

  /**
   * What an update did: the manifests before and after, the chunks written again (indices) and
   * their bytes, and the operations applied.
   */
  public record Result(Manifest before, Manifest after, List<Integer> rewrittenChunks,
      long bytesWritten, int operations) {}

  /** A hook between the steps of an update (tests: a simulated crash throws from it). */
  @FunctionalInterface
  public interface Step {
    /** Called with "chunk K" after each chunk file, then "manifest" before publishing. */
    void before(String what);
  }

  /** {@link #apply(DatabaseFiles, UpdateFile, Step)} without a hook. */
  public static Result apply(DatabaseFiles files, UpdateFile updates) {
    return apply(files, updates, w -> { });
  }

  /**
   * Applies {@code updates} to the current version of {@code files} and makes the result current.
   * Every operation is checked against the manifest before anything is written.
   *
   * @throws StoredDatabaseException naming the update line or the reason (keyword database, an
   *     index past the grid, another update holding the lock); the current version is unchanged
   */
  public static Result apply(DatabaseFiles files, UpdateFile updates, Step step) {
    String where = files.describe();
    if (!files.createExclusive(LOCK, ("update started " + Instant.now() + "\n")
        .getBytes(StandardCharsets.UTF_8))) {
      throw new StoredDatabaseException(where + ": " + LOCK + " exists: another update is running,"
          + " or one crashed (then delete " + LOCK + "; the current version is intact)");
    }
    List<String> written = new ArrayList<>();
    boolean published = false;
    try {
      Manifest old = current(files);
      if (!old.extra().isEmpty()) {
        throw new StoredDatabaseException(where + ": keyword databases cannot be updated in place"
            + " (an insert moves other keys between cuckoo buckets and the stash); import the"
            + " changed table again");
      }
      if (old.dataVersion() >= Manifest.MAX_DATA_VERSION) {
        throw new StoredDatabaseException(where + ": data version " + old.dataVersion()
            + " is the last one; import the database again");
      }
      Geometry g0 = old.geometry();
      int size = g0.recordSize();
      TreeMap<Long, UpdateFile.Op> last = new TreeMap<>();
      long count = g0.recordCount();
      for (UpdateFile.Op op : updates.ops()) {
        if (op.isDelete() && op.index() >= g0.recordCount()) {
          throw new StoredDatabaseException(where + ": update line " + op.line() + ": delete "
              + op.index() + " is past the last record " + (g0.recordCount() - 1));
        }
        if (op.value() != null && op.value().length > size) {
          throw new StoredDatabaseException(where + ": update line " + op.line() + ": value has "
              + op.value().length + " bytes, more than the record size " + size);
        }
        count = Math.max(count, op.index() + 1);
        last.put(op.index(), op);
      }
      Geometry g;
      try {
        g = new Geometry(count, size, g0.polyBytes(), g0.recordsPerPoly(), g0.planes(),
            g0.rows(), g0.cols());
      } catch (IllegalArgumentException e) {
        long line = last.lastEntry().getValue().line();
        throw new StoredDatabaseException(where + ": update line " + line + ": appending up to"
            + " record " + (count - 1) + " needs a larger grid than " + g0.rows() + " rows x "
            + g0.cols() + " columns (" + e.getMessage() + "); import the database again", e);
      }
      int v = old.dataVersion() + 1;
      List<Manifest.Chunk> layout = Manifest.layout(g, old.columnsPerChunk());
      List<Manifest.Chunk> chunks = new ArrayList<>();
      List<Integer> rewritten = new ArrayList<>();
      long bytes = 0;
      for (int k = 0; k < layout.size(); k++) {
        Manifest.Chunk was = old.chunks().get(k);
        Manifest.Chunk now = layout.get(k);
        long end = now.firstRecord() + now.records();
        boolean touched = !last.subMap(now.firstRecord(), end).isEmpty();
        if (!touched && now.records() == was.records()) {
          chunks.add(was);
          continue;
        }
        byte[] b = new byte[Math.toIntExact(now.bytes())];
        if (was.bytes() > 0) {
          byte[] prev = files.read(was.file(), was.bytes());
          checkChunk(where, was, prev);
          System.arraycopy(prev, 0, b, 0, prev.length);
        }
        for (UpdateFile.Op op : last.subMap(now.firstRecord(), end).values()) {
          int off = Math.toIntExact((op.index() - now.firstRecord()) * size);
          Arrays.fill(b, off, off + size, (byte) 0);
          if (!op.isDelete()) {
            System.arraycopy(op.value(), 0, b, off, op.value().length);
          }
        }
        CRC32C crc = new CRC32C();
        crc.update(b);
        String name = Manifest.chunkFile(k, v);
        written.add(name);
        files.writeDurable(name, b);
        step.before("chunk " + k);
        chunks.add(new Manifest.Chunk(name, now.firstColumn(), now.columns(), now.firstRecord(),
            now.records(), now.bytes(), (int) crc.getValue()));
        rewritten.add(k);
        bytes += b.length;
      }
      Manifest m = new Manifest(Manifest.VERSION, old.presetId(), old.source(), g,
          old.columnsPerChunk(), List.copyOf(chunks), old.extra(), v);
      m.checkLayout(where);
      step.before("manifest");
      files.publish(Manifest.fileOf(v), m.toText().getBytes(StandardCharsets.UTF_8));
      published = true;
      return new Result(old, m, List.copyOf(rewritten), bytes, updates.ops().size());
    } finally {
      if (!published) {
        for (String n : written) {
          files.delete(n);
        }
      }
      files.delete(LOCK);
    }
  }

  /** The manifest of the current version of {@code files}, checked against its file name. */
  public static Manifest current(DatabaseFiles files) {
    String name = Manifest.currentFile(files.list());
    if (name == null) {
      throw new StoredDatabaseException(files.describe() + ": no " + Manifest.FILE
          + " (not a stored database, or an incomplete write)");
    }
    return read(files, Manifest.versionOfFile(name));
  }

  /** The manifest of data version {@code v} of {@code files}, checked against its file name. */
  public static Manifest read(DatabaseFiles files, int v) {
    String name = Manifest.fileOf(v);
    Manifest m = Manifest.parse(files.read(name, Manifest.MAX_BYTES), files.describe());
    if (m.dataVersion() != v) {
      throw new StoredDatabaseException(files.describe() + ": " + name + " says data.version="
          + m.dataVersion() + " (renamed or copied from another version)");
    }
    return m;
  }

  private static void checkChunk(String where, Manifest.Chunk c, byte[] b) {
    CRC32C crc = new CRC32C();
    crc.update(b);
    if (b.length != c.bytes() || (int) crc.getValue() != c.crc32c()) {
      throw new StoredDatabaseException(where + ": chunk " + c.file() + " is corrupted or"
          + " truncated (CRC32C " + String.format("%08x", (int) crc.getValue())
          + ", the manifest says " + String.format("%08x", c.crc32c()) + ")");
    }
  }
}
