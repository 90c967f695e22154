package org.jpir.datasets.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.server.RecordSource;

/**
 * Writes a stored database atomically: everything goes into a hidden sibling directory {@code
 * .NAME.tmp-RANDOM}, each chunk and then the manifest are written and fsynced, the directory is
 * fsynced and renamed to {@code NAME} in one atomic rename, and the parent is fsynced. A failure
 * (an exception from the source, a full disk) deletes the temporary directory; a crash leaves it
 * behind under its hidden name, never under {@code NAME}, and without the manifest until every
 * chunk is durable.
 */
public final class StoredDatabaseWriter {
  /** Default upper bound of a chunk's size. */
  public static final long DEFAULT_CHUNK_BYTES = 64L << 20;
  private static final int BUF = 1 << 20;

  private StoredDatabaseWriter() {}

  /** Told after each chunk and every few MiB: bytes written so far of the total. */
  @FunctionalInterface
  public interface Progress {
    void bytes(long done, long total);
  }

  /**
   * The default columns per chunk: the largest power of two whose chunk stays within {@code
   * maxChunkBytes} (at least 1, at most the column count rounded up to a power of two).
   */
  public static int defaultColumnsPerChunk(Geometry g, long maxChunkBytes) {
    long colBytes = Math.max(1, Manifest.recordsPerColumn(g) * g.recordSize());
    int cpc = 1;
    while ((long) cpc * 2 * colBytes <= maxChunkBytes && cpc < g.cols()) {
      cpc *= 2;
    }
    return cpc;
  }

  /**
   * Writes {@code source} laid out as {@code g} for preset {@code p} into the new directory
   * {@code dir} (which must not exist). {@code columnsPerChunk <= 0} picks {@link
   * #defaultColumnsPerChunk}. {@code extra} holds additional {@code keyword.*} manifest lines.
   */
  public static Manifest write(Path dir, Params p, Geometry g, RecordSource source,
      int columnsPerChunk, String sourceDescription, Map<String, String> extra, Progress progress)
      throws IOException {
    if (source.recordCount() != g.recordCount() || source.recordSize() != g.recordSize()) {
      throw new IllegalArgumentException("source has " + source.recordCount() + " records of "
          + source.recordSize() + " bytes; geometry expects " + g.recordCount() + " of "
          + g.recordSize());
    }
    if (g.polyBytes() != p.bytesPerPolynomial()) {
      throw new IllegalArgumentException("geometry has " + g.polyBytes() + " bytes per polynomial;"
          + " preset " + p.id() + " has " + p.bytesPerPolynomial());
    }
    int cpc = columnsPerChunk > 0 ? columnsPerChunk : defaultColumnsPerChunk(g,
        DEFAULT_CHUNK_BYTES);
    if (Integer.bitCount(cpc) != 1) {
      throw new IllegalArgumentException("columns per chunk " + cpc + " must be a power of two");
    }
    for (String k : extra.keySet()) {
      if (!k.startsWith("keyword.")) {
        throw new IllegalArgumentException("extra manifest key '" + k + "' must start with keyword.");
      }
    }
    dir = dir.toAbsolutePath().normalize();
    if (Files.exists(dir)) {
      throw new FileAlreadyExistsException(dir + " already exists; choose a new directory");
    }
    Path parent = dir.getParent();
    Files.createDirectories(parent);
    Path tmp = parent.resolve("." + dir.getFileName() + ".tmp-"
        + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    Files.createDirectory(tmp);
    boolean done = false;
    try {
      List<Manifest.Chunk> layout = Manifest.layout(g, cpc);
      long total = g.rawBytes();
      long[] written = {0};
      List<Manifest.Chunk> chunks = new ArrayList<>();
      for (Manifest.Chunk c : layout) {
        int crc = writeChunk(tmp.resolve(c.file()), source, c, g.recordSize(), written, total,
            progress);
        chunks.add(new Manifest.Chunk(c.file(), c.firstColumn(), c.columns(), c.firstRecord(),
            c.records(), c.bytes(), crc));
      }
      Manifest m = new Manifest(Manifest.VERSION, p.id(), sourceDescription, g, cpc,
          List.copyOf(chunks), new LinkedHashMap<>(extra));
      Path mf = tmp.resolve(Manifest.FILE);
      try (FileChannel ch = FileChannel.open(mf, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE)) {
        ByteBuffer bb = ByteBuffer.wrap(m.toText().getBytes(StandardCharsets.UTF_8));
        while (bb.hasRemaining()) {
          ch.write(bb);
        }
        ch.force(true);
      }
      fsyncDirectory(tmp);
      Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
      fsyncDirectory(parent);
      done = true;
      return m;
    } finally {
      if (!done) {
        deleteRecursively(tmp);
      }
    }
  }

  private static int writeChunk(Path file, RecordSource src, Manifest.Chunk c, int recordSize,
      long[] written, long total, Progress progress) throws IOException {
    if (c.bytes() > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("chunk " + c.file() + " would be " + c.bytes()
          + " bytes; choose fewer columns per chunk (at most 2 GiB each)");
    }
    CRC32C crc = new CRC32C();
    int perBuf = Math.max(1, BUF / recordSize);
    byte[] buf = new byte[perBuf * recordSize];
    long sinceReport = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      long end = c.firstRecord() + c.records();
      for (long r = c.firstRecord(); r < end; ) {
        int n = (int) Math.min(perBuf, end - r);
        for (int i = 0; i < n; i++) {
          src.read(r + i, buf, i * recordSize);
        }
        int len = n * recordSize;
        crc.update(buf, 0, len);
        ByteBuffer bb = ByteBuffer.wrap(buf, 0, len);
        while (bb.hasRemaining()) {
          ch.write(bb);
        }
        r += n;
        written[0] += len;
        sinceReport += len;
        if (progress != null && sinceReport >= (16L << 20)) {
          progress.bytes(written[0], total);
          sinceReport = 0;
        }
      }
      ch.force(true);
    }
    if (progress != null) {
      progress.bytes(written[0], total);
    }
    return (int) crc.getValue();
  }

  static void fsyncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // some platforms cannot open directories for fsync; the rename is still atomic there
    }
  }

  private static void deleteRecursively(Path p) {
    try (Stream<Path> s = Files.walk(p)) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> {
        try {
          Files.deleteIfExists(f);
        } catch (IOException ignored) {
          // best effort: the directory keeps its hidden temporary name and has no manifest
        }
      });
    } catch (IOException ignored) {
      // already gone
    }
  }
}
