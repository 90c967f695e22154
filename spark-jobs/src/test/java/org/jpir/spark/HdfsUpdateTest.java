package org.jpir.spark;

import org.jpir.spark.source.HadoopStoredSourceFactory;
import org.jpir.spark.source.Storage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.jpir.core.params.Geometry;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabaseWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code setup update} on a database in a real HDFS ({@link MiniDFSCluster}): the new version is
 * published by HDFS's rename (which refuses an existing target), only changed chunks are written,
 * readers through Hadoop's FileSystem see the new records and can still open the old version, a
 * held lock refuses a second update.
 */
class HdfsUpdateTest {
  static MiniDFSCluster cluster;
  static FileSystem fs;

  @BeforeAll
  static void startHdfs(@TempDir Path base) throws IOException {
    cluster = MiniHdfs.start(base);
    fs = cluster.getFileSystem();
  }

  @AfterAll
  static void stopHdfs() {
    if (cluster != null) {
      cluster.shutdown(true);
      cluster = null;
    }
  }

  @Test
  void updatesADatabaseOnHdfs(@TempDir Path local) throws Exception {
    var src = DatabaseUpdateCliTest.SRC;
    Geometry g = Geometry.of(DatabaseUpdateCliTest.P, src.recordCount(), src.recordSize(), 8);
    StoredDatabaseWriter.write(local.resolve("db"), DatabaseUpdateCliTest.P, g, src, 4, "test",
        Map.of(), null);
    String root = fs.getUri().toString();
    Storage.at(root + "/data").putDirectory(local.resolve("db"), "db");
    String uri = root + "/data/db";
    Path u = local.resolve("u.txt");
    Files.writeString(u, "put 600 hex:ff\n");
    String out = DatabaseUpdateCliTest.run("--db", uri, "--updates", u.toString());
    assertTrue(out.contains("data version 1 -> 2: 1 operations, 1 of 5 chunks rewritten"), out);
    Storage dir = Storage.at(uri);
    assertTrue(dir.exists("manifest-v000002.txt"));
    assertTrue(dir.exists("chunk-000001-v000002.bin"));
    assertFalse(dir.exists("chunk-000000-v000002.bin"), "unchanged chunks are not copied");
    assertFalse(dir.exists("update.lock"));
    assertEquals(2, HadoopStoredSourceFactory.currentVersion(uri));
    byte[] ff = new byte[src.recordSize()];
    ff[0] = (byte) 0xff;
    DatabaseUpdateCliTest.assertRecords(new HadoopStoredSourceFactory(uri, 4).open(),
        Map.of(600L, ff));
    DatabaseUpdateCliTest.assertRecords(new HadoopStoredSourceFactory(uri, 4, 1).open(),
        Map.of());
    Manifest m2 = HadoopStoredSourceFactory.manifest(uri, 2);
    assertEquals(2, m2.dataVersion());
    // a held lock: refused, nothing changes
    dir.write("update.lock", new byte[0]);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DatabaseUpdate.parse(System.out, "--db", uri, "--updates", u.toString()).call());
    assertTrue(e.getMessage().contains("update.lock exists"), e.getMessage());
    assertEquals(2, HadoopStoredSourceFactory.currentVersion(uri));
    // publishing never replaces a version that exists
    var files = dir.databaseFiles();
    assertThrows(org.jpir.datasets.store.StoredDatabaseException.class,
        () -> files.publish("manifest-v000002.txt", new byte[] {1}));
    assertEquals(m2, HadoopStoredSourceFactory.manifest(uri, 2));
  }
}
