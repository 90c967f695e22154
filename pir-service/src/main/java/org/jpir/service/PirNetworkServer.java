package org.jpir.service;

import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.jpir.api.v1.PirServiceGrpc;
import org.jpir.service.admit.QueryAdmission;
import org.jpir.service.batch.BatchListener;
import org.jpir.service.batch.BatchSettings;
import org.jpir.service.batch.MicroBatcher;
import org.jpir.service.batch.RecentAnswers;
import org.jpir.service.db.ServedDatabase;
import org.jpir.service.feed.DirectoryFeed;
import org.jpir.service.keys.ServiceKeys;
import org.jpir.service.rpc.ClientIdInterceptor;
import org.jpir.service.rpc.PirServiceImpl;
import org.jpir.spark.source.Storage;

/**
 * The gRPC server of the service on the Spark driver: {@code jpir.v1.PirService} behind the
 * client-id interceptor, gRPC health checking ({@code grpc.health.v1}, SERVING while up) and
 * server reflection, on Netty at a given address, with the inbound message limit derived from
 * the databases served ({@link org.jpir.service.rpc.Limits}). One micro-batcher answers every
 * call and every query file of the watched directories ({@link #watch}); {@link #close} stops
 * new calls and files, answers what was accepted, then stops.
 */
public final class PirNetworkServer implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(PirNetworkServer.class);

  private final Server server;
  private final MicroBatcher batcher;
  private final HealthStatusManager health;
  private final PirServiceImpl service;
  private final List<ServedDatabase> databases;
  private final ServiceKeys keys;
  private final BatchSettings settings;
  private final List<DirectoryFeed> feeds = new CopyOnWriteArrayList<>();

  private PirNetworkServer(Server server, MicroBatcher batcher, HealthStatusManager health,
      PirServiceImpl service, List<ServedDatabase> databases, ServiceKeys keys,
      BatchSettings settings) {
    this.server = server;
    this.batcher = batcher;
    this.health = health;
    this.service = service;
    this.databases = List.copyOf(databases);
    this.keys = keys;
    this.settings = settings;
  }

  /**
   * Starts serving {@code databases} on {@code address} (port 0: any free port), with the
   * client id from {@code clientIds} (the header interceptor unless replaced) and {@code keys}.
   *
   * @throws IOException when the address cannot be bound
   */
  public static PirNetworkServer start(InetSocketAddress address, List<ServedDatabase> databases,
      ServiceKeys keys, BatchSettings settings, int recentAnswers, ServerInterceptor clientIds)
      throws IOException {
    return start(address, databases, keys, settings, recentAnswers, clientIds, b -> { },
        BatchListener.NONE);
  }

  /**
   * As above, with {@code transport} applied to the Netty server builder before it is built
   * (the seam for TLS: {@code sslContext}, and other transport settings) and {@code listener}
   * told about every micro-batch (the seam for metrics).
   *
   * @throws IOException when the address cannot be bound
   */
  public static PirNetworkServer start(InetSocketAddress address, List<ServedDatabase> databases,
      ServiceKeys keys, BatchSettings settings, int recentAnswers, ServerInterceptor clientIds,
      Consumer<NettyServerBuilder> transport, BatchListener listener) throws IOException {
    MicroBatcher batcher = new MicroBatcher(settings, () -> {
      long now = System.nanoTime();
      for (ServedDatabase db : databases) {
        String line = db.refresh(now);
        if (line != null) {
          LOG.info(line);
          System.out.println(line);
        }
      }
    }, listener);
    PirServiceImpl impl = new PirServiceImpl(databases, keys, batcher,
        new RecentAnswers(recentAnswers), settings.maxQueries());
    HealthStatusManager health = new HealthStatusManager();
    NettyServerBuilder nb = NettyServerBuilder.forAddress(address)
        .maxInboundMessageSize(impl.maxInboundBytes())
        .addService(ServerInterceptors.intercept(impl, clientIds))
        .addService(ProtoReflectionServiceV1.newInstance())
        .addService(health.getHealthService());
    transport.accept(nb);
    Server s = nb.build();
    try {
      s.start();
    } catch (IOException e) {
      try {
        batcher.close(1000);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
      }
      throw e;
    }
    health.setStatus("", ServingStatus.SERVING);
    health.setStatus(PirServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    LOG.info("service: listening on {} for {} database(s); micro-batches of at most {} queries"
        + " or {} ms, {} in flight, queue {}; largest message {} bytes", s.getListenSockets(),
        databases.size(), settings.maxQueries(), settings.maxWaitMillis(),
        BatchSettings.IN_FLIGHT, settings.maxQueued(), impl.maxInboundBytes());
    return new PirNetworkServer(s, batcher, health, impl, databases, keys, settings);
  }

  /** The port bound. */
  public int port() {
    return server.getPort();
  }

  /** The micro-batcher (tests, the directory feed). */
  public MicroBatcher batcher() {
    return batcher;
  }

  /** The largest message accepted (bytes). */
  public int maxInboundBytes() {
    return service.maxInboundBytes();
  }

  /**
   * Also answers the query files of database {@code name} arriving in {@code queries} (into
   * {@code out}), through the same micro-batcher as the calls ({@link DirectoryFeed}).
   *
   * @throws IllegalArgumentException when no such database is served or {@code queries} is not
   *     a directory
   */
  public DirectoryFeed watch(Storage queries, Storage out, String name) {
    ServedDatabase db = databases.stream().filter(d -> d.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("--queries-db " + name + ": no such"
            + " database is served"));
    DirectoryFeed f = new DirectoryFeed(queries, out, db, new QueryAdmission(keys), batcher,
        settings.maxQueries(), settings.pollMillis());
    feeds.add(f);
    return f;
  }

  /** Waits until the server has terminated. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Graceful stop: health says NOT_SERVING, no new calls, every call accepted is answered (the
   * micro-batcher drains), then the transport closes; waits at most {@code timeoutMillis} for
   * the calls before cutting them off.
   */
  public void close(long timeoutMillis) throws InterruptedException {
    health.enterTerminalState();
    for (DirectoryFeed f : feeds) {
      f.close(timeoutMillis);
    }
    server.shutdown();
    batcher.close(timeoutMillis);
    if (!server.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS)) {
      server.shutdownNow();
    }
  }

  @Override
  public void close() throws InterruptedException {
    close(60_000);
  }
}
