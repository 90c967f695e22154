package org.jpir.spark;

import org.jpir.spark.source.HadoopStoredSourceFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.server.RecordSource;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.store.StoredDatabaseWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The answer job against a real HDFS (a {@link MiniDFSCluster} with one NameNode and one
 * DataNode in this JVM): the stored database, the query files, the evaluation keys, the answers,
 * the error files, the summary and the metrics all live at {@code hdfs://} URIs, and the job runs
 * through {@link PirJob}'s command line in Spark local mode.
 */
class HdfsAnswerJobTest {
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;
  static final Params P = CP.server();
  static final SecureRandom RANDOM = new SecureRandom();
  static MiniDFSCluster cluster;
  static FileSystem fs;
  static String root;

  @BeforeAll
  static void startHdfs(@TempDir Path base) throws IOException {
    cluster = MiniHdfs.start(base);
    fs = cluster.getFileSystem();
    root = fs.getUri().toString(); // hdfs://localhost:PORT
  }

  @AfterAll
  static void stopHdfs() {
    if (cluster != null) {
      cluster.shutdown(true);
      cluster = null;
    }
  }

  @Test
  void answerJobReadsAndWritesEverythingOnHdfsAndEveryRecordDecodesExactly(@TempDir Path local)
      throws Exception {
    long count = 500;
    int recordSize = 300;
    SyntheticRecords truth = new SyntheticRecords(count, recordSize, 77);
    Geometry g = CP.chooseGeometry(count, recordSize);
    // the datasets module's writer into a local directory, copied to HDFS as a directory
    StoredDatabaseWriter.write(local.resolve("db"), P, g, truth, 1, "synthetic for hdfs",
        Map.of(), null);
    String db = root + "/pir/db";
    fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(local.resolve("db").toUri()),
        new org.apache.hadoop.fs.Path(db));
    assertTrue(g.cols() >= 2, "several chunks (one column each) on HDFS: " + g);

    String queries = root + "/pir/queries";
    String keys = root + "/pir/keys";
    String answers = root + "/pir/answers";
    CompactClient alice = new CompactClient(CP, g, CompactClient.generateSecret(CP, RANDOM),
        "alice", RANDOM);
    put(keys + "/alice.evk", Wire.writeEvaluationKeys(alice.evaluationKeys()));
    PirClient bob = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    QueryIdMap ids = new QueryIdMap();
    Map<String, Boolean> compact = new HashMap<>();
    long[] compactIdx = {0, count - 1, 250};
    long[] classicIdx = {1, 333, count - 2};
    for (long i : compactIdx) {
      String id = ids.add(i, RANDOM);
      compact.put(id, true);
      put(queries + "/" + id + ".cquery", Wire.writeCompactQuery(alice.query(i)));
    }
    for (long i : classicIdx) {
      String id = ids.add(i, RANDOM);
      compact.put(id, false);
      put(queries + "/" + id + ".query", Wire.writeQuery(bob.query(i)));
    }
    // hostile: a classic query cut short, and a compact one with a flipped header byte
    byte[] cut = Wire.writeQuery(bob.query(5));
    String truncated = QueryIdMap.newId(RANDOM);
    put(queries + "/" + truncated + ".query", java.util.Arrays.copyOf(cut, cut.length / 2));
    byte[] bad = Wire.writeCompactQuery(alice.query(6));
    bad[0] ^= 0x5a;
    String corrupt = QueryIdMap.newId(RANDOM);
    put(queries + "/" + corrupt + ".cquery", bad);
    // not query files, skipped without an error file: a name the client never writes (holding a
    // valid query) and a directory under a query's name (HDFS: entries that are not files)
    put(queries + "/notes.query", Wire.writeQuery(bob.query(7)));
    fs.mkdirs(new org.apache.hadoop.fs.Path(queries + "/" + QueryIdMap.newId(RANDOM)
        + ".query"));

    int rc = PirJob.run(new String[] {"answer", "--db", db, "--queries", queries, "--out",
        answers, "--keys", keys, "--batch", "8", "--summary", root + "/pir/summary.txt",
        "--metrics", root + "/pir/metrics.json"});
    assertEquals(0, rc);

    for (Map.Entry<String, Long> e : ids.entries().entrySet()) {
      String name = answers + "/" + e.getKey() + ".answer";
      byte[] a = get(name);
      long i = e.getValue();
      byte[] got = compact.get(e.getKey())
          ? alice.decode(Wire.readAnswer(a, P, g), i)
          : bob.decode(Wire.readAnswer(a, P, g), i);
      assertArrayEquals(truth.record(i), got, "record " + i + " from " + name);
      assertFalse(fs.exists(new org.apache.hadoop.fs.Path(answers + "/" + e.getKey()
          + ".error")));
    }
    for (String id : new String[] {truncated, corrupt}) {
      assertFalse(fs.exists(new org.apache.hadoop.fs.Path(answers + "/" + id + ".answer")));
      String err = new String(get(answers + "/" + id + ".error"), StandardCharsets.UTF_8);
      assertTrue(err.contains("rejected"), err);
    }
    String err = new String(get(answers + "/" + truncated + ".error"), StandardCharsets.UTF_8);
    assertTrue(err.contains("truncated") || err.contains("bytes"), err);
    String summary = new String(get(root + "/pir/summary.txt"), StandardCharsets.UTF_8);
    assertTrue(summary.contains("answered=6 rejected=2 skipped=0"), summary);
    String metrics = new String(get(root + "/pir/metrics.json"), StandardCharsets.UTF_8);
    assertTrue(metrics.startsWith("{\"answered\": 6, \"rejected\": 2"), metrics);
    // only queries, answers and error files: no temporary file left behind
    int files = fs.listStatus(new org.apache.hadoop.fs.Path(answers)).length;
    assertEquals(8, files);

    // a second run over the same directories skips everything already answered
    rc = PirJob.run(new String[] {"answer", "--db", db, "--queries", queries, "--out", answers,
        "--keys", keys, "--batch", "8", "--summary", root + "/pir/summary.txt"});
    assertEquals(0, rc);
    summary = new String(get(root + "/pir/summary.txt"), StandardCharsets.UTF_8);
    assertTrue(summary.contains("answered=0 rejected=2 skipped=6"), summary);
  }

  @Test
  void setupTableReadsACsvTableOnHdfsAndWritesTheStoredDatabaseThere() throws Exception {
    int n = 150;
    StringBuilder csv = new StringBuilder("id,text\n");
    for (int i = n - 1; i >= 0; i--) {
      csv.append(i).append(",\"row ").append(i).append(", on hdfs\"\n");
    }
    put(root + "/tables/t.csv", csv.toString().getBytes(StandardCharsets.UTF_8));
    String db = root + "/tables/db";
    String[] args = {"setup", "table", "--format", "csv", "--path", root + "/tables/t.csv",
        "--key-column", "id", "--value-column", "text", "--out", db, "--preset", P.id(),
        "--columns-per-chunk", "1"};
    assertEquals(0, PirJob.run(args));
    org.jpir.datasets.store.Manifest m = HadoopStoredSourceFactory.manifest(db);
    assertEquals(n, m.geometry().recordCount());
    RecordSource stored = new HadoopStoredSourceFactory(db, m.columnsPerChunk())
        .open();
    byte[] r = new byte[stored.recordSize()];
    for (int i = 0; i < n; i++) {
      stored.read(i, r, 0);
      byte[] want = new byte[r.length];
      byte[] v = ("row " + i + ", on hdfs").getBytes(StandardCharsets.UTF_8);
      org.jpir.datasets.LengthPrefix.write(v, 0, v.length, want, 0, want.length, false, "row");
      assertArrayEquals(want, r, "record " + i);
    }
    // no temporary directory left beside it; a second import into the same place is refused
    assertEquals(2, fs.listStatus(new org.apache.hadoop.fs.Path(root + "/tables")).length);
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> PirJob.run(args));
    assertTrue(e.getMessage().contains("already exists"), e.getMessage());
  }

  private static void put(String uri, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(uri), false)) {
      out.write(bytes);
    }
  }

  private static byte[] get(String uri) throws IOException {
    try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(uri))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    }
  }
}
