package org.jpir.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jpir.api.v1.AnswerRequest;
import org.jpir.api.v1.AnswerResponse;
import org.jpir.api.v1.DatabaseConfig;
import org.jpir.api.v1.GetConfigRequest;
import org.jpir.api.v1.PirServiceGrpc;
import org.jpir.api.v1.Query;
import org.jpir.api.v1.UploadKeysRequest;
import org.jpir.client.net.NetworkPirClient;
import org.jpir.client.net.RemoteDatabase;
import org.jpir.client.net.RetryPolicy;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.client.PirQueryClients;
import org.jpir.service.batch.BatchSettings;
import org.jpir.service.rpc.BearerTokens;
import org.jpir.service.rpc.ConfigTestAccess;
import org.jpir.service.rpc.QuotaInterceptor;
import org.jpir.service.rpc.Quotas;
import org.jpir.service.rpc.TokenInterceptor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Access over a real TLS service (a self-signed certificate made by {@code keytool} for this
 * test): bearer tokens map to client ids ({@code UNAUTHENTICATED} without one or with a bad one,
 * {@code PERMISSION_DENIED} for a header, a query or keys naming another client), per-client
 * quotas refuse with {@code RESOURCE_EXHAUSTED} and a retry hint (on a clock the test moves),
 * expired keys are a per-query status naming the client (the library uploads them again),
 * plaintext is refused, and the client library with a token and the CA retrieves exactly.
 */
class AccessTest {
  static final String ALICE = "alice-token-0123456789";
  static final String BOB = "bob-token-abcdefghijklmn";
  static final int QPM = 6;
  static final SecureRandom RANDOM = new SecureRandom();
  static final AtomicLong CLOCK = new AtomicLong(1_000_000);
  @TempDir
  static Path dir;
  static Path cert;
  static ServiceFixture fx;

  @BeforeAll
  static void start() throws Exception {
    Path[] pem = SelfSigned.make(dir);
    cert = pem[0];
    BearerTokens tokens = BearerTokens.parse(List.of("# test tokens", ALICE + " alice",
        BOB + "  bob", ""));
    fx = new ServiceFixture(new BatchSettings(8, 20, 32, 4, 200), TokenInterceptor.chain(
        new TokenInterceptor(tokens), new QuotaInterceptor(new Quotas(QPM, 60_000, CLOCK::get),
            new Quotas(2, 3_600_000, CLOCK::get))),
        b -> b.sslContext(AccessOptions.serverSsl(pem[0], pem[1])));
  }

  @AfterAll
  static void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  /** Every test starts with full quotas: the quotas' clock moves past a whole hour. */
  @BeforeEach
  void refill() {
    CLOCK.addAndGet(10 * 3_600_000L);
  }

  static ManagedChannel tls() throws Exception {
    return NettyChannelBuilder.forAddress("127.0.0.1", fx.server.port())
        .sslContext(GrpcSslContexts.forClient().trustManager(cert.toFile()).build())
        .maxInboundMessageSize(64 << 20).build();
  }

  static PirServiceGrpc.PirServiceBlockingStub stub(ManagedChannel ch, String auth,
      String header) {
    Metadata h = new Metadata();
    if (auth != null) {
      h.put(TokenInterceptor.AUTHORIZATION, auth);
    }
    if (header != null) {
      h.put(Metadata.Key.of("x-jpir-client", Metadata.ASCII_STRING_MARSHALLER), header);
    }
    return PirServiceGrpc.newBlockingStub(ch)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
        .withDeadlineAfter(120, TimeUnit.SECONDS);
  }

  static Status.Code code(Runnable r) {
    return assertThrows(StatusRuntimeException.class, r::run).getStatus().getCode();
  }

  @Test
  void missingOrBadTokensAreUnauthenticatedAndAnotherClientsHeaderIsDenied() throws Exception {
    ManagedChannel ch = tls();
    try {
      GetConfigRequest req = GetConfigRequest.getDefaultInstance();
      assertEquals(Status.Code.UNAUTHENTICATED, code(() -> stub(ch, null, "alice")
          .getConfig(req)));
      StatusRuntimeException bad = assertThrows(StatusRuntimeException.class,
          () -> stub(ch, "Bearer not-a-token-of-anyone", null).getConfig(req));
      assertEquals(Status.Code.UNAUTHENTICATED, bad.getStatus().getCode());
      assertFalse(bad.getStatus().getDescription().contains("not-a-token"), bad.toString());
      assertEquals(Status.Code.UNAUTHENTICATED, code(() -> stub(ch, ALICE, null)
          .getConfig(req))); // no "Bearer "
      assertEquals(Status.Code.PERMISSION_DENIED, code(() -> stub(ch, "Bearer " + ALICE, "bob")
          .getConfig(req)));
      assertTrue(stub(ch, "Bearer " + ALICE, null).getConfig(req).getDatabasesCount() > 0);
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  void queriesAndKeysNamingAnotherClientAreDenied() throws Exception {
    ManagedChannel ch = tls();
    try (NetworkPirClient bob = new NetworkPirClient(ch, "bob", RetryPolicy.defaults(), BOB)) {
      RemoteDatabase db = bob.database("compact");
      byte[] evk = db.client().evaluationKeysMessage().orElseThrow();
      assertEquals(Status.Code.PERMISSION_DENIED, code(() -> stub(ch, "Bearer " + ALICE, null)
          .uploadKeys(UploadKeysRequest.newBuilder().setPresetId(db.config().getPresetId())
              .setParameterRevision(db.config().getParameterRevision())
              .setEvaluationKeys(ByteString.copyFrom(evk)).build())));
      AnswerResponse r = stub(ch, "Bearer " + ALICE, null).answer(AnswerRequest.newBuilder()
          .setDatabase("compact").addQueries(Query.newBuilder().setRequestId("x1")
              .setConfigId(db.config().getConfigId())
              .setQuery(ByteString.copyFrom(db.client().queryMessage(1)))).build());
      assertEquals(Status.Code.PERMISSION_DENIED.value(), r.getResults(0).getError().getCode());
      assertArrayEquals(fx.compactTruth().record(1), db.retrieve(1)); // bob himself: answered
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  void quotasRefuseWithARetryHintUntilTheWindowRefills() throws Exception {
    ManagedChannel ch = tls();
    try {
      DatabaseConfig cfg = ConfigTestAccess.config(fx.plain);
      PirQueryClient c = PirQueryClients.generate(ServiceFixture.CLASSIC, fx.plain.geometry(),
          "x", RANDOM);
      AnswerRequest.Builder four = AnswerRequest.newBuilder().setDatabase("plain");
      for (int i = 0; i < 4; i++) {
        four.addQueries(Query.newBuilder().setRequestId("q" + i).setConfigId(cfg.getConfigId())
            .setQuery(ByteString.copyFrom(c.queryMessage(i))));
      }
      PirServiceGrpc.PirServiceBlockingStub bob = stub(ch, "Bearer " + BOB, null);
      assertEquals(4, bob.answer(four.build()).getResultsCount());
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> bob.answer(four.build())); // 8 > 6 per minute
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
      long hint = Long.parseLong(e.getTrailers().get(Metadata.Key.of("retry-after-ms",
          Metadata.ASCII_STRING_MARSHALLER)));
      assertEquals(20_000, hint, 1); // 2 more queries at 6 per minute
      CLOCK.addAndGet(hint);
      AnswerResponse r = bob.answer(four.build()); // a retry, same request ids: answered
      assertArrayEquals(fx.plainTruth().record(3), c.decodeMessage(r.getResults(3).getAnswer()
          .getAnswer().toByteArray(), 3));
      // a call larger than a minute's quota: refused without a hint (retrying cannot help)
      AnswerRequest.Builder seven = four.clone();
      for (int i = 4; i < 7; i++) {
        seven.addQueries(Query.newBuilder().setRequestId("q" + i).setConfigId(cfg.getConfigId())
            .setQuery(ByteString.copyFrom(c.queryMessage(i))));
      }
      CLOCK.addAndGet(60_000);
      StatusRuntimeException big = assertThrows(StatusRuntimeException.class,
          () -> bob.answer(seven.build()));
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, big.getStatus().getCode());
      assertFalse(big.getTrailers().containsKey(Metadata.Key.of("retry-after-ms",
          Metadata.ASCII_STRING_MARSHALLER)));
      // alice's quota is her own
      assertEquals(4, stub(ch, "Bearer " + ALICE, null).answer(four.build())
          .getResultsCount());
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  void keyUploadsPerHourAreLimited() throws Exception {
    ManagedChannel ch = tls();
    try (NetworkPirClient alice = new NetworkPirClient(ch, "alice", RetryPolicy.defaults(),
        ALICE)) {
      RemoteDatabase db = alice.database("compact");
      byte[] evk = db.client().evaluationKeysMessage().orElseThrow();
      String preset = db.config().getPresetId();
      String rev = db.config().getParameterRevision();
      CLOCK.addAndGet(3_600_000); // a full bucket
      alice.uploadKeys(preset, rev, evk, null);
      alice.uploadKeys(preset, rev, evk, null);
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> stub(ch, "Bearer " + ALICE, null).uploadKeys(UploadKeysRequest.newBuilder()
              .setPresetId(preset).setParameterRevision(rev)
              .setEvaluationKeys(ByteString.copyFrom(evk)).build()));
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
      assertTrue(e.getStatus().getDescription().contains("2 times per hour"), e.toString());
      assertArrayEquals(fx.compactTruth().record(7), db.retrieve(7)); // keys held: answered
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  void expiredKeysAreAPerQueryStatusNamingTheClientAndTheLibraryUploadsAgain() throws Exception {
    ManagedChannel ch = tls();
    try (NetworkPirClient bob = new NetworkPirClient(ch, "bob", RetryPolicy.defaults(), BOB)) {
      CLOCK.addAndGet(60_000);
      RemoteDatabase db = bob.database("compact");
      assertArrayEquals(fx.compactTruth().record(2), db.retrieve(2)); // keys held, used
      long expirations = fx.keys.stats().expirations();
      fx.clock.addAndGet(ServiceFixture.KEY_TTL + 1);
      AnswerResponse r = stub(ch, "Bearer " + BOB, null).answer(AnswerRequest.newBuilder()
          .setDatabase("compact").addQueries(Query.newBuilder().setRequestId("e1")
              .setConfigId(db.config().getConfigId())
              .setQuery(ByteString.copyFrom(db.client().queryMessage(3)))).build());
      String why = r.getResults(0).getError().getMessage();
      assertEquals(Status.Code.FAILED_PRECONDITION.value(), r.getResults(0).getError().getCode());
      assertTrue(why.contains("client 'bob'") && why.contains("expired"), why);
      assertEquals(expirations + 1, fx.keys.stats().expirations());
      // the library sees its keys gone, uploads them again and is answered
      assertArrayEquals(fx.compactTruth().record(3), db.retrieve(3));
      assertTrue(fx.keys.status("bob", ServiceFixture.COMPACT).present());
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  void plaintextIsRefusedAndTheLibraryConnectsWithTokenAndCa() throws Exception {
    ManagedChannel plain = fx.channel();
    try {
      assertEquals(Status.Code.UNAVAILABLE, code(() -> stub(plain, "Bearer " + ALICE, null)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .getConfig(GetConfigRequest.getDefaultInstance())));
    } finally {
      plain.shutdownNow();
    }
    CLOCK.addAndGet(60_000);
    try (NetworkPirClient net = NetworkPirClient.connect("127.0.0.1:" + fx.server.port(),
        "bob", RetryPolicy.defaults(), BOB, cert)) {
      assertArrayEquals(fx.plainTruth().record(99), net.database("plain").retrieve(99));
    }
    assertTrue(Files.size(cert) > 0);
  }
}
