package org.jpir.spark.server;

import org.jpir.spark.AnswerJob;
import org.jpir.spark.source.SyntheticSourceFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.QueryCounters;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchMetricsTest extends SparkTestBase {
  static final Params P = Presets.TEST_INSECURE_256;

  @Test
  void everyBatchReportsSparksComponentsWithPlausibleValues(@TempDir Path dir) throws Exception {
    SecureRandom rnd = new SecureRandom();
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 37, 1792, 3);
    Geometry g = Geometry.of(P, 8 * 37, 1792, 8);
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src,
        ColumnPartitioning.of(new int[] {0, 9, 18, 27, 37}, 1),
        DistributedPirServer.Workload.single());
    int parts = server.partitioning().count();
    assertEquals(4, parts);
    PirClient client = new PirClient(P, g, SecretKey.generate(P, rnd), rnd);
    List<ClientQuery> qs = List.of(client.query(3), client.query(200));
    long wire = 0;
    for (ClientQuery q : qs) {
      wire += Wire.writeQuery(q).length;
    }
    DistributedPirServer.BatchResult r = Batches.classic(server, qs);
    Answer[] a = r.answers();
    DistributedPirServer.BatchStats[] st = {r.stats()};
    SyntheticRecords truth = (SyntheticRecords) src.open();
    assertArrayEquals(truth.record(3), client.decode(a[0], 3));
    assertArrayEquals(truth.record(200), client.decode(a[1], 200));
    SparkBatchMetrics m = st[0].spark();
    assertEquals(parts, m.tasks(), "one task per partition (no tree stage below the fan-in): " + m);
    assertEquals(1, m.stages());
    // the broadcast carries the queries' wire bytes once, in pieces on the driver
    assertTrue(m.broadcastBytes() >= wire && m.broadcastBytes() < 2 * wire + (1 << 16),
        "broadcast " + m.broadcastBytes() + " for " + wire + " bytes of queries");
    // every partition returns at least one node per query: 2 x 256 x 2 x 6 digits of 16 bits
    long node = 2L * 6 * P.n() * 2;
    assertTrue(m.resultBytes() >= parts * qs.size() * node, m.describe());
    assertTrue(m.resultBytes() < parts * qs.size() * 4 * node + (1 << 16), m.describe());
    long wallMs = st[0].wallNanos() / 1_000_000;
    assertTrue(m.runMs() > 0 && m.runMs() <= 2 * (wallMs + 1) * 2, m.describe());
    assertTrue(m.schedulerDelayMs() >= 0 && m.schedulerDelayMs() <= 2 * (wallMs + 1), m.describe());
    assertTrue(m.deserializeMs() >= 0 && m.gcMs() >= 0, m.describe());
    // the tasks lie inside the job: the longest within the span, the span within the wall
    assertTrue(m.longestTaskMs() > 0 && m.longestTaskMs() <= m.taskSpanMs(), m.describe());
    assertTrue(m.taskSpanMs() <= wallMs + 1, m.describe() + "; wall " + wallMs + " ms");
    assertTrue(m.runMs() <= parts * m.longestTaskMs(), m.describe());
    // the answer job's summary and metrics file carry the same figures per batch
    Path qdir = Files.createDirectories(dir.resolve("q"));
    for (int i = 0; i < 3; i++) {
      // named as a client names them: a query id of 32 hex digits
      Files.write(qdir.resolve(String.format("%032x", i) + ".query"),
          Wire.writeQuery(client.query(i * 50)));
    }
    AnswerJob.Summary s = AnswerJob.run(server, P, qdir, dir.resolve("a"), 2, null);
    assertEquals(3, s.answered());
    assertEquals(2 * parts, s.spark().tasks(), s.spark().describe());
    JsonNode j = new ObjectMapper().readTree(s.json());
    assertEquals(3, j.get("answered").asInt());
    assertEquals(2, j.get("batches").size());
    long sum = 0;
    for (JsonNode b : j.get("batches")) {
      assertEquals(parts, b.get("spark").get("tasks").asInt());
      assertTrue(b.get("spark").get("broadcast_bytes").asLong() > 0);
      assertTrue(b.get("spark").has("scheduler_delay_ms") && b.get("spark").has("gc_ms")
          && b.get("spark").has("task_deserialize_ms") && b.get("spark").has("result_bytes"));
      sum += b.get("spark").get("result_bytes").asLong();
    }
    assertEquals(s.spark().resultBytes(), sum);
    assertEquals(sum, j.get("spark").get("result_bytes").asLong());
  }

  /**
   * The answer path's promise, counted: in this JVM (the driver and, in local mode, the only
   * executor) each query is decoded once (on acceptance) and expanded once, although four range
   * tasks, the tree stage's merge tasks and the driver's root all use its expansion.
   */
  @Test
  void eachQueryIsDecodedOnceAndExpandedOncePerJvm() {
    SecureRandom rnd = new SecureRandom();
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 37, 1792, 4);
    Geometry g = Geometry.of(P, 8 * 37, 1792, 8);
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src,
        ColumnPartitioning.of(new int[] {0, 9, 18, 27, 37}, 1),
        DistributedPirServer.Workload.single());
    server.fanIn(2); // a tree stage: its merge tasks take the GGSWs of their JVM's expansions
    PirClient client = new PirClient(P, g, SecretKey.generate(P, rnd), rnd);
    long[] idx = {5, 250, 100};
    ClassicQueries kind = new ClassicQueries(P);
    List<AcceptedQuery> qs = Arrays.stream(idx).mapToObj(i -> kind.accept(client.query(i), g))
        .toList();
    DistributedPirServer.BatchResult r = server.answer(qs);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (int i = 0; i < idx.length; i++) {
      assertArrayEquals(truth.record(idx[i]), client.decode(r.answers()[i], idx[i]));
      assertEquals(1, QueryCounters.decodes(qs.get(i).wire()), "query " + i + " decoded once");
      assertEquals(1, QueryCounters.expansions(qs.get(i).wire()), "query " + i
          + " expanded once");
    }
    SparkBatchMetrics m = r.stats().spark();
    assertTrue(m.stages() >= 2, m.describe());
    assertTrue(m.broadcastBytes() > 0, "the one hand-off is the broadcast: " + m.describe());
    assertTrue(r.stats().driver().jobNanos() > 0
        && r.stats().driver().jobNanos() <= r.stats().wallNanos());
  }
}
