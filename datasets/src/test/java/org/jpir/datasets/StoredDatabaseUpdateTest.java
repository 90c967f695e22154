package org.jpir.datasets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.datasets.store.LocalDatabaseFiles;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseException;
import org.jpir.datasets.store.StoredDatabaseUpdater;
import org.jpir.datasets.store.StoredDatabaseWriter;
import org.jpir.datasets.store.UpdateFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoredDatabaseUpdateTest {
  static final Params P = Presets.TEST_INSECURE_256;
  /** 8 rows x 20 columns, 136 records a column, 4 columns (544 records) a chunk, 5 chunks. */
  static final SyntheticRecords SRC = new SyntheticRecords(8 * 17 * 19 + 5, 100, 42);

  @TempDir
  Path tmp;

  Path write() throws IOException {
    Geometry g = Geometry.of(P, SRC.recordCount(), SRC.recordSize(), 8);
    Path dir = tmp.resolve("db");
    StoredDatabaseWriter.write(dir, P, g, SRC, 4, "test", Map.of(), null);
    return dir;
  }

  static UpdateFile parse(String text) throws IOException {
    return UpdateFile.parse(new StringReader(text), "updates.txt", SRC.recordSize());
  }

  /** Every record of the current version of {@code dir} against {@code expect}. */
  static void assertRecords(Path dir, Map<Long, byte[]> expect, long count) throws IOException {
    try (StoredDatabase db = StoredDatabase.open(dir, P)) {
      db.verify();
      assertEquals(count, db.recordCount());
      byte[] rec = new byte[SRC.recordSize()];
      for (long i = 0; i < count; i++) {
        db.read(i, rec, 0);
        byte[] want = expect.containsKey(i) ? expect.get(i)
            : i < SRC.recordCount() ? SRC.record(i) : new byte[SRC.recordSize()];
        assertArrayEquals(want, rec, "record " + i);
      }
    }
  }

  static byte[] padded(byte[] v) {
    return java.util.Arrays.copyOf(v, SRC.recordSize());
  }

  @Test
  void anUpdateChangesExactlyItsRecordsAndRewritesOnlyTheirChunks() throws IOException {
    Path dir = write();
    byte[] a = new byte[100];
    new Random(1).nextBytes(a);
    byte[] b = {1, 2, 3};
    // record 5 (chunk 0) replaced twice (the later line wins), 1200 (chunk 2) deleted,
    // 2600 appended (chunk 4; 2589..2599 become zero records)
    String text = "# test update\n\nput 5 hex:" + HexFormat.of().formatHex(b) + "\n"
        + "put 5 base64:" + Base64.getEncoder().encodeToString(a) + "\r\n"
        + "delete 1200\n"
        + "put 2600 hex:ff\n";
    StoredDatabaseUpdater.Result r = StoredDatabaseUpdater.apply(new LocalDatabaseFiles(dir),
        parse(text));
    assertEquals(List.of(0, 2, 4), r.rewrittenChunks());
    assertEquals(2, r.after().dataVersion());
    assertEquals(1, r.before().dataVersion());
    assertTrue(Files.exists(dir.resolve("manifest-v000002.txt")));
    assertTrue(Files.exists(dir.resolve("manifest.txt")), "the old version stays readable");
    assertEquals("chunk-000001.bin", r.after().chunks().get(1).file(), "chunk 1 is shared");
    assertEquals("chunk-000002-v000002.bin", r.after().chunks().get(2).file());
    TreeMap<Long, byte[]> expect = new TreeMap<>();
    expect.put(5L, a);
    expect.put(1200L, new byte[100]);
    byte[] ff = new byte[100];
    ff[0] = (byte) 0xff;
    expect.put(2600L, ff);
    assertRecords(dir, expect, 2601);
    // the old version is untouched and still opens by number
    try (StoredDatabase v1 = StoredDatabase.open(dir, P, 1)) {
      v1.verify();
      byte[] rec = new byte[100];
      v1.read(5, rec, 0);
      assertArrayEquals(SRC.record(5), rec);
      assertEquals(SRC.recordCount(), v1.recordCount());
    }
    // a second update builds on the first: chunk 0 keeps its v2 file, chunk 3 gets a v3 file
    StoredDatabaseUpdater.Result r3 = StoredDatabaseUpdater.apply(new LocalDatabaseFiles(dir),
        parse("put 1700 hex:" + HexFormat.of().formatHex(b) + "\n"));
    assertEquals(List.of(3), r3.rewrittenChunks());
    assertEquals(3, StoredDatabase.readManifest(dir).dataVersion());
    assertEquals("chunk-000000-v000002.bin", r3.after().chunks().get(0).file());
    expect.put(1700L, padded(b));
    assertRecords(dir, expect, 2601);
    assertFalse(Files.exists(dir.resolve(StoredDatabaseUpdater.LOCK)));
  }

  @Test
  void aCrashBeforeThePublishLeavesTheOldVersionCurrentAndWhole() throws IOException {
    Path dir = write();
    for (String crashAt : List.of("chunk 2", "manifest")) {
      RuntimeException e = assertThrows(RuntimeException.class, () -> StoredDatabaseUpdater.apply(
          new LocalDatabaseFiles(dir), parse("put 7 hex:01\nput 1300 hex:02\n"), w -> {
            if (w.equals(crashAt)) {
              throw new IllegalStateException("simulated crash at " + w);
            }
          }));
      assertTrue(e.getMessage().contains("simulated crash"), e.getMessage());
      assertEquals(1, StoredDatabase.readManifest(dir).dataVersion(), crashAt);
      assertRecords(dir, Map.of(), SRC.recordCount());
    }
    // what a real crash leaves: a stray chunk of the unpublished version, a temporary manifest
    Files.write(dir.resolve("chunk-000000-v000002.bin"), new byte[17]);
    Files.write(dir.resolve(".manifest-v000002.txt.tmp-1234"), new byte[] {'x'});
    assertEquals(1, StoredDatabase.readManifest(dir).dataVersion());
    assertRecords(dir, Map.of(), SRC.recordCount());
    // and a stale lock: refused with a clear message, nothing changes
    Files.write(dir.resolve(StoredDatabaseUpdater.LOCK), new byte[0]);
    StoredDatabaseException locked = assertThrows(StoredDatabaseException.class,
        () -> StoredDatabaseUpdater.apply(new LocalDatabaseFiles(dir), parse("put 7 hex:01\n")));
    assertTrue(locked.getMessage().contains("update.lock exists"), locked.getMessage());
    Files.delete(dir.resolve(StoredDatabaseUpdater.LOCK));
    // the next update overwrites the stray chunk file
    StoredDatabaseUpdater.apply(new LocalDatabaseFiles(dir), parse("put 7 hex:01\n"));
    byte[] one = new byte[100];
    one[0] = 1;
    assertRecords(dir, Map.of(7L, one), SRC.recordCount());
  }

  @Test
  void badUpdateFilesAreRefusedNamingTheLineAndChangeNothing() throws IOException {
    Path dir = write();
    List<String[]> bad = new ArrayList<>();
    bad.add(new String[] {"put 1 hex:00\nput x hex:00\n", "line 2", "index 'x'"});
    bad.add(new String[] {"put 1 hex:0\n", "line 1", "not hex"});
    bad.add(new String[] {"put 1 zz:00\n", "line 1", "hex: or base64:"});
    bad.add(new String[] {"put 1 base64:@@@@\n", "line 1", "not base64"});
    bad.add(new String[] {"\n\nupsert 1 hex:00\n", "line 3", "unknown operation"});
    bad.add(new String[] {"delete\n", "line 1", "expected 'delete INDEX'"});
    bad.add(new String[] {"put 1\n", "line 1", "found 2 fields"});
    bad.add(new String[] {"put -1 hex:00\n", "line 1", "non-negative"});
    bad.add(new String[] {"put 1 hex:" + "00".repeat(101) + "\n", "line 1", "record size 100"});
    for (String[] c : bad) {
      StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
          () -> StoredDatabaseUpdater.apply(new LocalDatabaseFiles(dir), parse(c[0])), c[0]);
      assertTrue(e.getMessage().contains(c[1]) && e.getMessage().contains(c[2]), e.getMessage());
    }
    StoredDatabaseException tooLong = assertThrows(StoredDatabaseException.class,
        () -> parse("put 1 hex:" + "0".repeat(UpdateFile.MAX_LINE) + "\n"));
    assertTrue(tooLong.getMessage().contains("line 1: longer than"), tooLong.getMessage());
    UpdateFile noNewline = parse("delete 3\nput 4 hex:01");
    assertEquals(2, noNewline.ops().size(), "a last line without a newline counts");
    assertEquals(4, noNewline.ops().get(1).index());
    assertEquals(2, noNewline.ops().get(1).line());
    // well-formed lines that the database refuses: past the end, past the grid
    String[][] refused = {{"put 1 hex:00\ndelete 2589\n", "line 2", "past the last record"},
        {"put 3 hex:00\nput 2720 hex:00\n", "line 2", "larger grid"}};
    for (String[] c : refused) {
      StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
          () -> StoredDatabaseUpdater.apply(new LocalDatabaseFiles(dir), parse(c[0])), c[0]);
      assertTrue(e.getMessage().contains(c[1]) && e.getMessage().contains(c[2]), e.getMessage());
    }
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(6, s.count(), "manifest.txt and the 5 chunks only: nothing was written");
    }
    assertRecords(dir, Map.of(), SRC.recordCount());
  }

  @Test
  void keywordDatabasesAreRefused() throws IOException {
    Geometry g = Geometry.of(P, SRC.recordCount(), SRC.recordSize(), 8);
    Path dir = tmp.resolve("kw");
    StoredDatabaseWriter.write(dir, P, g, SRC, 4, "test", Map.of("keyword.test", "1"), null);
    StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
        () -> StoredDatabaseUpdater.apply(new LocalDatabaseFiles(dir), parse("put 1 hex:00\n")));
    assertTrue(e.getMessage().contains("keyword databases cannot be updated"), e.getMessage());
    assertEquals(1, StoredDatabase.readManifest(dir).dataVersion());
  }

  @Test
  void aManifestUnderAnotherVersionsNameIsRefused() throws IOException {
    Path dir = write();
    Files.copy(dir.resolve(Manifest.FILE), dir.resolve("manifest-v000002.txt"));
    StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
        () -> StoredDatabase.open(dir, P));
    assertTrue(e.getMessage().contains("says data.version=1"), e.getMessage());
  }
}
