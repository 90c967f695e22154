package org.jpir.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.security.SecureRandom;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jpir.api.v1.AnswerRequest;
import org.jpir.api.v1.AnswerResponse;
import org.jpir.api.v1.DatabaseConfig;
import org.jpir.api.v1.PirServiceGrpc;
import org.jpir.api.v1.Query;
import org.jpir.api.v1.QueryResult;
import org.jpir.client.net.NetworkPirClient;
import org.jpir.client.net.RemoteDatabase;
import org.jpir.client.net.RetryPolicy;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.client.PirQueryClients;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.service.batch.BatchSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile and broken calls against a real service on loopback: each gets its own clear status
 * and the server goes on answering everyone else (every test ends with a good retrieval that
 * decodes exactly).
 */
class HostileCallsTest {
  static ServiceFixture fx;
  static SyntheticRecords truth;
  static final SecureRandom RANDOM = new SecureRandom();
  ManagedChannel ch;

  @BeforeAll
  static void start() throws Exception {
    fx = new ServiceFixture(new BatchSettings(8, 20, 32, 4, 200));
    truth = fx.plainTruth();
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  @BeforeEach
  void open() {
    ch = fx.channel();
  }

  @AfterEach
  void closeChannel() throws Exception {
    ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  /** A blocking stub as {@code client}. */
  private PirServiceGrpc.PirServiceBlockingStub stub(String client) {
    Metadata h = new Metadata();
    h.put(Metadata.Key.of("x-jpir-client", Metadata.ASCII_STRING_MARSHALLER), client);
    return PirServiceGrpc.newBlockingStub(ch)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
        .withDeadlineAfter(120, TimeUnit.SECONDS);
  }

  private static DatabaseConfig plainConfig() {
    return org.jpir.service.rpc.ConfigTestAccess.config(fx.plain);
  }

  /** A fresh classic query client of the plain database. */
  private static PirQueryClient plainClient() {
    return PirQueryClients.generate(ServiceFixture.CLASSIC, fx.plain.geometry(), "x", RANDOM);
  }

  private static Query query(String id, String config, byte[] body) {
    return Query.newBuilder().setRequestId(id).setConfigId(config)
        .setQuery(ByteString.copyFrom(body)).build();
  }

  /** The server still answers: a fresh client retrieves two records exactly. */
  private void othersStillAnswered() {
    try (NetworkPirClient c = new NetworkPirClient(ch, "bystander", RetryPolicy.defaults())) {
      RemoteDatabase db = c.database("plain");
      List<byte[]> r = db.retrieve(new long[] {11, ServiceFixture.PLAIN_COUNT - 1});
      assertArrayEquals(truth.record(11), r.get(0));
      assertArrayEquals(truth.record(ServiceFixture.PLAIN_COUNT - 1), r.get(1));
    }
  }

  @Test
  void garbageQueryBytesGetTheirOwnErrorAndTheGoodQueryOfTheCallIsAnswered() {
    PirQueryClient c = plainClient();
    byte[] garbage = new byte[777];
    RANDOM.nextBytes(garbage);
    String cfg = plainConfig().getConfigId();
    AnswerResponse r = stub("g1").answer(AnswerRequest.newBuilder().setDatabase("plain")
        .addQueries(query("bad", cfg, garbage))
        .addQueries(query("good", cfg, c.queryMessage(42)))
        .addQueries(query("empty", cfg, new byte[0])).build());
    assertEquals(3, r.getResultsCount());
    QueryResult bad = r.getResults(0);
    assertEquals(Status.Code.INVALID_ARGUMENT.value(), bad.getError().getCode());
    assertTrue(bad.getError().getMessage().contains("malformed query"), bad.toString());
    assertArrayEquals(truth.record(42), c.decodeMessage(r.getResults(1).getAnswer().getAnswer()
        .toByteArray(), 42));
    assertEquals(Status.Code.INVALID_ARGUMENT.value(), r.getResults(2).getError().getCode());
    othersStillAnswered();
  }

  @Test
  void garbageProtobufMessageIsRefusedWithoutHarm() {
    MethodDescriptor<InputStream, InputStream> raw = PirServiceGrpc.getAnswerMethod().toBuilder(
        new RawMarshaller(), new RawMarshaller()).build();
    byte[] junk = new byte[4096];
    RANDOM.nextBytes(junk);
    junk[0] = (byte) 0xff; // an invalid field tag: never a valid AnswerRequest
    Metadata h = new Metadata();
    h.put(Metadata.Key.of("x-jpir-client", Metadata.ASCII_STRING_MARSHALLER), "junk");
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> ClientCalls.blockingUnaryCall(io.grpc.ClientInterceptors.intercept(ch,
            MetadataUtils.newAttachHeadersInterceptor(h)), raw,
            CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS),
            new ByteArrayInputStream(junk)));
    assertNotEquals(Status.Code.OK, e.getStatus().getCode());
    assertNotEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode(), e.toString());
    othersStillAnswered();
  }

  @Test
  void oversizedMessageIsRefusedBeforeParsing() {
    int limit = fx.server.maxInboundBytes();
    byte[] big = new byte[limit + 1024];
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> stub("big").answer(AnswerRequest.newBuilder().setDatabase("plain")
            .addQueries(query("huge", plainConfig().getConfigId(), big)).build()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), e.toString());
    othersStillAnswered();
  }

  @Test
  void unknownConfigIdNamesTheCurrentOne() {
    AnswerResponse r = stub("cfg").answer(AnswerRequest.newBuilder().setDatabase("plain")
        .addQueries(query("q1", "0".repeat(64), plainClient().queryMessage(3))).build());
    QueryResult q = r.getResults(0);
    assertEquals(Status.Code.FAILED_PRECONDITION.value(), q.getError().getCode());
    assertEquals(fx.plain.current().configId(), q.getError().getCurrentConfigId());
    assertTrue(q.getError().getMessage().contains(fx.plain.current().configId()));
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> stub("cfg").answer(AnswerRequest.newBuilder().setDatabase("nope")
            .addQueries(query("q2", "x", new byte[1])).build()));
    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    othersStillAnswered();
  }

  @Test
  void aCallWithoutClientIdIsUnauthenticated() {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> PirServiceGrpc.newBlockingStub(ch).getConfig(
            org.jpir.api.v1.GetConfigRequest.getDefaultInstance()));
    assertEquals(Status.Code.UNAUTHENTICATED, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("x-jpir-client"));
    othersStillAnswered();
  }

  @Test
  void retriedRequestIdIsAnsweredOnceAndAReusedIdForAnotherQueryIsRefused() {
    PirQueryClient c = plainClient();
    String cfg = plainConfig().getConfigId();
    AnswerRequest req = AnswerRequest.newBuilder().setDatabase("plain")
        .addQueries(query("retry-1", cfg, c.queryMessage(1000)))
        .addQueries(query("retry-2", cfg, c.queryMessage(2000))).build();
    AnswerResponse first = stub("retrier").answer(req);
    long answered = fx.server.batcher().queriesAnswered();
    AnswerResponse again = stub("retrier").answer(req);
    assertEquals(answered, fx.server.batcher().queriesAnswered(), "the retry answered nothing");
    assertEquals(first, again, "the retry got the very same answers");
    assertArrayEquals(truth.record(2000), c.decodeMessage(again.getResults(1).getAnswer()
        .getAnswer().toByteArray(), 2000));
    // another client may use the same request id: ids are per client
    AnswerResponse other = stub("someone-else").answer(req);
    assertTrue(other.getResults(0).hasAnswer());
    assertEquals(answered + 2, fx.server.batcher().queriesAnswered());
    // the same id for different query bytes is refused
    AnswerResponse reused = stub("retrier").answer(AnswerRequest.newBuilder()
        .setDatabase("plain").addQueries(query("retry-1", cfg, c.queryMessage(5))).build());
    assertEquals(Status.Code.INVALID_ARGUMENT.value(), reused.getResults(0).getError()
        .getCode());
    othersStillAnswered();
  }

  @Test
  void missingKeysAreAPerQueryStatusNamingTheClient() {
    try (NetworkPirClient c = new NetworkPirClient(ch, "no-keys", RetryPolicy.defaults())) {
      RemoteDatabase db = c.database("compact");
      db.client().evaluationKeysMessage(); // generated here, not uploaded
      // the query of a client that never uploaded its keys
      AnswerResponse r = stub("no-keys").answer(AnswerRequest.newBuilder()
          .setDatabase("compact").addQueries(query("k1", db.config().getConfigId(),
              db.client().queryMessage(3))).build());
      QueryResult q = r.getResults(0);
      assertEquals(Status.Code.FAILED_PRECONDITION.value(), q.getError().getCode());
      assertTrue(q.getError().getMessage().contains("no evaluation keys for client 'no-keys'"),
          q.toString());
      // another client sending it is refused: the query names no-keys
      AnswerResponse m = stub("mallory").answer(AnswerRequest.newBuilder()
          .setDatabase("compact").addQueries(query("k2", db.config().getConfigId(),
              db.client().queryMessage(3))).build());
      assertEquals(Status.Code.PERMISSION_DENIED.value(), m.getResults(0).getError().getCode());
      // after the upload (the library does it once), the same client is answered
      assertArrayEquals(fx.compactTruth().record(3), db.retrieve(3));
      c.deleteKeys(db.config().getPresetId(), db.config().getParameterRevision());
      // keys gone on the server: the library checks, uploads them again and asks again, once
      assertArrayEquals(fx.compactTruth().record(4), db.retrieve(4));
      assertTrue(c.keyStatus(db.config().getPresetId(), db.config().getParameterRevision())
          .getFingerprint() != 0);
    }
    othersStillAnswered();
  }

  @Test
  void aClientThatDisconnectsMidCallHarmsNoOne() throws Exception {
    PirQueryClient c = plainClient();
    String cfg = plainConfig().getConfigId();
    ManagedChannel gone = fx.channel();
    Metadata h = new Metadata();
    h.put(Metadata.Key.of("x-jpir-client", Metadata.ASCII_STRING_MARSHALLER), "leaver");
    AnswerRequest.Builder b = AnswerRequest.newBuilder().setDatabase("plain");
    for (int i = 0; i < 8; i++) {
      b.addQueries(query("leave-" + i, cfg, c.queryMessage(i * 100)));
    }
    var future = PirServiceGrpc.newFutureStub(gone)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h)).answer(b.build());
    Thread.sleep(30);
    gone.shutdownNow();
    assertTrue(gone.awaitTermination(10, TimeUnit.SECONDS));
    java.util.concurrent.ExecutionException cut = assertThrows(
        java.util.concurrent.ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS),
        "the call was cut off before its answer (8 queries take longer than 30 ms)");
    assertTrue(Set.of(Status.Code.CANCELLED, Status.Code.UNAVAILABLE).contains(
        Status.fromThrowable(cut).getCode()), cut.toString());
    othersStillAnswered();
    // a later call of the same client with the same ids is answered (once)
    AnswerResponse r = stub("leaver").answer(b.build());
    assertArrayEquals(truth.record(700), c.decodeMessage(r.getResults(7).getAnswer().getAnswer()
        .toByteArray(), 700));
  }

  @Test
  void aBurstBeyondTheQueueIsRefusedWithARetryHintAndEveryAcceptedCallAnswered()
      throws Exception {
    PirQueryClient c = plainClient();
    String cfg = plainConfig().getConfigId();
    Metadata h = new Metadata();
    h.put(Metadata.Key.of("x-jpir-client", Metadata.ASCII_STRING_MARSHALLER), "burst");
    PirServiceGrpc.PirServiceFutureStub fs = PirServiceGrpc.newFutureStub(ch)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h));
    // 20 calls of 8 queries at once: one micro-batch of 8 in flight and 32 queued at most
    List<com.google.common.util.concurrent.ListenableFuture<AnswerResponse>> calls =
        new java.util.ArrayList<>();
    List<long[]> asked = new java.util.ArrayList<>();
    for (int k = 0; k < 20; k++) {
      AnswerRequest.Builder b = AnswerRequest.newBuilder().setDatabase("plain");
      long[] idx = new long[8];
      for (int i = 0; i < 8; i++) {
        idx[i] = RANDOM.nextInt((int) ServiceFixture.PLAIN_COUNT);
        b.addQueries(query("burst-" + k + "-" + i, cfg, c.queryMessage(idx[i])));
      }
      asked.add(idx);
      calls.add(fs.withDeadlineAfter(120, TimeUnit.SECONDS).answer(b.build()));
    }
    int refused = 0;
    int answered = 0;
    for (int k = 0; k < calls.size(); k++) {
      try {
        AnswerResponse r = calls.get(k).get(120, TimeUnit.SECONDS);
        for (int i = 0; i < 8; i++) {
          assertArrayEquals(truth.record(asked.get(k)[i]), c.decodeMessage(r.getResults(i)
              .getAnswer().getAnswer().toByteArray(), asked.get(k)[i]));
        }
        answered++;
      } catch (java.util.concurrent.ExecutionException e) {
        Status st = Status.fromThrowable(e);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, st.getCode(), e.toString());
        Metadata t = Status.trailersFromThrowable(e);
        assertTrue(Long.parseLong(t.get(Metadata.Key.of("retry-after-ms",
            Metadata.ASCII_STRING_MARSHALLER))) >= 50, "a retry hint");
        refused++;
      }
    }
    assertTrue(refused > 0, "160 queries at once exceed 8 in flight + 32 queued");
    assertTrue(answered >= 5, "at least the queue's worth was answered: " + answered);
    othersStillAnswered();
  }

  /** Bytes through as they are. */
  static final class RawMarshaller implements MethodDescriptor.Marshaller<InputStream> {
    @Override
    public InputStream stream(InputStream value) {
      return value;
    }

    @Override
    public InputStream parse(InputStream stream) {
      return stream;
    }
  }
}
