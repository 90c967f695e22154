package org.jpir.datasets.store;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.jpir.core.params.Geometry;

/**
 * The manifest of a stored database: the text file {@code manifest.txt} (UTF-8), one {@code
 * key=value} per line, in this order:
 *
 * <pre>
 * format=jpir-stored-database
 * version=1
 * data.version=N                              (1 for a fresh import, +1 per update)
 * preset=onionpir-4096-128                    (a Presets id)
 * source=...                                  (free text: what was imported)
 * record.count=..., record.size=...
 * geometry.polyBytes, geometry.recordsPerPoly, geometry.planes, geometry.rows, geometry.cols
 * geometry.pairedTail=true                    (only when the last plane pairs tails)
 * chunk.columns=...                           (columns per chunk, a power of two)
 * chunk.count=...
 * checksum=crc32c
 * chunk.K=NAME FIRSTCOL COLS FIRSTRECORD RECORDS BYTES CRC32C   (one line per chunk, CRC in hex)
 * keyword.*=...                               (only for keyword databases, see KeywordParams)
 * manifest.crc32c=XXXXXXXX                    (CRC32C of every byte before this line)
 * </pre>
 *
 * <p>Data version 1 is {@code manifest.txt}; data version {@code v >= 2} (written by {@link
 * StoredDatabaseUpdater}) is {@code manifest-vNNNNNN.txt} ({@link #fileOf}); the database's current
 * version is the highest one present ({@link #currentFile}). Chunk {@code K} rewritten by version
 * {@code v} is {@code chunk-KKKKKK-vNNNNNN.bin}; unchanged chunks keep the name of the version that
 * wrote them.
 */
public record Manifest(int version, String presetId, String source, Geometry geometry,
    int columnsPerChunk, List<Chunk> chunks, Map<String, String> extra, int dataVersion) {

  /** A data-version-1 manifest (a fresh import). */
  public Manifest(int version, String presetId, String source, Geometry geometry,
      int columnsPerChunk, List<Chunk> chunks, Map<String, String> extra) {
    this(version, presetId, source, geometry, columnsPerChunk, chunks, extra, 1);
  }

  /** Largest data version accepted (six digits in file names). */
  public static final int MAX_DATA_VERSION = 999_999;
  private static final Pattern VERSIONED =
      Pattern.compile("manifest-v(\\d{6})\\.txt");

  /** The manifest file of data version {@code v}: {@code manifest.txt} for 1. */
  public static String fileOf(int v) {
    if (v < 1 || v > MAX_DATA_VERSION) {
      throw new IllegalArgumentException("data version " + v + " is outside [1, "
          + MAX_DATA_VERSION + "]");
    }
    return v == 1 ? FILE : String.format("manifest-v%06d.txt", v);
  }

  /** The data version a manifest file name stands for, or -1 when it names none. */
  public static int versionOfFile(String name) {
    if (FILE.equals(name)) {
      return 1;
    }
    Matcher m = VERSIONED.matcher(name);
    if (!m.matches()) {
      return -1;
    }
    int v = Integer.parseInt(m.group(1));
    return v >= 2 ? v : -1;
  }

  /**
   * The manifest file of the current (highest) data version among the directory entries {@code
   * names}, or null when there is none.
   */
  public static String currentFile(Iterable<String> names) {
    int best = -1;
    for (String n : names) {
      best = Math.max(best, versionOfFile(n));
    }
    return best < 1 ? null : fileOf(best);
  }

  /** The file of chunk {@code k} as written by data version {@code v}. */
  public static String chunkFile(int k, int v) {
    return v == 1 ? String.format("chunk-%06d.bin", k) : String.format("chunk-%06d-v%06d.bin", k,
        v);
  }

  /** The format version this code writes and reads. */
  public static final int VERSION = 1;
  /** The manifest's file name inside the database directory. */
  public static final String FILE = "manifest.txt";
  static final String FORMAT = "jpir-stored-database";
  /** Largest manifest accepted, in bytes (a manifest is refused unread beyond this). */
  public static final int MAX_BYTES = 16 << 20;
  /** Largest chunk a manifest may declare, in bytes (a chunk is read whole into one array). */
  public static final long MAX_CHUNK_BYTES = Integer.MAX_VALUE - 8;

  /**
   * One chunk file: columns {@code [firstColumn, firstColumn + columns)}, which hold records
   * {@code [firstRecord, firstRecord + records)}, stored as {@code bytes = records * recordSize}
   * bytes with CRC32C {@code crc32c}.
   */
  public record Chunk(String file, int firstColumn, int columns, long firstRecord, long records,
      long bytes, int crc32c) {}

  /** The chunk holding column {@code col}. */
  public int chunkOfColumn(int col) {
    return col / columnsPerChunk;
  }

  /** Bytes of all chunks. */
  public long storedBytes() {
    long s = 0;
    for (Chunk c : chunks) {
      s += c.bytes();
    }
    return s;
  }

  /** The manifest's text. */
  public String toText() {
    StringBuilder b = new StringBuilder();
    Geometry g = geometry;
    line(b, "format", FORMAT);
    line(b, "version", version);
    line(b, "data.version", dataVersion);
    line(b, "preset", presetId);
    line(b, "source", source.replace('\n', ' '));
    line(b, "record.count", g.recordCount());
    line(b, "record.size", g.recordSize());
    line(b, "geometry.polyBytes", g.polyBytes());
    line(b, "geometry.recordsPerPoly", g.recordsPerPoly());
    line(b, "geometry.planes", g.planes());
    line(b, "geometry.rows", g.rows());
    line(b, "geometry.cols", g.cols());
    if (g.pairedTail()) {
      line(b, "geometry.pairedTail", "true");
    }
    line(b, "chunk.columns", columnsPerChunk);
    line(b, "chunk.count", chunks.size());
    line(b, "checksum", "crc32c");
    for (int i = 0; i < chunks.size(); i++) {
      Chunk c = chunks.get(i);
      line(b, "chunk." + i, c.file() + " " + c.firstColumn() + " " + c.columns() + " "
          + c.firstRecord() + " " + c.records() + " " + c.bytes() + " "
          + String.format("%08x", c.crc32c()));
    }
    for (Map.Entry<String, String> e : extra.entrySet()) {
      line(b, e.getKey(), e.getValue());
    }
    CRC32C crc = new CRC32C();
    crc.update(b.toString().getBytes(StandardCharsets.UTF_8));
    line(b, "manifest.crc32c", String.format("%08x", (int) crc.getValue()));
    return b.toString();
  }

  private static void line(StringBuilder b, String k, Object v) {
    b.append(k).append('=').append(v).append('\n');
  }

  /**
   * Parses a manifest from its bytes (strict UTF-8, at most {@link #MAX_BYTES}); {@code where}
   * names it in messages.
   *
   * @throws StoredDatabaseException naming what is wrong
   */
  public static Manifest parse(byte[] bytes, String where) {
    if (bytes.length > MAX_BYTES) {
      throw new StoredDatabaseException(where + ": manifest has " + bytes.length
          + " bytes, more than the " + MAX_BYTES + " allowed");
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new StoredDatabaseException(where + ": manifest is not UTF-8 text", e);
    }
    return parse(text, where);
  }

  /**
   * Parses a manifest; {@code where} names it in messages. Every number is range-checked and the
   * chunk count is checked against the geometry before any chunk is listed.
   *
   * @throws StoredDatabaseException naming what is wrong
   */
  public static Manifest parse(String text, String where) {
    if (text.length() > MAX_BYTES) {
      throw new StoredDatabaseException(where + ": manifest has " + text.length()
          + " characters, more than the " + MAX_BYTES + " allowed");
    }
    int tail = text.lastIndexOf("manifest.crc32c=");
    if (tail < 0 || (tail > 0 && text.charAt(tail - 1) != '\n')) {
      throw new StoredDatabaseException(where + ": manifest has no manifest.crc32c line "
          + "(truncated or not a jpir manifest)");
    }
    CRC32C crc = new CRC32C();
    crc.update(text.substring(0, tail).getBytes(StandardCharsets.UTF_8));
    String stated = text.substring(tail + "manifest.crc32c=".length()).trim();
    Map<String, String> kv = new LinkedHashMap<>();
    for (String l : text.substring(0, tail).split("\n")) {
      if (l.isEmpty()) {
        continue;
      }
      int eq = l.indexOf('=');
      if (eq < 0) {
        throw new StoredDatabaseException(where + ": manifest line '" + printable(l)
            + "' has no '='");
      }
      if (kv.put(l.substring(0, eq), l.substring(eq + 1)) != null) {
        throw new StoredDatabaseException(where + ": manifest repeats key '"
            + printable(l.substring(0, eq)) + "'");
      }
    }
    if (!FORMAT.equals(kv.get("format"))) {
      throw new StoredDatabaseException(where + ": not a jpir stored database manifest (format="
          + printable(String.valueOf(kv.get("format"))) + ", expected " + FORMAT + ")");
    }
    int version = intNum(kv, "version", where);
    if (version != VERSION) {
      throw new StoredDatabaseException(where + ": unsupported manifest version " + version
          + " (this build reads version " + VERSION + ")");
    }
    if (!String.format("%08x", (int) crc.getValue()).equals(stated)) {
      throw new StoredDatabaseException(where + ": manifest checksum mismatch (stated " + stated
          + ", computed " + String.format("%08x", (int) crc.getValue()) + "): the manifest was "
          + "edited or corrupted");
    }
    Geometry g;
    try {
      g = new Geometry(num(kv, "record.count", where), intNum(kv, "record.size", where),
          intNum(kv, "geometry.polyBytes", where), intNum(kv, "geometry.recordsPerPoly", where),
          intNum(kv, "geometry.planes", where), intNum(kv, "geometry.rows", where),
          intNum(kv, "geometry.cols", where));
      String paired = kv.getOrDefault("geometry.pairedTail", "false");
      if (!paired.equals("false") && !paired.equals("true")) {
        throw new IllegalArgumentException("geometry.pairedTail is '" + printable(paired)
            + "', not true or false");
      }
      if (paired.equals("true")) {
        g = g.withPairedTail();
      }
      if (g.polyBytes() < 1) {
        throw new IllegalArgumentException("geometry.polyBytes " + g.polyBytes()
            + " must be positive");
      }
      Math.multiplyExact(g.recordCount(), (long) g.recordSize());
    } catch (ArithmeticException e) {
      throw new StoredDatabaseException(where + ": manifest geometry is invalid: "
          + "record.count x record.size overflows", e);
    } catch (IllegalArgumentException e) {
      throw new StoredDatabaseException(where + ": manifest geometry is invalid: " + e.getMessage(),
          e);
    }
    int cpc = intNum(kv, "chunk.columns", where);
    int count = intNum(kv, "chunk.count", where);
    if (!"crc32c".equals(kv.get("checksum"))) {
      throw new StoredDatabaseException(where + ": unknown checksum '"
          + printable(String.valueOf(kv.get("checksum"))) + "'");
    }
    if (cpc < 1 || Integer.bitCount(cpc) != 1) {
      throw new StoredDatabaseException(where + ": chunk.columns=" + cpc
          + " is not a power of two");
    }
    long expectCount = (g.cols() + (long) cpc - 1) / cpc;
    if (count != expectCount) {
      throw new StoredDatabaseException(where + ": manifest lists " + count + " chunks; the "
          + "geometry needs " + expectCount);
    }
    if (count > kv.size()) {
      throw new StoredDatabaseException(where + ": manifest declares " + count
          + " chunks but has only " + kv.size() + " lines");
    }
    if (recordsPerColumn(g) > MAX_CHUNK_BYTES / g.recordSize() / cpc) {
      throw new StoredDatabaseException(where + ": chunks of " + cpc + " columns would exceed "
          + MAX_CHUNK_BYTES + " bytes");
    }
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String v = kv.get("chunk." + i);
      if (v == null) {
        throw new StoredDatabaseException(where + ": manifest lacks chunk." + i);
      }
      String[] f = v.trim().split(" ");
      if (f.length != 7) {
        throw new StoredDatabaseException(where + ": manifest line chunk." + i + " is malformed");
      }
      try {
        chunks.add(new Chunk(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]),
            Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]),
            Integer.parseUnsignedInt(f[6], 16)));
      } catch (NumberFormatException e) {
        throw new StoredDatabaseException(where + ": manifest line chunk." + i + " is malformed");
      }
    }
    Map<String, String> extra = new LinkedHashMap<>();
    kv.forEach((k, v) -> {
      if (k.startsWith("keyword.")) {
        extra.put(k, v);
      }
    });
    String preset = kv.get("preset");
    if (preset == null || !preset.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new StoredDatabaseException(where + ": manifest preset "
          + (preset == null ? "is missing" : "'" + printable(preset) + "' is not a preset id"));
    }
    int dataVersion = kv.containsKey("data.version") ? intNum(kv, "data.version", where) : 1;
    if (dataVersion < 1 || dataVersion > MAX_DATA_VERSION) {
      throw new StoredDatabaseException(where + ": manifest data.version=" + dataVersion
          + " is outside [1, " + MAX_DATA_VERSION + "]");
    }
    Manifest m = new Manifest(version, preset, kv.getOrDefault("source", ""), g, cpc,
        List.copyOf(chunks), extra, dataVersion);
    m.checkLayout(where);
    return m;
  }

  private static long num(Map<String, String> kv, String k, String where) {
    String v = kv.get(k);
    if (v == null) {
      throw new StoredDatabaseException(where + ": manifest lacks " + k);
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new StoredDatabaseException(where + ": manifest " + k + "=" + printable(v)
          + " is not a number");
    }
  }

  private static int intNum(Map<String, String> kv, String k, String where) {
    long v = num(kv, k, where);
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new StoredDatabaseException(where + ": manifest " + k + "=" + v + " is out of range"
          + " [0, " + Integer.MAX_VALUE + "]");
    }
    return (int) v;
  }

  /** A hostile string made safe for a message: printable ASCII, at most 64 characters. */
  static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < Math.min(64, s.length()); i++) {
      char c = s.charAt(i);
      b.append(c >= 0x20 && c < 0x7F ? c : '?');
    }
    return s.length() > 64 ? b + "..." : b.toString();
  }

  /** Checks the chunks tile the columns as {@link #layout} would. */
  void checkLayout(String where) {
    if (columnsPerChunk < 1 || Integer.bitCount(columnsPerChunk) != 1) {
      throw new StoredDatabaseException(where + ": chunk.columns=" + columnsPerChunk
          + " is not a power of two");
    }
    List<Chunk> expect = layout(geometry, columnsPerChunk);
    if (expect.size() != chunks.size()) {
      throw new StoredDatabaseException(where + ": manifest lists " + chunks.size()
          + " chunks; the geometry needs " + expect.size());
    }
    for (int i = 0; i < chunks.size(); i++) {
      Chunk a = chunks.get(i);
      Chunk e = expect.get(i);
      if (a.firstColumn() != e.firstColumn() || a.columns() != e.columns()
          || a.firstRecord() != e.firstRecord() || a.records() != e.records()
          || a.bytes() != e.bytes() || !chunkFileOk(a.file(), i)) {
        throw new StoredDatabaseException(where + ": manifest chunk." + i + " (" + a.file()
            + ") does not match the geometry");
      }
    }
  }

  /** True when {@code name} is chunk {@code k}'s file as written by a version up to ours. */
  private boolean chunkFileOk(String name, int k) {
    if (name.equals(chunkFile(k, 1))) {
      return true;
    }
    String prefix = String.format("chunk-%06d-v", k);
    if (!name.startsWith(prefix) || !name.endsWith(".bin")
        || name.length() != prefix.length() + 6 + 4) {
      return false;
    }
    String digits = name.substring(prefix.length(), prefix.length() + 6);
    if (!digits.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
      return false;
    }
    int v = Integer.parseInt(digits);
    return v >= 2 && v <= dataVersion && name.equals(chunkFile(k, v));
  }

  /** Records per column in the grid (records are consecutive down a column). */
  public static long recordsPerColumn(Geometry g) {
    return (long) g.rows() * g.recordsPerPoly();
  }

  /** First record of column {@code col}. */
  public static long firstRecordOfColumn(Geometry g, int col) {
    return Math.min(g.recordCount(), col * recordsPerColumn(g));
  }

  /** The chunk layout (checksums zero) of a geometry with {@code columnsPerChunk}. */
  static List<Chunk> layout(Geometry g, int columnsPerChunk) {
    List<Chunk> out = new ArrayList<>();
    for (int c = 0, k = 0; c < g.cols(); c += columnsPerChunk, k++) {
      int n = Math.min(columnsPerChunk, g.cols() - c);
      long first = firstRecordOfColumn(g, c);
      long end = firstRecordOfColumn(g, c + n);
      out.add(new Chunk(chunkFile(k, 1), c, n, first, end - first,
          (end - first) * g.recordSize(), 0));
    }
    return out;
  }
}
