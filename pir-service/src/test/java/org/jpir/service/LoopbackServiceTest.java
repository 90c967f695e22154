package org.jpir.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import java.security.SecureRandom;
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
import org.jpir.core.server.SyntheticRecords;
import org.jpir.service.batch.BatchSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The service end to end on loopback: a real Spark local context, the gRPC server on Netty at
 * 127.0.0.1, several concurrent clients through the network client (classic and compact, keys
 * uploaded once), every record decoded and compared with the plaintext database; the
 * micro-batcher gathers their calls into fewer micro-batches than calls.
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
          return idx.length + 1;
        }
      }));
      int total = 0;
      for (Future<Integer> f : done) {
        total += f.get(300, TimeUnit.SECONDS);
      }
      assertEquals(clients * callsEach * 2 + 4, total);
      long batches = fx.server.batcher().microBatches() - batchesBefore;
      assertTrue(batches >= 1 && batches <= clients * callsEach + 2, "micro-batches: "
          + batches);
    } finally {
      pool.shutdownNow();
      channels.forEach(ManagedChannel::shutdownNow);
    }
  }
}
