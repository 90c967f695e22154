package org.jpir.service;

import io.grpc.ManagedChannel;
import io.grpc.ServerInterceptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.service.batch.BatchListener;
import org.jpir.service.batch.BatchSettings;
import org.jpir.service.db.ServedDatabase;
import org.jpir.service.keys.StoredServiceKeys;
import org.jpir.service.rpc.ClientIdInterceptor;
import org.jpir.spark.SparkSetup;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.source.SyntheticSourceFactory;

/**
 * A real service for the tests: a local Spark context ({@code local[2,3]}), two small synthetic
 * databases prepared on it (a classic one of the insecure test preset and a compact one) and the
 * gRPC server on 127.0.0.1 at a free port, with small micro-batches and the key store
 * {@link StoredServiceKeys} in memory on a clock the tests move.
 */
final class ServiceFixture implements AutoCloseable {
  static final Params CLASSIC = Presets.TEST_INSECURE_256;
  static final CompactParams COMPACT = CompactParams.TEST_INSECURE_256_COMPACT;
  static final long PLAIN_COUNT = 3000;
  static final int PLAIN_SIZE = 64;
  static final long COMPACT_COUNT = 8 * 21;
  static final long KEY_TTL = 86_400_000L;

  final JavaSparkContext sc;
  final SyntheticSourceFactory plainSource = new SyntheticSourceFactory(PLAIN_COUNT, PLAIN_SIZE,
      7);
  final SyntheticSourceFactory compactSource;
  final ServedDatabase plain;
  final ServedDatabase compact;
  final PirNetworkServer server;
  /** The key store's clock (tests move it to expire keys). */
  final AtomicLong clock = new AtomicLong(System.currentTimeMillis());
  /** The service's key store: in memory, keys expire a day after their last use. */
  final StoredServiceKeys keys = new StoredServiceKeys(Set.of(COMPACT), null, KEY_TTL,
      256L << 20, clock::get);
  /** Every micro-batch's figures, as the batch listener heard them. */
  final List<BatchListener.Stats> stats = new CopyOnWriteArrayList<>();

  ServiceFixture(BatchSettings settings) throws Exception {
    this(settings, new ClientIdInterceptor(), b -> { });
  }

  /** As above, with the client ids (and quotas) of {@code ids} and the transport settings. */
  ServiceFixture(BatchSettings settings, ServerInterceptor ids,
      Consumer<NettyServerBuilder> transport) throws Exception {
    this(settings, ids, transport, BatchListener.NONE);
  }

  /** As above, with {@code listener} also told about every micro-batch and Spark batch. */
  ServiceFixture(BatchSettings settings, ServerInterceptor ids,
      Consumer<NettyServerBuilder> transport, BatchListener listener) throws Exception {
    sc = new JavaSparkContext(SparkSetup.conf("jpir-service-test", "local[2,3]"));
    sc.setLogLevel("WARN");
    Geometry g = Geometry.choose(CLASSIC, PLAIN_COUNT, PLAIN_SIZE, 1024);
    plain = new ServedDatabase("plain", CLASSIC, g, Map.of(), DistributedPirServer.prepare(sc,
        CLASSIC, g, plainSource, 2, new DistributedPirServer.Workload(settings.sparkBatch(),
        null)), null, 0, 0);
    int rs = COMPACT.server().bytesPerPolynomial();
    compactSource = new SyntheticSourceFactory(COMPACT_COUNT, rs, 12);
    Geometry cg = Geometry.of(COMPACT.server(), COMPACT_COUNT, rs, 8);
    compact = new ServedDatabase("compact", COMPACT.server(), cg, Map.of(),
        DistributedPirServer.prepare(sc, COMPACT.server(), cg, compactSource, 2,
            new DistributedPirServer.Workload(settings.sparkBatch(), COMPACT)), null, 0, 0);
    server = PirNetworkServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        List.of(plain, compact), keys, settings, 256, ids, transport, new BatchListener() {
          @Override
          public void answered(Stats st) {
            stats.add(st);
            listener.answered(st);
          }

          @Override
          public void sparkBatch(DistributedPirServer.BatchStats st) {
            listener.sparkBatch(st);
          }
        });
  }

  /** A plaintext channel to the server. */
  ManagedChannel channel() {
    return NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext()
        .maxInboundMessageSize(64 << 20).build();
  }

  SyntheticRecords plainTruth() {
    return (SyntheticRecords) plainSource.open();
  }

  SyntheticRecords compactTruth() {
    return (SyntheticRecords) compactSource.open();
  }

  @Override
  public void close() throws Exception {
    try {
      server.close(30_000);
    } finally {
      sc.stop();
    }
  }
}
