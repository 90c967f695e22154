package org.jpir.service;

import io.grpc.ServerInterceptor;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.net.InetAddress;
import org.jpir.service.batch.BatchListener;
import org.jpir.service.keys.StoredServiceKeys;
import org.jpir.service.rpc.TokenInterceptor;
import picocli.CommandLine.Option;

/**
 * The metrics settings of {@code ./pir serve --port} (a picocli mixin): Prometheus metrics
 * ({@link ServiceMetrics}) on {@code --metrics-port}, bound to {@code --metrics-bind} (loopback
 * by default); none without {@code --metrics-port}.
 */
public final class MetricsOptions {
  @Option(names = "--metrics-port", description = "serve Prometheus metrics on this HTTP port"
      + " (/metrics; 0: any free port; default: no metrics)")
  Integer metricsPort;

  @Option(names = "--metrics-bind", description = "the metrics port's address (default:"
      + " ${DEFAULT-VALUE})")
  String metricsBind = "127.0.0.1";

  private final ServiceMetrics metrics = new ServiceMetrics();

  /** Whether metrics are asked for. */
  boolean enabled() {
    return metricsPort != null;
  }

  /** The listener hearing every micro-batch ({@link BatchListener#NONE} without metrics). */
  BatchListener listener() {
    return enabled() ? metrics : BatchListener.NONE;
  }

  /** {@code access} wrapped in the call metrics and with metering inside (as is, without). */
  ServerInterceptor around(ServerInterceptor access) {
    if (!enabled()) {
      return access;
    }
    return TokenInterceptor.chain(MetricsInterceptor.calls(metrics),
        TokenInterceptor.chain(access, MetricsInterceptor.metering(metrics)));
  }

  /**
   * Starts the metrics' HTTP server for {@code server} and {@code keys}; null without metrics.
   *
   * @throws IOException when the port cannot be bound
   */
  HTTPServer start(PirNetworkServer server, StoredServiceKeys keys) throws IOException {
    if (!enabled()) {
      return null;
    }
    if (metricsPort < 0 || metricsPort > 65535) {
      throw new IllegalArgumentException("--metrics-port must be 0 to 65535");
    }
    metrics.watch(server.batcher()::queued, keys::stats);
    HTTPServer http = metrics.serve(InetAddress.getByName(metricsBind), metricsPort);
    System.out.println("serve: metrics on http://" + metricsBind + ":" + http.getPort()
        + "/metrics");
    return http;
  }
}
