package org.jpir.datasets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseException;
import org.jpir.datasets.store.StoredDatabaseWriter;

/**
 * Hostile input for the stored-database decoders: 100 000 mutated manifests (byte edits, line
 * edits that put extreme numbers in every field, truncation, extension; three quarters with the
 * manifest's CRC32C recomputed) and 100 000 mutated, truncated and extended chunk files. Every
 * one must parse to a valid manifest (which renders and parses back to itself) or chunk (of the
 * manifest's length and CRC), or end in {@link StoredDatabaseException}; anything else fails.
 * Runs in the surefire execution {@code fuzz-small-heap} (-Xmx256m).
 */
class StoredDatabaseFuzzTest {
  static final int TRIES = 100_000;
  static final Params P = Presets.TEST_INSECURE_256;
  static final Path DIR;
  static final byte[] MANIFEST;
  static final byte[] CHUNK;
  static final StoredDatabase DB;
  static final java.nio.channels.FileChannel CHUNK_FILE;

  static {
    try {
      DIR = Files.createTempDirectory("jpir-fuzz");
      // 8-byte records, 224 to a polynomial: 3 polynomials, 1 row, 3 columns, one per chunk
      SyntheticRecords src = new SyntheticRecords(224 * 2 + 100, 8, 5);
      Geometry g = Geometry.of(P, src.recordCount(), 8, 1);
      Path db = DIR.resolve("db");
      StoredDatabaseWriter.write(db, P, g, src, 1, "fuzz", Map.of("keyword.x", "1"), null);
      MANIFEST = Files.readAllBytes(db.resolve(Manifest.FILE));
      CHUNK = Files.readAllBytes(db.resolve("chunk-000000.bin"));
      DB = StoredDatabase.open(db, P);
      CHUNK_FILE = java.nio.channels.FileChannel.open(db.resolve("chunk-000000.bin"),
          java.nio.file.StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Edit(int kind, int pos, long value, int length) {}

  record Mutation(List<Edit> edits, boolean fixCrc) {}

  static final long[] INTERESTING = {0, 1, -1, 2, 3, 7, 8, 224, 255, 256, 1792, 4096, 1 << 16,
      1L << 20, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE, 1L << 32,
      (1L << 32) + 3, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE / 8, 3_000_000_000L};

  @Provide
  Arbitrary<Mutation> mutations() {
    Arbitrary<Edit> edit = Combinators.combine(Arbitraries.integers().between(0, 7),
        Arbitraries.integers(), Arbitraries.oneOf(Arbitraries.of(
            Arrays.stream(INTERESTING).boxed().toList()), Arbitraries.longs()),
        Arbitraries.integers().between(0, 300)).as(Edit::new);
    return Combinators.combine(edit.list().ofMinSize(1).ofMaxSize(3),
        Arbitraries.integers().between(0, 3).map(i -> i != 0)).as(Mutation::new);
  }

  /** Byte-level edits shared by both decoders. */
  static byte[] bytes(byte[] b, Edit e) {
    int len = b.length;
    int pos = len == 0 ? 0 : Math.floorMod(e.pos(), len);
    switch (e.kind()) {
      case 0:
        if (len > 0) {
          b[pos] ^= (byte) (1 << Math.floorMod(e.value(), 8));
        }
        return b;
      case 1:
        if (len > 0) {
          b[pos] = (byte) e.value();
        }
        return b;
      case 2:
        return Arrays.copyOf(b, len == 0 ? 0 : (int) Math.floorMod(e.value(), (long) len));
      case 3: {
        byte[] x = Arrays.copyOf(b, len + e.length() + 1);
        for (int i = len; i < x.length; i++) {
          x[i] = (byte) (e.value() * (i + 1));
        }
        return x;
      }
      case 4: {
        int k = Math.min(e.length() + 1, len - pos);
        byte[] x = new byte[len - k];
        System.arraycopy(b, 0, x, 0, pos);
        System.arraycopy(b, pos + k, x, pos, len - pos - k);
        return x;
      }
      default: {
        int k = e.length() % 16 + 1;
        byte[] x = new byte[len + k];
        System.arraycopy(b, 0, x, 0, pos);
        for (int i = 0; i < k; i++) {
          x[pos + i] = (byte) (e.value() >>> (8 * (i % 8)));
        }
        System.arraycopy(b, pos, x, pos + k, len - pos);
        return x;
      }
    }
  }

  /** Manifest edits: the byte edits, plus whole-field rewrites (kinds 6 and 7). */
  static byte[] mutateManifest(Mutation m) {
    byte[] b = MANIFEST.clone();
    for (Edit e : m.edits()) {
      if (e.kind() < 6) {
        b = bytes(b, e);
        continue;
      }
      String[] lines = new String(b, StandardCharsets.UTF_8).split("\n", -1);
      int li = Math.floorMod(e.pos(), Math.max(1, lines.length - 1));
      String l = lines[li];
      int eq = l.indexOf('=');
      if (eq >= 0) {
        if (e.kind() == 6) { // a number in the field
          lines[li] = l.substring(0, eq + 1) + e.value();
        } else if (l.startsWith("chunk.") && l.indexOf(' ') > 0) { // a number in a chunk field
          String[] f = l.substring(eq + 1).split(" ");
          f[Math.floorMod(e.length(), f.length)] = Long.toString(e.value());
          lines[li] = l.substring(0, eq + 1) + String.join(" ", f);
        } else { // duplicate a line elsewhere
          lines[Math.floorMod(e.length(), lines.length)] = l;
        }
      }
      b = String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
    }
    if (m.fixCrc()) {
      String t = new String(b, StandardCharsets.ISO_8859_1);
      int tail = t.lastIndexOf("manifest.crc32c=");
      if (tail >= 0) {
        CRC32C crc = new CRC32C();
        crc.update(b, 0, tail);
        byte[] line = ("manifest.crc32c=" + String.format("%08x", (int) crc.getValue()) + "\n")
            .getBytes(StandardCharsets.US_ASCII);
        b = Arrays.copyOf(b, tail + line.length);
        System.arraycopy(line, 0, b, tail, line.length);
      }
    }
    return b;
  }

  static final Map<String, Map<String, Long>> OUTCOMES = new ConcurrentHashMap<>();

  static void count(String decoder, String message) {
    int end = message.length();
    for (int i = 0; i < message.length(); i++) {
      char c = message.charAt(i);
      if (Character.isDigit(c) || c == '\'' || c == '(' || c == '=') {
        end = i;
        break;
      }
    }
    String kind = message.substring(0, Math.min(end, 70)).trim();
    OUTCOMES.computeIfAbsent(decoder, k -> new ConcurrentHashMap<>()).merge(kind, 1L, Long::sum);
  }

  @AfterContainer
  static void printOutcomes() throws IOException {
    OUTCOMES.forEach((decoder, m) -> {
      long total = m.values().stream().mapToLong(Long::longValue).sum();
      System.out.println("fuzz " + decoder + ": " + total + " inputs, " + m.size()
          + " distinct outcomes, decoded " + m.getOrDefault("decoded", 0L));
      m.entrySet().stream().sorted(Map.Entry.comparingByValue(Comparator.reverseOrder()))
          .limit(25).forEach(e -> System.out.println("  " + e.getValue() + "  " + e.getKey()));
    });
    DB.close();
    CHUNK_FILE.close();
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  void manifestDecoder(@ForAll("mutations") Mutation m) {
    byte[] b = mutateManifest(m);
    try {
      Manifest parsed = Manifest.parse(b, "fuzz");
      assertEquals(parsed, Manifest.parse(parsed.toText(), "again"), "a valid manifest");
      count("manifest", "decoded");
    } catch (StoredDatabaseException e) {
      count("manifest", e.getMessage().replace("fuzz: ", ""));
    }
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  void chunkDecoder(@ForAll("mutations") Mutation m) throws IOException {
    byte[] b = CHUNK.clone();
    for (Edit e : m.edits()) {
      b = bytes(b, e);
    }
    // overwrite in place (truncating to zero would make ext4 flush on every try)
    CHUNK_FILE.write(java.nio.ByteBuffer.wrap(b), 0);
    CHUNK_FILE.truncate(b.length);
    Manifest.Chunk c = DB.manifest().chunks().get(0);
    try {
      byte[] got = m.fixCrc() ? DB.readChunk(0) : null;
      if (got == null) {
        DB.verifyChunk(0);
        got = b;
      }
      CRC32C crc = new CRC32C();
      crc.update(got);
      assertEquals(c.bytes(), got.length);
      assertEquals(c.crc32c(), (int) crc.getValue(), "a valid chunk");
      count("chunk", "decoded");
    } catch (StoredDatabaseException e) {
      count("chunk", e.getMessage().substring(DB.directory().toString().length()));
    }
  }

  @Example
  void hostileManifestsAreRefusedBeforeAnythingIsAllocated() throws IOException {
    String good = new String(MANIFEST, StandardCharsets.UTF_8);
    // a million columns of one chunk each: refused before the chunk list is built
    String huge = withCrc(good.replace("geometry.cols=3", "geometry.cols=2000000000")
        .replace("record.count=548", "record.count=" + 224L * 2_000_000_000L));
    StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
        () -> Manifest.parse(huge, "x"));
    assertTrue(e.getMessage().contains("manifest lists 3 chunks; the geometry needs 2000000000"),
        e.getMessage());
    String lying = withCrc(huge.replace("chunk.count=3", "chunk.count=2000000000"));
    e = assertThrows(StoredDatabaseException.class, () -> Manifest.parse(lying, "x"));
    assertTrue(e.getMessage().contains("declares 2000000000 chunks but has only"),
        e.getMessage());
    String wide = withCrc(good.replace("record.size=8", "record.size=4294967304"));
    e = assertThrows(StoredDatabaseException.class, () -> Manifest.parse(wide, "x"));
    assertTrue(e.getMessage().contains("record.size=4294967304 is out of range"), e.getMessage());
    byte[] notUtf8 = MANIFEST.clone();
    notUtf8[3] = (byte) 0xFF;
    e = assertThrows(StoredDatabaseException.class, () -> Manifest.parse(notUtf8, "x"));
    assertTrue(e.getMessage().contains("not UTF-8"), e.getMessage());
    e = assertThrows(StoredDatabaseException.class,
        () -> Manifest.parse(new byte[Manifest.MAX_BYTES + 1], "x"));
    assertTrue(e.getMessage().contains("more than the"), e.getMessage());
    // a manifest that is not a regular file is refused unread
    Path d = DIR.resolve("dir-manifest");
    Files.createDirectories(d.resolve(Manifest.FILE));
    e = assertThrows(StoredDatabaseException.class, () -> StoredDatabase.readManifest(d));
    assertTrue(e.getMessage().contains("is not a regular file"), e.getMessage());
  }

  static String withCrc(String text) {
    int tail = text.lastIndexOf("manifest.crc32c=");
    CRC32C crc = new CRC32C();
    crc.update(text.substring(0, tail).getBytes(StandardCharsets.UTF_8));
    return text.substring(0, tail) + "manifest.crc32c=" + String.format("%08x",
        (int) crc.getValue()) + "\n";
  }

  @Example
  void theFuzzedFilesAreWellFormedToStartWith() {
    Manifest m = Manifest.parse(MANIFEST, "ok");
    assertEquals(3, m.chunks().size());
    assertEquals(m, DB.manifest());
    assertArrayEquals(CHUNK, Arrays.copyOf(CHUNK, (int) m.chunks().get(0).bytes()));
  }
}
