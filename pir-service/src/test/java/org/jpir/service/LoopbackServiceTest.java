package org.jpir.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jpir.api.v1.DatabaseConfig;
import org.jpir.api.v1.GetConfigResponse;
import org.jpir.client.net.NetworkPirClient;
import org.jpir.client.net.RemoteDatabase;
import org.jpir.client.net.RetryPolicy;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.client.PirQueryClients;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.service.batch.BatchListener;
import org.jpir.service.batch.BatchSettings;
import org.jpir.service.feed.DirectoryFeed;
import org.jpir.spark.source.Storage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service end to end on loopback: a real Spark local context, the gRPC server on Netty at
 * 127.0.0.1, several concurrent clients through the network client (classic and compact, keys
 * uploaded once), every record decoded and compared with the plaintext database, at most one
 * micro-batch per call (calls arriving together share one); query files of a
 * watched directory go through the same micro-batcher beside the calls.
 */
class LoopbackServiceTest {
  static ServiceFixture fx;

  @BeforeAll
  static void start() throws Exception {
    fx = new ServiceFixture(new BatchSettings(16, 40, 64, 4, 200));
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  @Test
  void configNamesBothDatabasesWithTheirConfigIdsAndLimits() throws Exception {
    ManagedChannel ch = fx.channel();
    try (NetworkPirClient c = new NetworkPirClient(ch, "cfg", RetryPolicy.defaults())) {
      GetConfigResponse r = c.config();
      assertEquals(2, r.getDatabasesCount());
      DatabaseConfig plain = r.getDatabases(0);
      assertEquals("plain", plain.getName());
      assertEquals(ServiceFixture.CLASSIC.id(), plain.getPresetId());
      assertEquals(ServiceFixture.PLAIN_COUNT, plain.getGeometry().getRecordCount());
      assertEquals(fx.plain.current().configId(), plain.getConfigId());
      assertEquals(64, plain.getConfigId().length());
      assertTrue(!plain.getCompact() && r.getDatabases(1).getCompact());
      assertEquals(16, r.getMaxQueriesPerCall());
      assertEquals(fx.server.maxInboundBytes(), r.getMaxMessageBytes());
      assertTrue(r.getMaxMessageBytes() >= 16 * plain.getMaxQueryBytes(),
          "a full call of the largest queries fits: " + r);
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  void queryFilesAndCallsAreAnsweredThroughTheSameMicroBatcher(@TempDir Path dir)
      throws Exception {
    Path q = Files.createDirectories(dir.resolve("q"));
    Path a = dir.resolve("a");
    PirQueryClient c = PirQueryClients.generate(ServiceFixture.CLASSIC, fx.plain.geometry(), "x",
        new SecureRandom());
    QueryIdMap ids = new QueryIdMap();
    long[] idx = {0, 1234, ServiceFixture.PLAIN_COUNT - 1};
    long answeredBefore = fx.server.batcher().queriesAnswered();
    DirectoryFeed feed = fx.server.watch(Storage.at(q.toUri().toString()),
        Storage.at(a.toUri().toString()), "plain");
    try {
      for (long i : idx) {
        drop(q, ids.add(i, new SecureRandom()), c.queryMessage(i));
      }
      byte[] good = c.queryMessage(7);
      String bad = QueryIdMap.newId(new SecureRandom());
      drop(q, bad, Arrays.copyOf(good, good.length / 3));
      ManagedChannel ch = fx.channel();
      try (NetworkPirClient net = new NetworkPirClient(ch, "beside-files",
          RetryPolicy.defaults())) {
        assertArrayEquals(fx.plainTruth().record(99), net.database("plain").retrieve(99));
      } finally {
        ch.shutdownNow();
      }
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (count(a, ".answer") < idx.length || count(a, ".error") < 1) {
        assertTrue(System.nanoTime() < end, "the files were not all answered");
        Thread.sleep(50);
      }
      SyntheticRecords truth = fx.plainTruth();
      for (var e : ids.entries().entrySet()) {
        byte[] ans = Files.readAllBytes(a.resolve(e.getKey() + ".answer"));
        assertArrayEquals(truth.record(e.getValue()), c.decodeMessage(ans, e.getValue()));
      }
      assertTrue(Files.readString(a.resolve(bad + ".error")).contains("malformed query"));
      assertEquals(answeredBefore + idx.length + 1, fx.server.batcher().queriesAnswered(),
          "the files' queries and the call's went through the one micro-batcher");
    } finally {
      feed.close();
    }
  }

  @Test
  void healthSaysServingAndReflectionListsTheService() throws Exception {
    ManagedChannel ch = fx.channel();
    try {
      io.grpc.health.v1.HealthCheckResponse h = io.grpc.health.v1.HealthGrpc.newBlockingStub(ch)
          .check(io.grpc.health.v1.HealthCheckRequest.newBuilder()
              .setService("jpir.v1.PirService").build());
      assertEquals(io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING, h.getStatus());
      java.util.concurrent.CompletableFuture<List<String>> names =
          new java.util.concurrent.CompletableFuture<>();
      var req = io.grpc.reflection.v1.ServerReflectionGrpc.newStub(ch).serverReflectionInfo(
          new io.grpc.stub.StreamObserver<io.grpc.reflection.v1.ServerReflectionResponse>() {
            @Override
            public void onNext(io.grpc.reflection.v1.ServerReflectionResponse r) {
              names.complete(r.getListServicesResponse().getServiceList().stream()
                  .map(io.grpc.reflection.v1.ServiceResponse::getName).toList());
            }

            @Override
            public void onError(Throwable t) {
              names.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
            }
          });
      req.onNext(io.grpc.reflection.v1.ServerReflectionRequest.newBuilder()
          .setListServices("").build());
      assertTrue(names.get(30, TimeUnit.SECONDS).contains("jpir.v1.PirService"),
          names.get().toString());
      req.onCompleted();
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  void clientFetchCommandRetrievesOverTheNetwork(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("recs.bin");
    assertEquals(0, org.jpir.client.cli.ClientCli.run("fetch", "--server", "127.0.0.1:"
        + fx.server.port(), "--database", "plain", "--index", "5,2999", "--out",
        out.toString()));
    SyntheticRecords truth = fx.plainTruth();
    byte[] want = new byte[2 * ServiceFixture.PLAIN_SIZE];
    System.arraycopy(truth.record(5), 0, want, 0, ServiceFixture.PLAIN_SIZE);
    System.arraycopy(truth.record(2999), 0, want, ServiceFixture.PLAIN_SIZE,
        ServiceFixture.PLAIN_SIZE);
    assertArrayEquals(want, Files.readAllBytes(out));
    // an index outside the database is refused by the client before anything is sent
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> org.jpir.client.cli.ClientCli.run("fetch",
            "--server", "127.0.0.1:" + fx.server.port(), "--database", "plain", "--index",
            "3000"));
    assertTrue(e.getMessage().contains("3000") || e.getMessage().contains("outside"),
        e.getMessage());
  }

  /** A client writes a query file atomically: a temporary name, then a rename. */
  private static void drop(Path dir, String id, byte[] query) throws Exception {
    Path tmp = dir.resolve("." + id + ".tmp");
    Files.write(tmp, query);
    Files.move(tmp, dir.resolve(id + ".query"), StandardCopyOption.ATOMIC_MOVE);
  }

  private static long count(Path d, String suffix) throws Exception {
    if (!Files.isDirectory(d)) {
      return 0;
    }
    try (var st = Files.list(d)) {
      return st.filter(f -> f.toString().endsWith(suffix)).count();
    }
  }

  @Test
  void concurrentClientsGetEveryRecordExactly() throws Exception {
    SyntheticRecords plainTruth = fx.plainTruth();
    SyntheticRecords compactTruth = fx.compactTruth();
    long batchesBefore = fx.server.batcher().microBatches();
    int clients = 5;
    int callsEach = 3;
    ExecutorService pool = Executors.newFixedThreadPool(clients + 1);
    List<ManagedChannel> channels = new ArrayList<>();
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int k = 0; k < clients; k++) {
        ManagedChannel ch = fx.channel();
        channels.add(ch);
        String id = "client-" + k;
        done.add(pool.submit(() -> {
          SecureRandom rnd = new SecureRandom();
          int checked = 0;
          try (NetworkPirClient c = new NetworkPirClient(ch, id, RetryPolicy.defaults())) {
            RemoteDatabase db = c.database("plain");
            for (int call = 0; call < callsEach; call++) {
              long[] idx = {rnd.nextInt((int) ServiceFixture.PLAIN_COUNT),
                  ServiceFixture.PLAIN_COUNT - 1 - rnd.nextInt(100)};
              List<byte[]> recs = db.retrieve(idx);
              for (int j = 0; j < idx.length; j++) {
                assertArrayEquals(plainTruth.record(idx[j]), recs.get(j), id + " record "
                    + idx[j]);
                checked++;
              }
            }
          }
          return checked;
        }));
      }
      ManagedChannel cch = fx.channel();
      channels.add(cch);
      done.add(pool.submit(() -> {
        try (NetworkPirClient c = new NetworkPirClient(cch, "alice", RetryPolicy.defaults())) {
          RemoteDatabase db = c.database("compact");
          long[] idx = {0, ServiceFixture.COMPACT_COUNT - 1, 77};
          List<byte[]> recs = db.retrieve(idx);
          for (int j = 0; j < idx.length; j++) {
            assertArrayEquals(compactTruth.record(idx[j]), recs.get(j), "compact " + idx[j]);
          }
          // the keys are held now: a second client object of the same keys uploads nothing
          assertEquals(org.jpir.api.v1.KeyState.KEY_STATE_PRESENT, c.keyStatus(
              db.config().getPresetId(), db.config().getParameterRevision()).getState());
          assertArrayEquals(compactTruth.record(5), db.retrieve(5));
          // more indices than one call may carry (16) go in several calls
          long[] many = new long[20];
          for (int j = 0; j < many.length; j++) {
            many[j] = (j * 37L) % ServiceFixture.COMPACT_COUNT;
          }
          List<byte[]> all = db.retrieve(many);
          for (int j = 0; j < many.length; j++) {
            assertArrayEquals(compactTruth.record(many[j]), all.get(j), "compact " + many[j]);
          }
          return idx.length + 1 + many.length;
        }
      }));
      int total = 0;
      for (Future<Integer> f : done) {
        total += f.get(300, TimeUnit.SECONDS);
      }
      assertEquals(clients * callsEach * 2 + 4 + 20, total);
      // the listener hears a micro-batch after its answers went out: wait for the last one
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (fx.stats.stream().filter(st -> st.number() > batchesBefore)
          .mapToInt(BatchListener.Stats::queries).sum() < total && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      long batches = fx.server.batcher().microBatches() - batchesBefore;
      assertTrue(batches >= 1 && batches <= clients * callsEach + 4, "micro-batches: "
          + batches);
      List<BatchListener.Stats> mine = fx.stats.stream()
          .filter(st -> st.number() > batchesBefore).toList();
      assertEquals(batches, mine.size(), "the listener heard every micro-batch");
      assertEquals(clients * callsEach * 2 + 4 + 20, mine.stream()
          .mapToInt(BatchListener.Stats::queries).sum(), "each query answered once");
      assertTrue(mine.stream().allMatch(st -> st.queries() <= 16), "the size bound holds");
    } finally {
      pool.shutdownNow();
      channels.forEach(ManagedChannel::shutdownNow);
    }
  }
}
