package org.jpir.service.load;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jpir.api.v1.AnswerRequest;
import org.jpir.api.v1.AnswerResponse;
import org.jpir.api.v1.DatabaseConfig;
import org.jpir.api.v1.GetConfigRequest;
import org.jpir.api.v1.PirServiceGrpc;
import org.jpir.api.v1.Query;
import org.jpir.api.v1.QueryResult;
import org.jpir.api.v1.UploadKeysRequest;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.client.PirQueryClients;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.wire.Wire;

/**
 * The harness's clients: each with its own secret key, evaluation keys (uploaded once), gRPC
 * channel to the service and pool of queries made before a run. A run only sends the pool's
 * bytes and keeps what comes back in a {@link Ledger}: no cryptography while it is measured.
 * Closed loop: each client sends its next query when its last one is answered, until the window
 * closes. Open loop: each client sends on a {@link PacedSchedule}, whatever its answers do.
 * A call refused for a full queue ({@code RESOURCE_EXHAUSTED} with a retry hint) or for an
 * unavailable service is sent again with the same request id after the hint (or a backoff), and
 * counted; latency counts from the first try (open loop: from the scheduled time).
 */
final class LoadClients implements AutoCloseable {
  private static final Metadata.Key<String> CLIENT =
      Metadata.Key.of("x-jpir-client", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> RETRY_AFTER =
      Metadata.Key.of("retry-after-ms", Metadata.ASCII_STRING_MARSHALLER);
  private static final int MAX_TRIES = 100;

  /** One client: its id, its cryptography and its channel. */
  record Client(String id, PirQueryClient crypto, ManagedChannel channel,
      PirServiceGrpc.PirServiceBlockingStub stub) {}

  /** A query made before a run: client, place in its pool, record index, wire bytes. */
  record Planned(int client, int slot, long index, byte[] query) {}

  /**
   * A measured run: the ledger, when its window opened, how long the window was, when the last
   * result came back, how many clients ran out of queries before the window closed.
   */
  record Run(Ledger ledger, long startNanos, long windowNanos, long endNanos, int dryClients) {
    /** Answered queries per second from the window's start to the last result. */
    double qps() {
      return ledger.totals().answered() / ((endNanos - startNanos) / 1e9);
    }
  }

  private final List<Client> clients = new ArrayList<>();
  private final DatabaseConfig config;
  private final int maxAnswerBytes;
  private final long deadlineMillis;

  /**
   * Connects {@code n} clients named {@code <prefix>-<i>} to 127.0.0.1:{@code port}, each with a
   * fresh secret key for {@code database}'s config, uploads their evaluation keys (compact presets)
   * and returns once the service holds them all.
   */
  LoadClients(int port, String database, String prefix, int n, long deadlineMillis,
      SecureRandom random) {
    this.deadlineMillis = deadlineMillis;
    DatabaseConfig cfg = null;
    for (int i = 0; i < n; i++) {
      String id = prefix + "-" + i;
      ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext()
          .maxInboundMessageSize(64 << 20).build();
      Metadata h = new Metadata();
      h.put(CLIENT, id);
      PirServiceGrpc.PirServiceBlockingStub stub = PirServiceGrpc.newBlockingStub(ch)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h));
      if (cfg == null) {
        cfg = stub.getConfig(GetConfigRequest.newBuilder().addDatabases(database).build())
            .getDatabases(0);
      }
      Params p = org.jpir.core.params.Presets.byId(cfg.getPresetId());
      PirQueryClient crypto = PirQueryClients.generate(p, geometry(cfg.getGeometry()), id,
          random);
      if (crypto.compact()) {
        UploadKeysRequest.Builder up = UploadKeysRequest.newBuilder()
            .setPresetId(cfg.getPresetId()).setParameterRevision(cfg.getParameterRevision())
            .setEvaluationKeys(ByteString.copyFrom(crypto.evaluationKeysMessage().orElseThrow()));
        crypto.packingKeyMessage().ifPresent(k -> up.setPackingKey(ByteString.copyFrom(k)));
        stub.uploadKeys(up.build());
      }
      clients.add(new Client(id, crypto, ch, stub));
    }
    this.config = cfg;
    Params p = org.jpir.core.params.Presets.byId(cfg.getPresetId());
    this.maxAnswerBytes = Math.toIntExact(Wire.maxAnswerBytes(p, geometry(cfg.getGeometry()))
        + 4096);
  }

  static Geometry geometry(org.jpir.api.v1.Geometry m) {
    return new Geometry(m.getRecordCount(), m.getRecordSize(), m.getPolyBytes(),
        m.getRecordsPerPoly(), m.getPlanes(), m.getRows(), m.getCols(), m.getPairedTail());
  }

  /** The clients, in order. */
  List<Client> clients() {
    return clients;
  }

  /** The config the clients make queries for. */
  DatabaseConfig config() {
    return config;
  }

  /**
   * Makes {@code perClient[c]} queries for each client c, for records drawn uniformly from
   * {@code pick}, on {@code threads} threads (each client's queries on one thread).
   */
  List<List<Planned>> pool(int[] perClient, SplittableRandom pick, int threads)
      throws InterruptedException {
    long count = config.getGeometry().getRecordCount();
    List<long[]> indices = new ArrayList<>();
    for (int c = 0; c < clients.size(); c++) {
      long[] ix = new long[perClient[c]];
      for (int k = 0; k < ix.length; k++) {
        ix[k] = pick.nextLong(count);
      }
      indices.add(ix);
    }
    ExecutorService ex = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<List<Planned>>> fs = new ArrayList<>();
      for (int c = 0; c < clients.size(); c++) {
        int cc = c;
        fs.add(ex.submit(() -> {
          long[] ix = indices.get(cc);
          List<Planned> out = new ArrayList<>(ix.length);
          for (int k = 0; k < ix.length; k++) {
            out.add(new Planned(cc, k, ix[k], clients.get(cc).crypto().queryMessage(ix[k])));
          }
          return out;
        }));
      }
      List<List<Planned>> pool = new ArrayList<>();
      for (Future<List<Planned>> f : fs) {
        pool.add(f.get());
      }
      return pool;
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("making queries failed", e.getCause());
    } finally {
      ex.shutdownNow();
    }
  }

  /**
   * Closed loop: every client sends its pool's queries one after another, each when the last was
   * answered, until {@code windowNanos} have passed (a query sent before is waited for); {@code
   * tag} starts every request id (unique per run).
   */
  Run closedLoop(List<List<Planned>> pool, long windowNanos, String tag)
      throws InterruptedException {
    Ledger ledger = new Ledger();
    AtomicInteger dry = new AtomicInteger();
    long start = together("load-client-", (c, opened) -> {
      List<Planned> mine = pool.get(c);
      int k = 0;
      for (; k < mine.size(); k++) {
        long now = System.nanoTime();
        if (now - opened >= windowNanos) {
          break;
        }
        send(ledger, tag, mine.get(k), now);
      }
      if (k == mine.size() && System.nanoTime() - opened < windowNanos) {
        dry.incrementAndGet();
      }
    });
    return new Run(ledger, start, windowNanos, ledger.lastDoneNanos(start), dry.get());
  }

  /**
   * Open loop: client c sends query k of its pool at {@code schedule.offsetNanos(c, k)} after the
   * window opens (its pool must hold {@code schedule.sends(c)} queries), each call on a thread of
   * its own so that a slow answer delays no send; returns once every call has finished.
   */
  Run openLoop(List<List<Planned>> pool, PacedSchedule schedule, String tag)
      throws InterruptedException {
    Ledger ledger = new Ledger();
    ExecutorService calls = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "load-call");
      t.setDaemon(true);
      return t;
    });
    long start = together("load-pacer-", (c, opened) -> {
      List<Planned> mine = pool.get(c);
      int n = schedule.sends(c);
      for (int k = 0; k < n; k++) {
        long at = opened + schedule.offsetNanos(c, k);
        long wait = at - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        Planned q = mine.get(k);
        calls.execute(() -> send(ledger, tag, q, at));
      }
    });
    calls.shutdown();
    if (!calls.awaitTermination(deadlineMillis + 60_000, TimeUnit.MILLISECONDS)) {
      calls.shutdownNow();
    }
    return new Run(ledger, start, schedule.windowNanos(), ledger.lastDoneNanos(start), 0);
  }

  /** One client's part of a run, given when the window opened ({@link System#nanoTime}). */
  private interface ClientPart {
    void run(int client, long openedNanos) throws InterruptedException;
  }

  /**
   * Runs {@code part} for every client on a daemon thread of its own ({@code name + c}), all
   * released at once when the window opens; returns that moment once every thread has ended.
   */
  private long together(String name, ClientPart part) throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    long[] start = new long[1];
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients.size(); c++) {
      int cc = c;
      Thread t = new Thread(() -> {
        try {
          go.await();
          part.run(cc, start[0]);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, name + c);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    start[0] = System.nanoTime();
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    return start[0];
  }

  /** One query in one call, tried again while the service says so; the result into the ledger. */
  private void send(Ledger ledger, String tag, Planned q, long plannedNanos) {
    String rid = tag + "-" + q.client() + "-" + q.slot();
    ledger.sent(new Ledger.Sent(rid, q.client(), q.slot(), q.index(), plannedNanos));
    AnswerRequest req = AnswerRequest.newBuilder().setDatabase(config.getName())
        .addQueries(Query.newBuilder().setRequestId(rid).setConfigId(config.getConfigId())
            .setQuery(ByteString.copyFrom(q.query()))).build();
    PirServiceGrpc.PirServiceBlockingStub stub = clients.get(q.client()).stub();
    for (int attempt = 1; ; attempt++) {
      try {
        AnswerResponse r = stub.withDeadlineAfter(deadlineMillis, TimeUnit.MILLISECONDS)
            .withMaxInboundMessageSize(maxAnswerBytes).answer(req);
        long done = System.nanoTime();
        for (QueryResult res : r.getResultsList()) {
          if (res.hasAnswer()) {
            ledger.answered(res.getRequestId(), res.getAnswer().getAnswer().toByteArray(), done);
          } else {
            ledger.failed(res.getRequestId(), Status.fromCodeValue(res.getError().getCode())
                .getCode() + " (query)", done);
          }
        }
        return;
      } catch (StatusRuntimeException e) {
        Status.Code code = e.getStatus().getCode();
        Metadata tr = e.getTrailers();
        boolean again = code == Status.Code.UNAVAILABLE || code == Status.Code.RESOURCE_EXHAUSTED
            && tr != null && tr.containsKey(RETRY_AFTER);
        if (!again || attempt >= MAX_TRIES) {
          ledger.failed(rid, code + " (call)", System.nanoTime());
          return;
        }
        ledger.retried();
        long wait = Math.min(2000, 50L << Math.min(5, attempt - 1));
        if (tr != null && tr.containsKey(RETRY_AFTER)) {
          try {
            wait = Math.min(10_000, Long.parseLong(tr.get(RETRY_AFTER)));
          } catch (NumberFormatException ignored) { // the backoff stands
          }
        }
        try {
          Thread.sleep(wait);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          ledger.failed(rid, "interrupted", System.nanoTime());
          return;
        }
      }
    }
  }

  @Override
  public void close() {
    for (Client c : clients) {
      c.channel().shutdownNow();
    }
  }
}
