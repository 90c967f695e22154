package org.jpir.core.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The client's private map from opaque query ids to record indices. A query file is named
 * {@code <id>.query}, where the id is 128 random bits from {@link SecureRandom} in lower-case hex,
 * so nothing the server sees (file names, its answers' and error files' names, its log lines)
 * depends on the index; the map stays with the client and is needed to decode. File format: one
 * {@code <id> <index>} line per query, in insertion order; written atomically.
 */
public final class QueryIdMap {
  /** Hex digits of an id (128 bits). */
  public static final int ID_HEX = 32;
  private static final Pattern ID = Pattern.compile("[0-9a-f]{" + ID_HEX + "}");
  private static final long MAX_FILE_BYTES = 1L << 30;

  private final Map<String, Long> ids = new LinkedHashMap<>();

  /** An empty map. */
  public QueryIdMap() {}

  /** A fresh random id (128 bits of {@code random}, hex). */
  public static String newId(SecureRandom random) {
    byte[] b = new byte[ID_HEX / 2];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** Whether {@code s} has the form of an id. */
  public static boolean isId(String s) {
    return s != null && ID.matcher(s).matches();
  }

  /** Draws a new id (never one already in the map), records {@code index} under it, returns it. */
  public String add(long index, SecureRandom random) {
    if (index < 0) {
      throw new IllegalArgumentException("record index " + index + " is negative");
    }
    String id;
    do {
      id = newId(random);
    } while (ids.containsKey(id));
    ids.put(id, index);
    return id;
  }

  /** The index of {@code id}; the exception says the id is unknown to this map. */
  public long index(String id) {
    Long i = ids.get(id);
    if (i == null) {
      throw new IllegalArgumentException("query id '" + id + "' is not in the client's id map");
    }
    return i;
  }

  /** Whether the map holds {@code id}. */
  public boolean contains(String id) {
    return ids.containsKey(id);
  }

  /** The entries, in insertion order (unmodifiable). */
  public Map<String, Long> entries() {
    return Collections.unmodifiableMap(ids);
  }

  /** Number of ids. */
  public int size() {
    return ids.size();
  }

  /** Reads a map file; a missing file is an empty map when {@code missingIsEmpty}. */
  public static QueryIdMap load(Path file, boolean missingIsEmpty) {
    QueryIdMap m = new QueryIdMap();
    if (missingIsEmpty && !Files.exists(file)) {
      return m;
    }
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
        throw new IllegalArgumentException("id map " + file + " is not a regular file of at"
            + " most " + MAX_FILE_BYTES + " bytes");
      }
      int lineNo = 0;
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        lineNo++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.trim().split("\\s+");
        if (f.length != 2 || !isId(f[0])) {
          throw new IllegalArgumentException("id map " + file + " line " + lineNo
              + ": expected '<32 hex digits> <index>'");
        }
        long index;
        try {
          index = Long.parseLong(f[1]);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("id map " + file + " line " + lineNo
              + ": index '" + f[1] + "' is not a number");
        }
        if (index < 0 || m.ids.putIfAbsent(f[0], index) != null) {
          throw new IllegalArgumentException("id map " + file + " line " + lineNo
              + ": negative index or repeated id");
        }
      }
      return m;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read id map " + file, e);
    }
  }

  /** Writes the map atomically (temporary file in the same directory, then a rename). */
  public void save(Path file) {
    StringBuilder sb = new StringBuilder("# jpir client id map: query id -> record index."
        + " Keep it private: never give it to the server.\n");
    for (Map.Entry<String, Long> e : ids.entrySet()) {
      sb.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
    }
    Path abs = file.toAbsolutePath();
    try {
      Files.createDirectories(abs.getParent());
      Path tmp = Files.createTempFile(abs.getParent(), abs.getFileName().toString(), ".tmp");
      Files.writeString(tmp, sb, StandardCharsets.UTF_8);
      Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write id map " + file, e);
    }
  }
}
