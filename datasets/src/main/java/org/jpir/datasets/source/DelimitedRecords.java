package org.jpir.datasets.source;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.jpir.core.server.RecordSource;
import org.jpir.datasets.KeyValueSource;
import org.jpir.datasets.LengthPrefix;
import org.jpir.datasets.ValueTooLargeException;

/**
 * A CSV (RFC 4180) or TSV table read as (key, value) entries: entry i is data row i (after an
 * optional header row), its key the field at {@code keyColumn} and its value the field at {@code
 * valueColumn} (0-based). As a {@link RecordSource}, record i is entry i's value as a
 * length-prefixed field of {@link #recordSize()} bytes ({@link LengthPrefix}). Opening streams the
 * file once and keeps an index of 16 bytes per row (start offset, start line, key and value
 * lengths); rows are then re-parsed from the file on demand. Not thread-safe.
 */
public final class DelimitedRecords implements RecordSource, KeyValueSource, Closeable {
  private final Path path;
  private final boolean csv;
  private final int keyColumn;
  private final int valueColumn;
  private final int recordSize;
  private final boolean truncate;
  private final long[] offsets; // row i spans [offsets[i], offsets[i+1])
  private final int[] lines;
  private final int maxKey;
  private final int maxValue;
  private final FileWindow window;

  private DelimitedRecords(Path path, boolean csv, int keyColumn, int valueColumn, int recordSize,
      boolean truncate, long[] offsets, int[] lines, int maxKey, int maxValue) throws IOException {
    this.path = path;
    this.csv = csv;
    this.keyColumn = keyColumn;
    this.valueColumn = valueColumn;
    this.recordSize = recordSize;
    this.truncate = truncate;
    this.offsets = offsets;
    this.lines = lines;
    this.maxKey = maxKey;
    this.maxValue = maxValue;
    this.window = new FileWindow(path);
  }

  /**
   * Indexes {@code path}. {@code recordSize <= 0} picks the smallest record that holds the longest
   * value; otherwise a longer value is an error naming its line and key unless {@code truncate}.
   * A row with too few fields or an empty key is an error naming its line.
   */
  public static DelimitedRecords open(Path path, boolean csv, boolean header, int keyColumn,
      int valueColumn, int recordSize, boolean truncate) throws IOException {
    if (keyColumn < 0 || valueColumn < 0) {
      throw new IllegalArgumentException("columns must be >= 0, got key " + keyColumn
          + " value " + valueColumn);
    }
    long[] offsets = new long[1024];
    int[] lines = new int[1024];
    int count = 0;
    int maxKey = 0;
    int maxValue = 0;
    String name = path.toString();
    int need = Math.max(keyColumn, valueColumn) + 1;
    long[] valueLens = new long[1024];
    long end;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(path), 1 << 16)) {
      DelimitedParser p = new DelimitedParser(in, csv, name);
      if (header && p.next() == null) {
        throw new IllegalArgumentException(name + " is empty (expected a header row)");
      }
      List<byte[]> row;
      while ((row = p.next()) != null) {
        if (row.size() == 1 && row.get(0).length == 0) {
          continue; // blank line
        }
        if (row.size() < need) {
          throw new IllegalArgumentException(name + " line " + p.rowLine() + " has " + row.size()
              + " fields; the key and value columns need " + need);
        }
        byte[] key = row.get(keyColumn);
        if (key.length == 0) {
          throw new IllegalArgumentException(name + " line " + p.rowLine() + " has an empty key");
        }
        if (count + 1 >= offsets.length) {
          offsets = Arrays.copyOf(offsets, offsets.length * 2);
          lines = Arrays.copyOf(lines, lines.length * 2);
          valueLens = Arrays.copyOf(valueLens, valueLens.length * 2);
        }
        offsets[count] = p.rowStart();
        lines[count] = (int) Math.min(Integer.MAX_VALUE, p.rowLine());
        valueLens[count] = row.get(valueColumn).length;
        maxKey = Math.max(maxKey, key.length);
        maxValue = Math.max(maxValue, row.get(valueColumn).length);
        count++;
        offsets[count] = p.position();
      }
      end = p.position();
    }
    if (count == 0) {
      throw new IllegalArgumentException(name + " has no data rows");
    }
    int size = recordSize > 0 ? recordSize : LengthPrefix.fieldSizeFor(maxValue);
    DelimitedRecords r = new DelimitedRecords(path, csv, keyColumn, valueColumn, size, truncate,
        Arrays.copyOf(offsets, count + 1), Arrays.copyOf(lines, count), maxKey, maxValue);
    if (!truncate) {
      int cap = LengthPrefix.capacity(size);
      for (int i = 0; i < count; i++) {
        if (valueLens[i] > cap) {
          String what = r.describe(i);
          r.close();
          throw new ValueTooLargeException(what + ": value of " + valueLens[i]
              + " bytes does not fit the " + cap + " bytes a " + size + "-byte record holds ("
              + LengthPrefix.prefixBytes(size) + "-byte length prefix); raise the record size "
              + "or choose truncation explicitly");
        }
      }
    }
    assert end >= offsets[count - 1];
    return r;
  }

  private List<byte[]> row(long i) {
    if (i < 0 || i >= lines.length) {
      throw new IllegalArgumentException("row " + i + " out of range [0, " + lines.length + ")");
    }
    int idx = (int) i;
    int len = (int) (offsets[idx + 1] - offsets[idx]);
    byte[] b = new byte[len];
    window.read(offsets[idx], b, 0, len);
    try {
      return new DelimitedParser(new ByteArrayInputStream(b), csv, path.toString()).next();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public long size() {
    return lines.length;
  }

  @Override
  public byte[] key(long i) {
    return row(i).get(keyColumn);
  }

  @Override
  public byte[] value(long i) {
    return row(i).get(valueColumn);
  }

  @Override
  public String describe(long i) {
    String k = new String(key(i), StandardCharsets.UTF_8);
    if (k.length() > 40) {
      k = k.substring(0, 40) + "...";
    }
    return path + " line " + lines[(int) i] + " (key '" + k + "')";
  }

  /** Longest key in bytes. */
  public int maxKeyLength() {
    return maxKey;
  }

  /** Longest value in bytes. */
  public int maxValueLength() {
    return maxValue;
  }

  @Override
  public long recordCount() {
    return lines.length;
  }

  @Override
  public int recordSize() {
    return recordSize;
  }

  @Override
  public void read(long index, byte[] dst, int off) {
    List<byte[]> r = row(index);
    byte[] v = r.get(valueColumn);
    String what = v.length > LengthPrefix.capacity(recordSize) ? describe(index) : null;
    LengthPrefix.write(v, 0, v.length, dst, off, recordSize, truncate, what);
  }

  @Override
  public void close() throws IOException {
    window.close();
  }
}
