package org.jpir.spark;

import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.SparkTestBase;
import org.jpir.spark.source.Storage;
import org.jpir.spark.source.SyntheticSourceFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service mode in local mode: queries arriving while it runs are answered, a bad one gets its
 * error file and the service goes on, a stop request ends it between micro-batches, and a restart
 * on the same directories answers only what has no answer (no duplicate, none missing).
 */
class ServeJobTest extends SparkTestBase {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SecureRandom RANDOM = new SecureRandom();
  @TempDir Path dir;

  private static void waitFor(String what, java.util.function.BooleanSupplier c) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!c.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }

  private static long count(Path d, String suffix) throws Exception {
    if (!Files.isDirectory(d)) {
      return 0;
    }
    try (var s = Files.list(d)) {
      return s.filter(f -> f.toString().endsWith(suffix)).count();
    }
  }

  /** A client writes a query atomically: a temporary name, then a rename. */
  private static void drop(Path qdir, String id, byte[] q) throws Exception {
    Path tmp = qdir.resolve("." + id + ".tmp");
    Files.write(tmp, q);
    Files.move(tmp, qdir.resolve(id + ".query"), StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void answersQueriesAsTheyArriveAndARestartAnswersOnlyTheMissing() throws Exception {
    long count = 5000;
    SyntheticSourceFactory src = new SyntheticSourceFactory(count, 64, 3);
    Geometry g = Geometry.choose(P, count, 64, 1024);
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src, 2,
        new DistributedPirServer.Workload(2, null));
    Path qdir = Files.createDirectories(dir.resolve("q"));
    Path adir = dir.resolve("a");
    Storage qs = Storage.at(qdir.toUri().toString());
    Storage as = Storage.at(adir.toUri().toString());
    PirClient c = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    QueryIdMap ids = new QueryIdMap();
    AtomicBoolean stop = new AtomicBoolean();
    java.util.List<AnswerJob.Summary> micro = new java.util.concurrent.CopyOnWriteArrayList<>();
    CompletableFuture<ServeJob.Summary> run = CompletableFuture.supplyAsync(() -> {
      try {
        return ServeJob.serve(server, P, qs, as, 2, 3, null,
            50, 0, stop::get, micro::add);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    // first wave, while the service runs
    long[] first = {0, 4999, 1234};
    for (long i : first) {
      drop(qdir, ids.add(i, RANDOM), Wire.writeQuery(c.query(i)));
    }
    waitFor("3 answers", () -> {
      try {
        return count(adir, ".answer") == 3;
      } catch (Exception e) {
        return false;
      }
    });
    // second wave: two good queries and a truncated one
    long[] second = {42, 3000};
    for (long i : second) {
      drop(qdir, ids.add(i, RANDOM), Wire.writeQuery(c.query(i)));
    }
    byte[] q = Wire.writeQuery(c.query(7));
    String bad = QueryIdMap.newId(RANDOM);
    drop(qdir, bad, Arrays.copyOf(q, q.length / 3));
    waitFor("5 answers and 1 error", () -> {
      try {
        return count(adir, ".answer") == 5 && count(adir, ".error") == 1;
      } catch (Exception e) {
        return false;
      }
    });
    stop.set(true);
    ServeJob.Summary s = run.get(120, TimeUnit.SECONDS);
    assertEquals(5, s.answered());
    assertEquals(1, s.rejected());
    assertTrue(s.microBatches() >= 2, "two waves, at least two micro-batches: " + s);
    assertEquals(s.microBatches(), micro.size(), "one metrics record per micro-batch");
    assertEquals(5, micro.stream().mapToInt(AnswerJob.Summary::answered).sum());
    assertTrue(micro.stream().allMatch(m -> m.json().contains("\"answered\"")));
    assertTrue(Files.exists(adir.resolve(bad + ".error")));

    // restart after losing one answer: exactly that query is answered again, the bad file is
    // not retried, nothing else is touched
    String lost = ids.entries().keySet().iterator().next();
    Files.delete(adir.resolve(lost + ".answer"));
    int[] polls = {0};
    ServeJob.Summary again = ServeJob.serve(server, P, qs, as, 2, 3, null,
        10, () -> ++polls[0] > 3
            && ServeJob.pending(qs, as).isEmpty());
    assertEquals(1, again.answered());
    assertEquals(0, again.rejected());
    assertEquals(5, count(adir, ".answer"));
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (var e : ids.entries().entrySet()) {
      byte[] a = Files.readAllBytes(adir.resolve(e.getKey() + ".answer"));
      assertArrayEquals(truth.record(e.getValue()), c.decode(Wire.readAnswer(a, P, g),
          e.getValue()));
    }
  }
}
