package org.jpir.client.net;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jpir.api.v1.AnswerRequest;
import org.jpir.api.v1.AnswerResponse;
import org.jpir.api.v1.DatabaseConfig;
import org.jpir.api.v1.DeleteKeysRequest;
import org.jpir.api.v1.GetConfigRequest;
import org.jpir.api.v1.GetConfigResponse;
import org.jpir.api.v1.KeyStatusRequest;
import org.jpir.api.v1.KeyStatusResponse;
import org.jpir.api.v1.PirServiceGrpc;
import org.jpir.api.v1.Query;
import org.jpir.api.v1.UploadKeysRequest;

/**
 * A connection to a jpir service ({@code jpir.v1.PirService}) as one client id: fetch the
 * configuration, manage the client's evaluation keys, send queries; every call goes out with the
 * client id header and is retried on {@code UNAVAILABLE} or {@code RESOURCE_EXHAUSTED} under a
 * {@link RetryPolicy}, unchanged (same request ids). {@link #database} gives a {@link
 * RemoteDatabase} that retrieves records by index or keyword. Thread-safe (a {@link
 * RemoteDatabase} is not). With a bearer token every call also carries {@code authorization:
 * Bearer <token>} (the service maps it to the client id); {@link #connect(String, String,
 * RetryPolicy, String, Path)} with a CA file speaks TLS, else plaintext (loopback or a trusted
 * network only).
 */
public final class NetworkPirClient implements AutoCloseable {
  /** The header naming the client (the service's {@code ClientIdInterceptor}). */
  public static final String CLIENT_HEADER = "x-jpir-client";
  static final Metadata.Key<String> RETRY_AFTER =
      Metadata.Key.of("retry-after-ms", Metadata.ASCII_STRING_MARSHALLER);
  /** The largest answer message this client reads before the config says more (64 MiB). */
  static final int DEFAULT_MAX_INBOUND = 64 << 20;
  /** The header carrying the bearer token. */
  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final ManagedChannel channel;
  private final boolean ownsChannel;
  private final String clientId;
  private final RetryPolicy retry;
  private final PirServiceGrpc.PirServiceBlockingStub stub;
  private final SecureRandom random = new SecureRandom();
  private volatile long deadlineMillis = 120_000;

  /** A client over {@code channel} (not closed by {@link #close}) as {@code clientId}. */
  public NetworkPirClient(ManagedChannel channel, String clientId, RetryPolicy retry) {
    this(channel, false, clientId, retry, null);
  }

  /**
   * A client over {@code channel} (not closed by {@link #close}) as {@code clientId} with the
   * bearer {@code token} (null: none).
   */
  public NetworkPirClient(ManagedChannel channel, String clientId, RetryPolicy retry,
      String token) {
    this(channel, false, clientId, retry, token);
  }

  private NetworkPirClient(ManagedChannel channel, boolean owns, String clientId,
      RetryPolicy retry, String token) {
    if (clientId == null || !clientId.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("client id must be 1 to 64 characters of"
          + " [A-Za-z0-9._-]");
    }
    this.channel = channel;
    this.ownsChannel = owns;
    this.clientId = clientId;
    this.retry = retry;
    Metadata h = new Metadata();
    h.put(Metadata.Key.of(CLIENT_HEADER, Metadata.ASCII_STRING_MARSHALLER), clientId);
    if (token != null) {
      if (!token.matches("[\\x21-\\x7e]{1,256}")) {
        throw new IllegalArgumentException("a bearer token is 1 to 256 visible ASCII characters");
      }
      h.put(AUTHORIZATION, "Bearer " + token);
    }
    this.stub = PirServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
        .withMaxInboundMessageSize(DEFAULT_MAX_INBOUND);
  }

  /**
   * Connects (plaintext) to {@code hostPort} ({@code host:port}) as {@code clientId}.
   *
   * @throws IllegalArgumentException when {@code hostPort} is not host:port
   */
  public static NetworkPirClient connect(String hostPort, String clientId, RetryPolicy retry) {
    return connect(hostPort, clientId, retry, null, null);
  }

  /**
   * Connects to {@code hostPort} as {@code clientId} with the bearer {@code token} (null: none),
   * over TLS trusting the CA certificates (PEM) in {@code tlsCa}, or plaintext when it is null.
   *
   * @throws IllegalArgumentException when {@code hostPort} is not host:port or the CA file
   *     cannot be used
   */
  public static NetworkPirClient connect(String hostPort, String clientId, RetryPolicy retry,
      String token, Path tlsCa) {
    int colon = hostPort.lastIndexOf(':');
    if (colon < 1 || colon == hostPort.length() - 1) {
      throw new IllegalArgumentException("server '" + hostPort + "' must be host:port");
    }
    int port;
    try {
      port = Integer.parseInt(hostPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("server '" + hostPort + "': port is not a number");
    }
    String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
    NettyChannelBuilder b = NettyChannelBuilder.forAddress(host, port)
        .maxInboundMessageSize(Integer.MAX_VALUE - 8);
    if (tlsCa == null) {
      b.usePlaintext();
    } else {
      try {
        b.sslContext(GrpcSslContexts.forClient().trustManager(tlsCa.toFile()).build());
      } catch (IOException | IllegalArgumentException e) {
        throw new IllegalArgumentException("cannot use the CA file " + tlsCa + ": "
            + e.getClass().getSimpleName(), e);
      }
    }
    return new NetworkPirClient(b.build(), true, clientId, retry, token);
  }

  /** The client id calls are made as. */
  public String clientId() {
    return clientId;
  }

  /** Each call's deadline from now (default 120 s). */
  public void deadlineMillis(long millis) {
    this.deadlineMillis = millis;
  }

  /** The service's configuration: every database served. */
  public GetConfigResponse config() {
    return call(() -> stub().getConfig(GetConfigRequest.getDefaultInstance()));
  }

  /**
   * The client of database {@code name} as configured now, with a fresh secret key.
   *
   * @throws IllegalArgumentException when no such database is served
   */
  public RemoteDatabase database(String name) {
    GetConfigResponse c = config();
    return new RemoteDatabase(this, find(c, name), c.getMaxQueriesPerCall(), null, random);
  }

  /**
   * As {@link #database(String)} with the secret key {@code secretKey} (wire form) and, for a
   * compact preset, the evaluation keys generated from it earlier ({@code evaluationKeys}, null:
   * generate them now).
   */
  public RemoteDatabase database(String name, byte[] secretKey, byte[] evaluationKeys) {
    GetConfigResponse c = config();
    RemoteDatabase db = new RemoteDatabase(this, find(c, name), c.getMaxQueriesPerCall(),
        secretKey, random);
    if (evaluationKeys != null) {
      db.client().useEvaluationKeysMessage(evaluationKeys);
    }
    return db;
  }

  static DatabaseConfig find(GetConfigResponse c, String name) {
    for (DatabaseConfig d : c.getDatabasesList()) {
      if (d.getName().equals(name)) {
        return d;
      }
    }
    throw new IllegalArgumentException("the server serves no database '" + name + "'; it serves "
        + c.getDatabasesList().stream().map(DatabaseConfig::getName).toList());
  }

  /** What the server holds of this client's keys for {@code presetId}. */
  public KeyStatusResponse keyStatus(String presetId, String revision) {
    return call(() -> stub().keyStatus(KeyStatusRequest.newBuilder().setPresetId(presetId)
        .setParameterRevision(revision).build()));
  }

  /** Uploads this client's evaluation keys (and optional packing key) for {@code presetId}. */
  public KeyStatusResponse uploadKeys(String presetId, String revision, byte[] keys,
      byte[] packing) {
    UploadKeysRequest.Builder b = UploadKeysRequest.newBuilder().setPresetId(presetId)
        .setParameterRevision(revision).setEvaluationKeys(ByteString.copyFrom(keys));
    if (packing != null) {
      b.setPackingKey(ByteString.copyFrom(packing));
    }
    UploadKeysRequest req = b.build();
    return call(() -> stub().uploadKeys(req));
  }

  /** Deletes this client's keys for {@code presetId}. */
  public KeyStatusResponse deleteKeys(String presetId, String revision) {
    return call(() -> stub().deleteKeys(DeleteKeysRequest.newBuilder().setPresetId(presetId)
        .setParameterRevision(revision).build()));
  }

  /**
   * Sends {@code queries} for {@code database} in one call, retried as the policy says with the
   * same request ids; answers are read up to {@code maxInboundBytes}.
   */
  public AnswerResponse answer(String database, List<Query> queries, int maxInboundBytes) {
    AnswerRequest req = AnswerRequest.newBuilder().setDatabase(database).addAllQueries(queries)
        .build();
    return call(() -> stub().withMaxInboundMessageSize(maxInboundBytes).answer(req));
  }

  /** A fresh random request id (22 characters of [A-Za-z0-9_-]). */
  String newRequestId() {
    byte[] b = new byte[16];
    random.nextBytes(b);
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private PirServiceGrpc.PirServiceBlockingStub stub() {
    return stub.withDeadlineAfter(deadlineMillis, TimeUnit.MILLISECONDS);
  }

  private <T> T call(Supplier<T> c) {
    for (int attempt = 1; ; attempt++) {
      try {
        return c.get();
      } catch (StatusRuntimeException e) {
        Status.Code code = e.getStatus().getCode();
        boolean retriable = code == Status.Code.UNAVAILABLE
            || code == Status.Code.RESOURCE_EXHAUSTED && e.getTrailers() != null
            && e.getTrailers().containsKey(RETRY_AFTER);
        if (!retriable || attempt >= retry.maxAttempts()) {
          throw e;
        }
        sleep(waitMillis(attempt + 1, e.getTrailers()));
      }
    }
  }

  /** The wait before try {@code attempt}: backoff with jitter, or the server's hint if longer. */
  long waitMillis(int attempt, Metadata trailers) {
    long b = retry.backoffMillis(attempt);
    long w = b + (b > 0 ? (long) (random.nextDouble() * b / 2) : 0);
    String hint = trailers == null ? null : trailers.get(RETRY_AFTER);
    if (hint != null) {
      try {
        w = Math.max(w, Math.min(Long.parseLong(hint), retry.maxBackoffMillis()));
      } catch (NumberFormatException ignored) { // a malformed hint: the backoff stands
      }
    }
    return w;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Status.CANCELLED.withDescription("interrupted while waiting to retry")
          .asRuntimeException();
    }
  }

  /** Closes the channel when this client opened it ({@link #connect}). */
  @Override
  public void close() {
    if (ownsChannel) {
      channel.shutdown();
      try {
        if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
          channel.shutdownNow();
        }
      } catch (InterruptedException e) {
        channel.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }
}
