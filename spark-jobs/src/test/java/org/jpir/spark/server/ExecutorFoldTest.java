package org.jpir.spark.server;

import org.jpir.spark.SparkSetup;
import org.jpir.spark.source.SyntheticSourceFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fold across partitions runs on the executors: with a {@code spark.driver.maxResultSize}
 * smaller than the partitions' nodes of a batch, collecting them on the driver aborts the job,
 * while the executor-side tree returns few nodes and every answer decodes to its record.
 */
class ExecutorFoldTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final long MAX_RESULT = 300 << 10;
  static JavaSparkContext sc;

  @BeforeAll
  static void start() {
    SparkConf c = SparkSetup.conf("jpir-fold-test", "local[2]");
    c.set("spark.driver.maxResultSize", Long.toString(MAX_RESULT));
    sc = new JavaSparkContext(c);
    sc.setLogLevel("WARN");
  }

  @AfterAll
  static void stop() {
    if (sc != null) {
      sc.stop();
      sc = null;
    }
  }

  @Test
  void driverReceivesBoundedNodesUnderASmallMaxResultSize() throws Exception {
    SecureRandom rnd = new SecureRandom();
    int cols = 16 * 128 + 37; // one row per column: 17 partitions, the last one short
    SyntheticSourceFactory src = new SyntheticSourceFactory(cols, 1792, 5);
    Geometry g = Geometry.of(P, cols, 1792, 1);
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src, 16);
    assertTrue(server.partitioning().count() >= 16, server.partitioning().count() + " parts");
    PirClient client = new PirClient(P, g, SecretKey.generate(P, rnd), rnd);
    long[] idx = {0, 1023, 1024, 2047, 2048, cols - 1};
    List<ClientQuery> qs = new ArrayList<>();
    for (long i : idx) {
      qs.add(client.query(i));
    }
    // the partitions' spans collected on the driver exceed the limit: Spark aborts the job
    server.fanIn(64);
    Exception e = assertThrows(Exception.class,
        () -> Batches.classic(server, qs));
    assertTrue(String.valueOf(e.getMessage()).contains("spark.driver.maxResultSize"),
        e.getMessage());
    // the executor-side tree: a fan-in of 2 leaves 2 spans for the driver
    Map<Integer, Long> resultBytes = new ConcurrentHashMap<>();
    Map<Integer, Long> shuffleBytes = new ConcurrentHashMap<>();
    java.util.Set<Integer> stages = ConcurrentHashMap.newKeySet();
    SparkListener l = new SparkListener() {
      @Override
      public void onStageSubmitted(org.apache.spark.scheduler.SparkListenerStageSubmitted s) {
        stages.add(s.stageInfo().stageId());
      }

      @Override
      public void onTaskEnd(SparkListenerTaskEnd end) {
        // the aborted job's tasks still running end later: count only this batch's stages
        if (end.taskMetrics() != null && stages.contains(end.stageId())) {
          resultBytes.merge(end.stageId(), end.taskMetrics().resultSize(), Long::sum);
          shuffleBytes.merge(end.stageId(),
              end.taskMetrics().shuffleWriteMetrics().bytesWritten(), Long::sum);
        }
      }
    };
    sc.sc().addSparkListener(l);
    server.fanIn(2);
    Answer[] a;
    try {
      a = Batches.classic(server, qs).answers();
      sc.sc().listenerBus().waitUntilEmpty();
    } finally {
      sc.sc().removeSparkListener(l);
    }
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (int i = 0; i < idx.length; i++) {
      assertArrayEquals(truth.record(idx[i]), client.decode(a[i], idx[i]), "record " + idx[i]);
    }
    int firstStage = resultBytes.keySet().stream().min(Integer::compare).orElseThrow();
    int lastStage = resultBytes.keySet().stream().max(Integer::compare).orElseThrow();
    assertTrue(resultBytes.size() >= 4, "the tree ran in several stages: " + resultBytes);
    assertTrue(shuffleBytes.get(firstStage) > MAX_RESULT, "the partitions' spans ("
        + shuffleBytes.get(firstStage) + " bytes) exceed the limit the driver may receive");
    assertTrue(resultBytes.get(lastStage) < MAX_RESULT / 2, "the driver received "
        + resultBytes.get(lastStage) + " bytes");
  }
}
