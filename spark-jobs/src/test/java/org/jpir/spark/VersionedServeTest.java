package org.jpir.spark;

import org.jpir.spark.server.ColumnPartitioning;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.SparkTestBase;
import org.jpir.spark.source.HadoopStoredSourceFactory;
import org.jpir.spark.source.RecordSourceFactory;
import org.jpir.spark.source.Storage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.RecordSource;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.store.LocalDatabaseFiles;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabaseUpdater;
import org.jpir.datasets.store.StoredDatabaseWriter;
import org.jpir.datasets.store.UpdateFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service across a database update: a micro-batch answered on version 1, the update applied
 * between micro-batches, the next micro-batch answered on version 2 with only the partitions of
 * the changed chunks prepared again, every answer decoding to its version's record and tagged
 * with that version.
 */
class VersionedServeTest extends SparkTestBase {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SecureRandom RANDOM = new SecureRandom();
  /** 8 rows x 20 columns, 136 records a column, 4 columns a chunk: 5 chunks. */
  static final SyntheticRecords SRC = new SyntheticRecords(8 * 17 * 19 + 5, 100, 7);
  @TempDir Path dir;

  @Test
  void oneMicroBatchOnTheOldVersionTheNextOnTheNewWithOnlyChangedPartitionsPreparedAgain()
      throws Exception {
    Geometry g = Geometry.of(P, SRC.recordCount(), SRC.recordSize(), 8);
    Path db = dir.resolve("db");
    StoredDatabaseWriter.write(db, P, g, SRC, 4, "test", Map.of(), null);
    String uri = db.toUri().toString();
    VersionWatch watch = new VersionWatch(uri);
    assertEquals(1, watch.version());
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g,
        new HadoopStoredSourceFactory(uri, 4, 1), ColumnPartitioning.of(new int[] {0, 4, 8, 12, 16, 20}, 4),
        new DistributedPirServer.Workload(2, null));
    int partitions = server.partitioning().count();
    assertEquals(5, partitions, "one partition a chunk");
    long rpc = Manifest.recordsPerColumn(g);
    long changedRecord = 6 * rpc + 3; // column 6: chunk 1, partition 1
    long untouched = 17 * rpc + 1; // column 17: chunk 4
    byte[] newValue = new byte[SRC.recordSize()];
    RANDOM.nextBytes(newValue);

    Path qdir = Files.createDirectories(dir.resolve("q"));
    Path adir = dir.resolve("a");
    Storage qs = Storage.at(qdir.toUri().toString());
    Storage as = Storage.at(adir.toUri().toString());
    PirClient c = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    QueryIdMap ids = new QueryIdMap();
    List<String> wave1 = new ArrayList<>();
    List<String> wave2 = new ArrayList<>();
    List<String> wave3 = new ArrayList<>();
    for (long i : new long[] {changedRecord, untouched}) {
      String id = ids.add(i, RANDOM);
      Files.write(qdir.resolve(id + ".query"), Wire.writeQuery(c.query(i)));
      wave1.add(id);
    }
    List<AnswerJob.Summary> micro = new ArrayList<>();
    ServeJob.Summary s = ServeJob.serve(server, P, qs, as, 2, 10, null,
        10, 0, () -> micro.size() == 3, m -> {
          micro.add(m);
          if (micro.size() == 1) {
            try {
              StoredDatabaseUpdater.apply(new LocalDatabaseFiles(db), UpdateFile.parse(
                  new StringReader("put " + changedRecord + " hex:"
                      + HexFormat.of().formatHex(newValue) + "\n"), "u", SRC.recordSize()));
              for (long i : new long[] {changedRecord, untouched}) {
                String id = ids.add(i, RANDOM);
                Files.write(qdir.resolve(id + ".query"), Wire.writeQuery(c.query(i)));
                wave2.add(id);
              }
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          } else if (micro.size() == 2) {
            // a broken version 3 (a manifest that fails its checksum): refused, v2 goes on
            try {
              Files.writeString(db.resolve("manifest-v000003.txt"), "format=jpir-stored-database\n");
              String id = ids.add(untouched, RANDOM);
              Files.write(qdir.resolve(id + ".query"), Wire.writeQuery(c.query(untouched)));
              wave3.add(id);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          }
        }, watch);
    assertEquals(5, s.answered());
    assertEquals(3, s.microBatches());
    assertEquals(1, s.versionSwitches());
    assertEquals(2, s.dataVersion());
    assertEquals(1, s.repreparedPartitions(), "only the partition of the changed chunk");
    assertEquals(2, micro.get(0).answered());
    assertEquals(2, micro.get(1).answered());
    for (String id : wave1) {
      assertEquals("data.version=1\n", Files.readString(adir.resolve(id + ".version")));
      long i = ids.entries().get(id);
      assertArrayEquals(SRC.record(i), decode(c, adir, id, i, g), "v1 record " + i);
    }
    assertEquals("data.version=2\n", Files.readString(adir.resolve(wave3.get(0) + ".version")));
    assertArrayEquals(SRC.record(untouched), decode(c, adir, wave3.get(0), untouched, g));
    for (String id : wave2) {
      assertEquals("data.version=2\n", Files.readString(adir.resolve(id + ".version")));
      long i = ids.entries().get(id);
      assertArrayEquals(i == changedRecord ? newValue : SRC.record(i), decode(c, adir, id, i, g),
          "v2 record " + i);
    }
  }

  static byte[] decode(PirClient c, Path adir, String id, long i, Geometry g) throws Exception {
    return c.decode(Wire.readAnswer(Files.readAllBytes(adir.resolve(id + ".answer")), P, g), i);
  }

  @Test
  void changedPartitionsAreThoseHoldingAChangedChunk() throws Exception {
    Geometry g = Geometry.of(P, SRC.recordCount(), SRC.recordSize(), 8);
    Path db = dir.resolve("db2");
    StoredDatabaseWriter.write(db, P, g, SRC, 4, "test", Map.of(), null);
    Manifest a = org.jpir.datasets.store.StoredDatabase.readManifest(db);
    long rpc = Manifest.recordsPerColumn(g);
    // chunks 0 (column 1) and 3 (column 13); partitions of 8, 8 and 4 columns
    StoredDatabaseUpdater.apply(new LocalDatabaseFiles(db), UpdateFile.parse(new StringReader(
        "delete " + (rpc + 2) + "\nput " + (13 * rpc) + " hex:01\n"), "u", SRC.recordSize()));
    Manifest b = org.jpir.datasets.store.StoredDatabase.readManifest(db);
    ColumnPartitioning parts = ColumnPartitioning.of(new int[] {0, 8, 16, 20}, 4);
    java.util.BitSet ch = VersionWatch.changedPartitions(a, b, parts);
    Set<Integer> got = new TreeSet<>();
    ch.stream().forEach(got::add);
    assertEquals(Set.of(0, 1), got);
    assertFalse(VersionWatch.changedPartitions(a, a, parts).get(2));
    assertTrue(VersionWatch.changedPartitions(a, a, parts).isEmpty());
  }

  /** Counts the partitions it prepares (local mode: executors share this JVM). */
  record CountingFactory(RecordSourceFactory inner) implements RecordSourceFactory {
    static final java.util.concurrent.atomic.AtomicInteger PREPARED =
        new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public RecordSource open() {
      return inner.open();
    }

    @Override
    public PreparedDatabase prepare(Params p, Geometry g, int first, int count) {
      PREPARED.incrementAndGet();
      return inner.prepare(p, g, first, count);
    }

    @Override
    public String describe() {
      return "counting " + inner.describe();
    }
  }

  @Test
  void aChainOfVersionsPreparesEachChangedPartitionOnceAndNoOlderOne() throws Exception {
    Geometry g = Geometry.of(P, SRC.recordCount(), SRC.recordSize(), 8);
    Path db = dir.resolve("db3");
    StoredDatabaseWriter.write(db, P, g, SRC, 4, "test", Map.of(), null);
    String uri = db.toUri().toString();
    ColumnPartitioning parts = ColumnPartitioning.of(new int[] {0, 8, 16, 20}, 4);
    CountingFactory.PREPARED.set(0);
    DistributedPirServer s0 = DistributedPirServer.prepare(sc, P, g,
        new CountingFactory(new HadoopStoredSourceFactory(uri, 4, 1)), parts,
        DistributedPirServer.Workload.single());
    assertEquals(3, CountingFactory.PREPARED.get());
    java.util.BitSet all = new java.util.BitSet();
    all.set(0, 3);
    java.util.BitSet one = new java.util.BitSet();
    one.set(1);
    long[] n = new long[1];
    // each older server dropped before the next is built (as the service does when every
    // partition changes): building version k must not prepare version k-1's partitions again
    s0.unpersist();
    DistributedPirServer s1 = s0.withChangedPartitions(g,
        new CountingFactory(new HadoopStoredSourceFactory(uri, 4, 1)), all, n);
    assertEquals(3, n[0]);
    assertEquals(6, CountingFactory.PREPARED.get());
    s1.unpersist();
    DistributedPirServer s2 = s1.withChangedPartitions(g,
        new CountingFactory(new HadoopStoredSourceFactory(uri, 4, 1)), all, n);
    assertEquals(9, CountingFactory.PREPARED.get(), "nothing of s1 prepared again");
    DistributedPirServer s3 = s2.withChangedPartitions(g,
        new CountingFactory(new HadoopStoredSourceFactory(uri, 4, 1)), one, n);
    assertEquals(1, n[0]);
    assertEquals(10, CountingFactory.PREPARED.get(), "one partition, the others passed through");
    // local mode: the executor is this JVM, so identity hashes name the cached objects
    java.util.List<Integer> a = s2.cachedPartitions()
        .map(pp -> System.identityHashCode(pp.database())).collect();
    java.util.List<Integer> b = s3.cachedPartitions()
        .map(pp -> System.identityHashCode(pp.database())).collect();
    assertEquals(a.get(0), b.get(0), "the same cached object");
    assertEquals(a.get(2), b.get(2), "the same cached object");
    assertTrue(!a.get(1).equals(b.get(1)), "partition 1 prepared again");
    s2.unpersist();
    s3.unpersist();
  }
}
