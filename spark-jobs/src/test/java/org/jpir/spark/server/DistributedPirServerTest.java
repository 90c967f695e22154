package org.jpir.spark.server;

import org.jpir.spark.AnswerJob;
import org.jpir.spark.source.DatabaseSpec;
import org.jpir.spark.source.SyntheticSourceFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DistributedPirServerTest extends SparkTestBase {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void answersEqualSingleJvmAnswersByteForByteAcrossPartitionsAndRetries() throws Exception {
    // 8 rows x 37 columns (not a power of two), 5 unaligned partitions of uneven widths
    // (narrower than the planner makes them, so the fold crosses every kind of boundary)
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 37, 1792, 3);
    Geometry g = Geometry.of(P, 8 * 37, 1792, 8);
    assertEquals(37, g.cols());
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src,
        ColumnPartitioning.of(new int[] {0, 5, 8, 19, 20, 37}, 1),
        DistributedPirServer.Workload.single());
    assertEquals(5, server.partitioning().count());
    PirClient client = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    QueryExpander ex = new QueryExpander(P);
    long[] idx = {0, 8 * 37 - 1, 100};
    List<ClientQuery> cqs = new ArrayList<>();
    List<PreparedQuery> qs = new ArrayList<>();
    for (long i : idx) {
      cqs.add(client.query(i));
      qs.add(ex.expand(cqs.get(cqs.size() - 1), g));
    }
    java.util.concurrent.atomic.AtomicInteger failed = new java.util.concurrent.atomic.AtomicInteger();
    org.apache.spark.scheduler.SparkListener listener = new org.apache.spark.scheduler.SparkListener() {
      @Override
      public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
        if (end.taskInfo().failed()) {
          failed.incrementAndGet();
        }
      }
    };
    sc.sc().addSparkListener(listener);
    server.inject(Faults.firstAttemptOf(2));
    Answer[] dist = Batches.classic(server, cqs).answers();
    server.inject(Faults.NONE);
    sc.sc().listenerBus().waitUntilEmpty();
    sc.sc().removeSparkListener(listener);
    assertEquals(1, failed.get(), "the injected first attempt failed once and was retried");
    PreparedDatabase db = PreparedDatabase.prepare(P, g, src.open());
    PirServer single = new PirServer(P);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (int i = 0; i < idx.length; i++) {
      assertArrayEquals(single.answer(db, qs.get(i), null).data(), dist[i].data(),
          "distributed answer " + i + " equals the single-JVM one");
      assertArrayEquals(truth.record(idx[i]), client.decode(dist[i], idx[i]));
    }
    // a lost cache is prepared again from the source and gives the same answers
    server.unpersist();
    Answer[] again = Batches.classic(server, cqs.subList(0, 1)).answers();
    assertArrayEquals(dist[0].data(), again[0].data());
  }

  @Test
  void multiPlaneRecordsAndABatchWithACorruptQuery(@TempDir Path dir) throws Exception {
    SyntheticSourceFactory src = new SyntheticSourceFactory(13, 4000, 4); // 3 planes
    Geometry g = Geometry.of(P, 13, 4000, 4);
    assertEquals(3, g.planes());
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src, 2);
    PirClient client = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    Path qdir = Files.createDirectories(dir.resolve("q"));
    // query ids as a client draws them (32 hex digits): aa..a, bb..b, cc..c, dd..d
    Files.write(qdir.resolve("a".repeat(32) + ".query"), Wire.writeQuery(client.query(0)));
    byte[] bad = Wire.writeQuery(client.query(5));
    bad[bad.length / 3] ^= 0x40;
    Files.write(qdir.resolve("b".repeat(32) + ".query"), bad);
    Files.write(qdir.resolve("c".repeat(32) + ".query"), Wire.writeQuery(client.query(12)));
    Files.write(qdir.resolve("d".repeat(32) + ".query"),
        "not a query".getBytes(StandardCharsets.UTF_8));
    AnswerJob.Summary s = AnswerJob.run(server, P, qdir, dir.resolve("out"), 4);
    assertEquals(2, s.answered());
    assertEquals(2, s.rejected());
    String err = Files.readString(dir.resolve("out/" + "b".repeat(32) + ".error"));
    assertTrue(err.contains("checksum mismatch"), err);
    String truncated = Files.readString(dir.resolve("out/" + "d".repeat(32) + ".error"));
    assertTrue(truncated.contains("truncated"), truncated);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (long i : new long[] {0, 12}) {
      String name = i == 0 ? "a" : "c";
      Answer a = Wire.readAnswer(Files.readAllBytes(dir.resolve("out/" + name.repeat(32)
          + ".answer")), P);
      assertTrue(Arrays.equals(truth.record(i), client.decode(a, i)), "record " + i);
    }
  }

  @Test
  void storedDatabasePartitionsReadTheirChunks(@TempDir Path dir) throws Exception {
    SyntheticRecords src = new SyntheticRecords(3000, 100, 8);
    Geometry g = Geometry.choose(P, 3000, 100, 1024);
    Path db = dir.resolve("db");
    org.jpir.datasets.store.StoredDatabaseWriter.write(db, P, g, src, 4, "test", java.util.Map.of(),
        null);
    DatabaseSpec spec = DatabaseSpec.parse(db.toString());
    assertEquals(P, spec.params(null));
    assertEquals(g, spec.geometry(P, 7));
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, spec.factory(), 3);
    PirClient client = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    Answer[] a = Batches.classic(server, List.of(client.query(0), client.query(2999)))
        .answers();
    assertArrayEquals(src.record(0), client.decode(a[0], 0));
    assertArrayEquals(src.record(2999), client.decode(a[1], 2999));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> spec.params("test-insecure-1024"));
    assertTrue(e.getMessage().contains("stored for preset"), e.getMessage());
  }

  @Test
  void aRetriedTaskGivesTheSameAnswers() {
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 19, 1792, 21);
    Geometry g = Geometry.of(P, 8 * 19, 1792, 8);
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src, 3);
    PirClient client = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    List<ClientQuery> qs = List.of(client.query(0), client.query(151),
        client.query(40));
    Answer[] onDriver = Batches.classic(server, qs).answers();
    server.inject(Faults.firstAttemptOf(1));
    DistributedPirServer.BatchResult onExec = Batches.classic(server, qs);
    Answer[] onExecutors = onExec.answers();
    server.inject(Faults.NONE);
    assertTrue(onExec.stats().expandNanos() > 0);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    long[] idx = {0, 151, 40};
    for (int i = 0; i < idx.length; i++) {
      assertArrayEquals(onDriver[i].data(), onExecutors[i].data(), "query " + i);
      assertArrayEquals(truth.record(idx[i]), client.decode(onExecutors[i], idx[i]));
    }
  }
}
