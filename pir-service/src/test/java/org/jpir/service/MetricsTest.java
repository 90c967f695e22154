package org.jpir.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import org.jpir.api.v1.GetConfigRequest;
import org.jpir.api.v1.PirServiceGrpc;
import org.jpir.client.net.NetworkPirClient;
import org.jpir.client.net.RemoteDatabase;
import org.jpir.client.net.RetryPolicy;
import org.jpir.service.batch.BatchSettings;
import org.jpir.service.rpc.ClientIdInterceptor;
import org.jpir.service.rpc.TokenInterceptor;
import org.junit.jupiter.api.Test;

/**
 * Prometheus metrics of a real service, scraped over HTTP before and after real calls: the
 * answered queries, calls by code, per-client metering, micro-batch and phase histograms and the
 * key store's gauges move; only the metering counter carries a client label.
 */
class MetricsTest {
  static String scrape(int port) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    return r.body();
  }

  /** The value of the sample {@code name} whose labels include every one of {@code labels}. */
  static double value(String text, String name, String... labels) {
    return Arrays.stream(text.split("\n"))
        .filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{"))
        .filter(l -> Arrays.stream(labels).allMatch(l::contains))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  @Test
  void theScrapedFiguresMoveWithRealCalls() throws Exception {
    ServiceMetrics m = new ServiceMetrics();
    try (ServiceFixture fx = new ServiceFixture(new BatchSettings(8, 20, 32, 4, 200),
        TokenInterceptor.chain(MetricsInterceptor.calls(m), TokenInterceptor.chain(
            new ClientIdInterceptor(), MetricsInterceptor.metering(m))), b -> { }, m);
        HTTPServer http = m.serve(InetAddress.getLoopbackAddress(), 0)) {
      m.watch(fx.server.batcher()::queued, fx.keys::stats);
      String before = scrape(http.getPort());
      assertEquals(0, value(before, "jpir_queries_answered_total"));
      assertTrue(before.contains("jpir_queue_depth"), before);
      assertEquals(org.jpir.vmp.Vmp.get().wideKernelsOff() ? 1 : 0,
          value(before, "jpir_vmp_wide_kernels_off"));
      ManagedChannel ch = fx.channel();
      try (NetworkPirClient c = new NetworkPirClient(ch, "meter-me", RetryPolicy.defaults())) {
        List<byte[]> r = c.database("plain").retrieve(new long[] {5, 6});
        assertArrayEquals(fx.plainTruth().record(6), r.get(1));
        RemoteDatabase cdb = c.database("compact");
        assertArrayEquals(fx.compactTruth().record(4), cdb.retrieve(4));
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
            () -> PirServiceGrpc.newBlockingStub(ch).getConfig(
                GetConfigRequest.getDefaultInstance()));
        assertEquals(Status.Code.UNAUTHENTICATED, e.getStatus().getCode());
      } finally {
        ch.shutdownNow();
      }
      String after = scrape(http.getPort());
      assertEquals(3, value(after, "jpir_queries_answered_total"), after);
      assertEquals(3, value(after, "jpir_client_queries_total", "client=\"meter-me\""));
      assertEquals(1, value(after, "jpir_calls_total", "method=\"GetConfig\"",
          "code=\"UNAUTHENTICATED\""));
      assertTrue(value(after, "jpir_calls_total", "method=\"Answer\"", "code=\"OK\"") >= 2);
      assertEquals(1, value(after, "jpir_calls_total", "method=\"UploadKeys\"",
          "code=\"OK\""));
      assertTrue(value(after, "jpir_call_seconds_count", "method=\"Answer\"") >= 2);
      assertTrue(value(after, "jpir_micro_batch_queries_count") >= 2);
      assertEquals(3, value(after, "jpir_micro_batch_queries_sum"));
      assertTrue(value(after, "jpir_micro_batch_seconds_sum") > 0);
      for (String phase : List.of("expansion", "phase1", "phase2")) {
        assertTrue(value(after, "jpir_phase_seconds_count", "phase=\"" + phase + "\"") >= 2,
            phase);
      }
      assertTrue(value(after, "jpir_spark_batches_total") >= 2);
      // local mode: the driver writes the broadcasts, no executor fetches them
      assertTrue(value(after, "jpir_broadcast_bytes_total", "side=\"written\"") > 0, after);
      assertEquals(0, value(after, "jpir_broadcast_bytes_total", "side=\"fetched\""));
      assertEquals(1, value(after, "jpir_key_store_keys"));
      assertTrue(value(after, "jpir_key_store_bytes") > 0);
      assertEquals(0, value(after, "jpir_query_errors_total"));
      for (String line : after.split("\n")) {
        assertTrue(!line.contains("client=") || line.startsWith("jpir_client_queries_total"),
            line);
      }
    }
  }
}
