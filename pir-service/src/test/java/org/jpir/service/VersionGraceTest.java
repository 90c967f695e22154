package org.jpir.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.client.net.NetworkPirClient;
import org.jpir.client.net.RemoteDatabase;
import org.jpir.client.net.RetryPolicy;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.datasets.store.LocalDatabaseFiles;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabaseUpdater;
import org.jpir.datasets.store.StoredDatabaseWriter;
import org.jpir.datasets.store.UpdateFile;
import org.jpir.service.batch.BatchSettings;
import org.jpir.service.db.ServedDatabase;
import org.jpir.service.keys.MemoryServiceKeys;
import org.jpir.service.rpc.ClientIdInterceptor;
import org.jpir.spark.SparkSetup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data update while the service runs: the service moves to the new version between
 * micro-batches (a new config id), a query made for the previous config id is still answered on
 * the previous version during the grace period, and afterwards gets FAILED_PRECONDITION naming
 * the current config id (the network client then takes the new config and asks again); queries
 * for the new config id decode to the new record. Closing the
 * server answers the calls it had accepted before it stops.
 */
class VersionGraceTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SyntheticRecords SRC = new SyntheticRecords(8 * 17 * 19 + 5, 100, 7);
  static final long GRACE_MILLIS = 3000;
  @TempDir Path dir;

  @Test
  void previousConfigAnsweredDuringGraceThenNamedOutdated() throws Exception {
    Geometry g = Geometry.of(P, SRC.recordCount(), SRC.recordSize(), 8);
    Path db = dir.resolve("db");
    StoredDatabaseWriter.write(db, P, g, SRC, 4, "test", Map.of(), null);
    long changed = 6 * Manifest.recordsPerColumn(g) + 3;
    byte[] newValue = new byte[SRC.recordSize()];
    new SecureRandom().nextBytes(newValue);
    try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.conf("jpir-grace-test",
        "local[2,3]"))) {
      sc.setLogLevel("WARN");
      ServedDatabase served = ServedDatabase.prepare(sc, "versioned", db.toString(), null, 8, 2,
          2, GRACE_MILLIS);
      assertEquals(1, served.current().dataVersion());
      PirNetworkServer server = PirNetworkServer.start(new InetSocketAddress(
          InetAddress.getLoopbackAddress(), 0), List.of(served), new MemoryServiceKeys(Set.of(),
          null), new BatchSettings(8, 20, 32, 2, 50), 64, new ClientIdInterceptor());
      ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", server.port())
          .usePlaintext().build();
      try (NetworkPirClient c = new NetworkPirClient(ch, "v", RetryPolicy.defaults())) {
        RemoteDatabase v1 = c.database("versioned");
        assertArrayEquals(SRC.record(changed), v1.retrieve(changed));
        StoredDatabaseUpdater.apply(new LocalDatabaseFiles(db), UpdateFile.parse(
            new StringReader("put " + changed + " hex:" + HexFormat.of().formatHex(newValue)
                + "\n"), "u", SRC.recordSize()));
        long end = System.nanoTime() + 120_000_000_000L;
        while (c.config().getDatabases(0).getDataVersion() != 2) {
          if (System.nanoTime() > end) {
            throw new AssertionError("the service did not move to data version 2");
          }
          Thread.sleep(50);
        }
        RemoteDatabase v2 = c.database("versioned");
        assertNotEquals(v1.config().getConfigId(), v2.config().getConfigId());
        // during the grace period: the old config is answered on the old version
        assertArrayEquals(SRC.record(changed), v1.retrieve(changed));
        assertArrayEquals(newValue, v2.retrieve(changed));
        assertArrayEquals(SRC.record(17), v2.retrieve(17));
        String oldConfig = v1.config().getConfigId();
        byte[] oldQuery = v1.client().queryMessage(changed);
        Thread.sleep(GRACE_MILLIS + 300);
        // after it: the old config id is named outdated, with the current one
        io.grpc.Metadata hv = new io.grpc.Metadata();
        hv.put(io.grpc.Metadata.Key.of("x-jpir-client", io.grpc.Metadata.ASCII_STRING_MARSHALLER),
            "v");
        org.jpir.api.v1.QueryResult late = org.jpir.api.v1.PirServiceGrpc.newBlockingStub(ch)
            .withInterceptors(io.grpc.stub.MetadataUtils.newAttachHeadersInterceptor(hv))
            .answer(org.jpir.api.v1.AnswerRequest.newBuilder().setDatabase("versioned")
                .addQueries(org.jpir.api.v1.Query.newBuilder().setRequestId("late")
                    .setConfigId(oldConfig).setQuery(com.google.protobuf.ByteString.copyFrom(
                        oldQuery))).build()).getResults(0);
        assertEquals(Status.Code.FAILED_PRECONDITION.value(), late.getError().getCode());
        assertEquals(v2.config().getConfigId(), late.getError().getCurrentConfigId());
        // the library takes the new config of the same shape and asks again, once
        assertArrayEquals(newValue, v1.retrieve(changed));
        assertEquals(v2.config().getConfigId(), v1.config().getConfigId());
        assertArrayEquals(newValue, v2.retrieve(changed));

        // shutdown drains: three calls accepted, then the server closes; all three are answered
        org.jpir.core.client.PirQueryClient qc = v2.client();
        io.grpc.Metadata h = new io.grpc.Metadata();
        h.put(io.grpc.Metadata.Key.of("x-jpir-client", io.grpc.Metadata.ASCII_STRING_MARSHALLER),
            "drain");
        var stub = org.jpir.api.v1.PirServiceGrpc.newFutureStub(ch).withInterceptors(
            io.grpc.stub.MetadataUtils.newAttachHeadersInterceptor(h));
        long before = server.batcher().queriesAnswered();
        long[] idx = {changed, 5, 2000};
        List<com.google.common.util.concurrent.ListenableFuture<org.jpir.api.v1.AnswerResponse>>
            calls = new java.util.ArrayList<>();
        for (int k = 0; k < idx.length; k++) {
          calls.add(stub.answer(org.jpir.api.v1.AnswerRequest.newBuilder()
              .setDatabase("versioned").addQueries(org.jpir.api.v1.Query.newBuilder()
                  .setRequestId("drain-" + k).setConfigId(v2.config().getConfigId())
                  .setQuery(com.google.protobuf.ByteString.copyFrom(qc.queryMessage(idx[k]))))
              .build()));
        }
        long accepted = System.nanoTime() + 60_000_000_000L;
        while (server.batcher().queued() + server.batcher().queriesAnswered() - before
            < idx.length) {
          if (System.nanoTime() > accepted) {
            throw new AssertionError("the three calls were not accepted");
          }
          Thread.sleep(5);
        }
        server.close(30_000);
        for (int k = 0; k < idx.length; k++) {
          byte[] want = idx[k] == changed ? newValue : SRC.record(idx[k]);
          assertArrayEquals(want, qc.decodeMessage(calls.get(k).get(60, TimeUnit.SECONDS)
              .getResults(0).getAnswer().getAnswer().toByteArray(), idx[k]));
        }
      } finally {
        ch.shutdownNow();
        server.close(30_000);
      }
    }
  }
}
