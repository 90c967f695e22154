package org.jpir.service;

import io.grpc.ServerInterceptor;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.jpir.service.rpc.BearerTokens;
import org.jpir.service.rpc.ClientIdInterceptor;
import org.jpir.service.rpc.QuotaInterceptor;
import org.jpir.service.rpc.Quotas;
import org.jpir.service.rpc.TokenInterceptor;
import picocli.CommandLine.Option;

/**
 * The access settings of {@code ./pir serve --port} (a picocli mixin): bearer tokens, per-client
 * quotas and TLS. Without {@code --tokens} the client id is the unauthenticated {@code
 * x-jpir-client} header, for loopback tests only: the service then refuses to bind another
 * address. Without TLS it binds loopback only unless {@code --bind} says otherwise.
 */
public final class AccessOptions {
  @Option(names = "--tokens", description = "bearer tokens: lines 'token client-id'; without"
      + " it the client id is an unauthenticated header (loopback only)")
  Path tokens;

  @Option(names = "--quota-qpm", description = "most queries per client per minute (default:"
      + " no quota)")
  long quotaQpm;

  @Option(names = "--quota-uploads-ph", description = "most key uploads per client per hour"
      + " (default: no quota)")
  long quotaUploadsPh;

  @Option(names = "--tls-cert", description = "TLS: the server's certificate chain (PEM)")
  Path tlsCert;

  @Option(names = "--tls-key", description = "TLS: the server's private key (PKCS#8 PEM)")
  Path tlsKey;

  /**
   * The interceptor setting each call's client id (tokens or the header) and enforcing the
   * quotas.
   *
   * @throws IllegalArgumentException when the header mode would face a non-loopback address,
   *     a quota is negative, or the tokens file is malformed
   */
  public ServerInterceptor interceptor(InetAddress bind) {
    if (quotaQpm < 0 || quotaUploadsPh < 0) {
      throw new IllegalArgumentException("--quota-qpm and --quota-uploads-ph must be >= 0");
    }
    ServerInterceptor ids;
    if (tokens != null) {
      BearerTokens t = BearerTokens.read(tokens);
      System.out.println("serve: " + t.size() + " bearer token(s) from " + tokens);
      ids = new TokenInterceptor(t);
    } else if (!bind.isLoopbackAddress()) {
      throw new IllegalArgumentException("--bind " + bind.getHostAddress() + " without --tokens:"
          + " the client id would be an unauthenticated header; give --tokens FILE");
    } else {
      ids = new ClientIdInterceptor();
    }
    if (quotaQpm == 0 && quotaUploadsPh == 0) {
      return ids;
    }
    return TokenInterceptor.chain(ids, new QuotaInterceptor(
        quotaQpm > 0 ? new Quotas(quotaQpm, 60_000, System::currentTimeMillis) : null,
        quotaUploadsPh > 0 ? new Quotas(quotaUploadsPh, 3_600_000, System::currentTimeMillis)
            : null));
  }

  /** Whether TLS is configured. */
  public boolean tls() {
    return tlsCert != null;
  }

  /**
   * The transport settings: TLS from {@code --tls-cert} and {@code --tls-key} when given.
   *
   * @throws IllegalArgumentException when only one of them is given or they cannot be read
   */
  public Consumer<NettyServerBuilder> transport() {
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    if (tlsCert == null) {
      return b -> { };
    }
    SslContext ssl = serverSsl(tlsCert, tlsKey);
    return b -> b.sslContext(ssl);
  }

  /**
   * A server TLS context from PEM files.
   *
   * @throws IllegalArgumentException naming the files (not their contents) when unusable
   */
  static SslContext serverSsl(Path cert, Path key) {
    try {
      return GrpcSslContexts.forServer(cert.toFile(), key.toFile()).build();
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot use --tls-cert " + cert + " and --tls-key "
          + key + ": " + e.getClass().getSimpleName(), e);
    }
  }
}
