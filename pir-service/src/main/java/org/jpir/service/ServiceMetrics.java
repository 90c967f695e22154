package org.jpir.service;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.jpir.service.batch.BatchListener;
import org.jpir.service.keys.KeyStoreStats;
import org.jpir.spark.server.DistributedPirServer;

/**
 * The service's Prometheus metrics, in a registry of its own, served over HTTP by {@link
 * #serve}: queries answered, dropped and outdated; calls by method and status code, and their
 * latency; per-query errors by status code; queue depth; micro-batch size and time; the answer
 * path's time per phase (expansion, phase 1, phase 2, per Spark batch) and the broadcast bytes
 * its Spark batches wrote and the executors fetched (queries, and keys once per fingerprint);
 * the key store's memory, keys, evictions and expirations; and, for metering only, queries per
 * client (the one metric with a client label). No metric or label depends on a queried index:
 * they count calls, queries, bytes and times. Thread-safe.
 */
public final class ServiceMetrics implements BatchListener {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  final Counter calls = Counter.builder().name("jpir_calls_total")
      .help("gRPC calls finished, by method and status code").labelNames("method", "code")
      .register(registry);
  final Histogram callSeconds = Histogram.builder().name("jpir_call_seconds")
      .help("gRPC call latency, by method").labelNames("method")
      .classicExponentialUpperBounds(0.001, 2, 18).register(registry);
  final Counter queryErrors = Counter.builder().name("jpir_query_errors_total")
      .help("queries answered with a per-query error, by status code").labelNames("code")
      .register(registry);
  final Counter clientQueries = Counter.builder().name("jpir_client_queries_total")
      .help("queries sent per client (metering)").labelNames("client").register(registry);
  private final Counter answered = Counter.builder().name("jpir_queries_answered_total")
      .help("queries handed to the answer path").register(registry);
  private final Counter dropped = Counter.builder().name("jpir_queries_dropped_total")
      .help("queries dropped because every caller went away").register(registry);
  private final Counter outdated = Counter.builder().name("jpir_queries_outdated_total")
      .help("queries for a config id no longer served").register(registry);
  private final Histogram batchQueries = Histogram.builder().name("jpir_micro_batch_queries")
      .help("queries per micro-batch").classicExponentialUpperBounds(1, 2, 12)
      .register(registry);
  private final Histogram batchSeconds = Histogram.builder().name("jpir_micro_batch_seconds")
      .help("micro-batch wall time").classicExponentialUpperBounds(0.001, 2, 18)
      .register(registry);
  private final Histogram phaseSeconds = Histogram.builder().name("jpir_phase_seconds")
      .help("answer-path time per Spark batch, by phase").labelNames("phase")
      .classicExponentialUpperBounds(0.0005, 2, 18).register(registry);
  private final Counter sparkBatches = Counter.builder().name("jpir_spark_batches_total")
      .help("Spark batches answered").register(registry);
  private final Counter broadcastBytes = Counter.builder().name("jpir_broadcast_bytes_total")
      .help("broadcast pieces of the Spark batches (queries; key bytes once per fingerprint),"
          + " written by the driver or fetched by executors").labelNames("side")
      .register(registry);
  private volatile IntSupplier queue = () -> 0;
  private volatile Supplier<KeyStoreStats> keys = () -> new KeyStoreStats(0, 0, 0, 0);

  /** The metrics, with the queue and key-store gauges reading what {@link #watch} gives. */
  public ServiceMetrics() {
    GaugeWithCallback.builder().name("jpir_queue_depth").help("queries waiting")
        .callback(cb -> cb.call(queue.getAsInt())).register(registry);
    GaugeWithCallback.builder().name("jpir_vmp_wide_kernels_off")
        .help("1 when this JVM's phase-1 pass left its wide kernels because they ran without"
            + " vector intrinsics (a JIT state; restart the JVM to get them back)")
        .callback(cb -> cb.call(org.jpir.vmp.Vmp.get().wideKernelsOff() ? 1 : 0))
        .register(registry);
    GaugeWithCallback.builder().name("jpir_key_store_bytes")
        .help("bytes of evaluation keys held in memory")
        .callback(cb -> cb.call(keys.get().heldBytes())).register(registry);
    GaugeWithCallback.builder().name("jpir_key_store_keys").help("evaluation keys in memory")
        .callback(cb -> cb.call(keys.get().heldKeys())).register(registry);
    CounterWithCallback.builder().name("jpir_key_store_evictions_total")
        .help("keys evicted to keep the memory bound")
        .callback(cb -> cb.call(keys.get().evictions())).register(registry);
    CounterWithCallback.builder().name("jpir_key_store_expirations_total")
        .help("keys expired after their time to live")
        .callback(cb -> cb.call(keys.get().expirations())).register(registry);
  }

  /** Reads the queue depth from {@code queued} and the key store's figures from {@code ks}. */
  public void watch(IntSupplier queued, Supplier<KeyStoreStats> ks) {
    this.queue = queued;
    if (ks != null) {
      this.keys = ks;
    }
  }

  /** The registry (tests, other exporters). */
  public PrometheusRegistry registry() {
    return registry;
  }

  @Override
  public void answered(Stats s) {
    answered.inc(s.queries());
    dropped.inc(s.dropped());
    outdated.inc(s.outdated());
    batchQueries.observe(s.queries());
    batchSeconds.observe(s.seconds());
  }

  @Override
  public void sparkBatch(DistributedPirServer.BatchStats s) {
    phaseSeconds.labelValues("expansion").observe(s.expandNanos() / 1e9);
    phaseSeconds.labelValues("phase1").observe(s.phase1Nanos() / 1e9);
    phaseSeconds.labelValues("phase2").observe(s.phase2Nanos() / 1e9);
    sparkBatches.inc();
    broadcastBytes.labelValues("written").inc(s.spark().broadcastBytes());
    broadcastBytes.labelValues("fetched").inc(s.spark().broadcastFetchedBytes());
  }

  /**
   * Serves {@code /metrics} on {@code address}:{@code port} (0: any free port) until closed.
   *
   * @throws IOException when it cannot bind
   */
  public HTTPServer serve(InetAddress address, int port) throws IOException {
    return HTTPServer.builder().inetAddress(address).port(port).registry(registry)
        .buildAndStart();
  }
}
