package org.jpir.datasets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.RecordSource;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseException;
import org.jpir.datasets.store.StoredDatabaseWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoredDatabaseTest {
  static final Params P = Presets.TEST_INSECURE_256;

  @TempDir
  Path tmp;

  /** 8 rows x 20 columns at N=256 (17 records of 100 bytes per polynomial), 4 columns a chunk. */
  Path writeSynthetic(String name, SyntheticRecords src) throws IOException {
    Geometry g = Geometry.of(P, src.recordCount(), src.recordSize(), 8);
    Path dir = tmp.resolve(name);
    StoredDatabaseWriter.write(dir, P, g, src, 4, "test", Map.of(), null);
    return dir;
  }

  static final SyntheticRecords SRC = new SyntheticRecords(8 * 17 * 19 + 5, 100, 42);

  @Test
  void aPairedTailGeometrySurvivesTheManifestAndABadFlagIsNamed() throws IOException {
    int size = P.bytesPerPolynomial() + 40;
    SyntheticRecords src = new SyntheticRecords(30, size, 43);
    Geometry g = Geometry.of(P, 30, size, 6).withPairedTail();
    Path dir = tmp.resolve("paired");
    StoredDatabaseWriter.write(dir, P, g, src, 2, "paired", Map.of(), null);
    try (StoredDatabase db = StoredDatabase.open(dir, P)) {
      assertEquals(g, db.geometry());
      byte[] rec = new byte[size];
      db.read(29, rec, 0);
      assertArrayEquals(src.record(29), rec);
    }
    String text = new String(Files.readAllBytes(dir.resolve(Manifest.FILE)),
        java.nio.charset.StandardCharsets.UTF_8);
    assertTrue(text.contains("geometry.pairedTail=true"), text);
    Manifest m = Manifest.parse(text, "paired");
    assertEquals(m, Manifest.parse(m.toText(), "again"));
    assertEquals(Geometry.of(P, 30, size, 6), Manifest.parse(
        new Manifest(1, P.id(), "plain", g.withoutPairedTail(), m.columnsPerChunk(), m.chunks(),
            Map.of()).toText(), "plain").geometry());
  }

  @Test
  void everyRecordReadsBackAndChunksTileTheColumns() throws IOException {
    Path dir = writeSynthetic("db", SRC);
    try (StoredDatabase db = StoredDatabase.open(dir, P)) {
      Geometry g = db.geometry();
      assertEquals(20, g.cols());
      Manifest m = db.manifest();
      assertEquals(4, m.columnsPerChunk());
      assertEquals(5, m.chunks().size());
      assertEquals(g.rawBytes(), m.storedBytes(), "chunks hold exactly the raw record bytes");
      db.verify();
      byte[] rec = new byte[100];
      for (long i = 0; i < SRC.recordCount(); i++) {
        db.read(i, rec, 0);
        assertArrayEquals(SRC.record(i), rec, "record " + i);
      }
      StoredDatabase.ColumnRange r = db.loadColumns(4, 8);
      for (long i = Manifest.firstRecordOfColumn(g, 4); i < Manifest.firstRecordOfColumn(g, 12);
          i++) {
        r.read(i, rec, 0);
        assertArrayEquals(SRC.record(i), rec, "record " + i);
      }
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> r.read(0, rec, 0));
      assertTrue(e.getMessage().contains("outside columns [4, 12)"), e.getMessage());
    }
  }

  @Test
  void columnRangesOfAStoredDatabaseAnswerPirQueries() throws IOException {
    Path dir = writeSynthetic("pir", SRC);
    SecureRandom rnd = new SecureRandom();
    try (StoredDatabase db = StoredDatabase.open(dir, P)) {
      Geometry g = db.geometry();
      PirClient client = new PirClient(P, g, SecretKey.generate(P, rnd), rnd);
      PirServer server = new PirServer(P);
      PreparedDatabase left = db.prepare(0, 16, null);   // chunks 0-3: one Spark partition
      PreparedDatabase right = db.prepare(16, 4, null);  // chunk 4: another
      for (long i : new long[] {3, 8 * 17 * 16 + 2, SRC.recordCount() - 1}) {
        PreparedQuery q = new QueryExpander(P).expand(client.query(i), g);
        Glwe l = server.answerRange(left, new PreparedQuery[] {q}, null)[0][0];
        Glwe r = server.answerRange(right, new PreparedQuery[] {q}, null)[0][0];
        Glwe root = server.fold(List.of(l, r), PirServer.rangeLevel(g.cols(), 16),
            Geometry.levels(g.cols()), q.ggsw()).get(0);
        assertArrayEquals(SRC.record(i), client.decode(server.toAnswer(new Glwe[] {root}), i),
            "record " + i);
      }
    }
  }

  static void flipByte(Path f, long pos) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.seek(pos);
      int b = raf.read();
      raf.seek(pos);
      raf.write(b ^ 0x01);
    }
  }

  @Test
  void corruptedChunkIsNamedAndOtherChunksStillLoad() throws IOException {
    Path dir = writeSynthetic("corrupt", SRC);
    flipByte(dir.resolve("chunk-000002.bin"), 1234);
    try (StoredDatabase db = StoredDatabase.open(dir)) {
      StoredDatabaseException e = assertThrows(StoredDatabaseException.class, db::verify);
      assertTrue(e.getMessage().contains("chunk chunk-000002.bin is corrupted"), e.getMessage());
      e = assertThrows(StoredDatabaseException.class, () -> db.loadColumns(8, 4));
      assertTrue(e.getMessage().contains("chunk-000002.bin"), e.getMessage());
      byte[] rec = new byte[100];
      long inChunk2 = Manifest.firstRecordOfColumn(db.geometry(), 9);
      e = assertThrows(StoredDatabaseException.class, () -> db.read(inChunk2, rec, 0));
      assertTrue(e.getMessage().contains("chunk-000002.bin"), e.getMessage());
      db.loadColumns(0, 8); // chunks 0 and 1 are intact and read without touching chunk 2
      db.loadColumns(12, 8);
    }
  }

  @Test
  void truncatedChunkIsRejectedOnOpen() throws IOException {
    Path dir = writeSynthetic("trunc", SRC);
    Path f = dir.resolve("chunk-000004.bin");
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.setLength(raf.length() - 7);
    }
    StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
        () -> StoredDatabase.open(dir));
    assertTrue(e.getMessage().contains("chunk chunk-000004.bin")
        && e.getMessage().contains("(truncated)"), e.getMessage());
  }

  @Test
  void insecurePresetDatabaseIsRefusedWithoutTheTestFlag() throws IOException {
    Path dir = writeSynthetic("insecure", SRC);
    String before = System.getProperty(org.jpir.core.params.Security.ALLOW_INSECURE_PROPERTY);
    System.clearProperty(org.jpir.core.params.Security.ALLOW_INSECURE_PROPERTY);
    try {
      StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
          () -> StoredDatabase.open(dir));
      assertTrue(e.getMessage().contains("-Djpir.allowInsecure=true"), e.getMessage());
    } finally {
      if (before != null) {
        System.setProperty(org.jpir.core.params.Security.ALLOW_INSECURE_PROPERTY, before);
      }
    }
    StoredDatabase.open(dir).close();
  }

  @Test
  void truncatedManifestIsRejected() throws IOException {
    Path dir = writeSynthetic("truncm", SRC);
    Path mf = dir.resolve(Manifest.FILE);
    String text = Files.readString(mf);
    Files.writeString(mf, text.substring(0, text.length() / 2));
    StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
        () -> StoredDatabase.open(dir));
    assertTrue(e.getMessage().contains("no manifest.crc32c line (truncated"), e.getMessage());
  }

  @Test
  void wrongManifestVersionIsRejected() throws IOException {
    Path dir = writeSynthetic("version", SRC);
    Path mf = dir.resolve(Manifest.FILE);
    Files.writeString(mf, Files.readString(mf).replace("version=1\n", "version=2\n"));
    StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
        () -> StoredDatabase.open(dir));
    assertTrue(e.getMessage().contains("unsupported manifest version 2"), e.getMessage());
  }

  @Test
  void editedManifestAndMismatchedPresetAreRejected() throws IOException {
    Path dir = writeSynthetic("preset", SRC);
    StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
        () -> StoredDatabase.open(dir, Presets.ONIONPIR_4096));
    assertTrue(e.getMessage().contains("preset mismatch")
        && e.getMessage().contains("'test-insecure-256'")
        && e.getMessage().contains("'onionpir-4096-128'"), e.getMessage());
    Path mf = dir.resolve(Manifest.FILE);
    Files.writeString(mf, Files.readString(mf).replace("preset=test-insecure-256",
        "preset=test-insecure-1024"));
    e = assertThrows(StoredDatabaseException.class, () -> StoredDatabase.open(dir));
    assertTrue(e.getMessage().contains("manifest checksum mismatch"), e.getMessage());
  }

  @Test
  void interruptedWriteLeavesNoDatabase() throws IOException {
    Path dir = tmp.resolve("interrupted");
    long failAt = SRC.recordCount() * 3 / 4;
    Path[] seenTemp = new Path[1];
    RecordSource failing = new RecordSource() {
      @Override
      public long recordCount() {
        return SRC.recordCount();
      }

      @Override
      public int recordSize() {
        return SRC.recordSize();
      }

      @Override
      public void read(long index, byte[] dst, int off) {
        if (index == failAt) {
          // mid-write (as a crash would see it): no database under the name, the temporary
          // directory does not open as one
          assertFalse(Files.exists(dir), "target must not exist before the rename");
          try (Stream<Path> s = Files.list(tmp)) {
            seenTemp[0] = s.filter(p -> p.getFileName().toString().startsWith(".interrupted.tmp-"))
                .findFirst().orElseThrow();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          StoredDatabaseException e = assertThrows(StoredDatabaseException.class,
              () -> StoredDatabase.open(seenTemp[0]));
          assertTrue(e.getMessage().contains("no manifest.txt"), e.getMessage());
          throw new IllegalStateException("source failed at record " + index);
        }
        SRC.read(index, dst, off);
      }
    };
    Geometry g = Geometry.of(P, SRC.recordCount(), SRC.recordSize(), 8);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> StoredDatabaseWriter.write(dir, P, g, failing, 4, "failing", Map.of(), null));
    assertTrue(e.getMessage().contains("source failed"), e.getMessage());
    assertFalse(Files.exists(dir), "no database after a failed write");
    assertFalse(Files.exists(seenTemp[0]), "temporary directory cleaned up");
    StoredDatabaseException e2 = assertThrows(StoredDatabaseException.class,
        () -> StoredDatabase.open(dir));
    assertTrue(e2.getMessage().contains("no manifest.txt"), e2.getMessage());
    // and an existing database is never overwritten
    Path ok = writeSynthetic("exists", SRC);
    assertThrows(java.nio.file.FileAlreadyExistsException.class,
        () -> StoredDatabaseWriter.write(ok, P, g, SRC, 4, "again", Map.of(), null));
  }

  @Test
  void cliImportsPrintsAndVerifies() throws IOException {
    Path dir = tmp.resolve("cli");
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream o = new java.io.PrintStream(out, true, StandardCharsets.UTF_8);
    java.io.PrintStream e = new java.io.PrintStream(err, true, StandardCharsets.UTF_8);
    int rc = org.jpir.datasets.cli.DatasetsCli.run(new String[] {"import", "synthetic", "--count",
        "5000", "--record-size", "300", "--seed", "9", "--preset", P.id(), "--max-rows", "16",
        "--columns-per-chunk", "2", "--out", dir.toString()}, o, e);
    assertEquals(0, rc, err.toString());
    assertTrue(out.toString().contains("MB/s"), out.toString());
    assertEquals(0, org.jpir.datasets.cli.DatasetsCli.run(new String[] {"manifest",
        dir.toString()}, o, e));
    assertTrue(out.toString().contains("chunk.columns=2"), out.toString());
    assertEquals(0, org.jpir.datasets.cli.DatasetsCli.run(new String[] {"verify",
        dir.toString()}, o, e), err.toString());
    flipByte(dir.resolve("chunk-000001.bin"), 10);
    assertEquals(1, org.jpir.datasets.cli.DatasetsCli.run(new String[] {"verify",
        dir.toString()}, o, e));
    assertTrue(err.toString().contains("chunk-000001.bin"), err.toString());
    try (StoredDatabase db = StoredDatabase.open(dir)) {
      byte[] rec = new byte[300];
      db.read(4999, rec, 0);
      assertArrayEquals(new SyntheticRecords(5000, 300, 9).record(4999), rec);
    }
  }
}
