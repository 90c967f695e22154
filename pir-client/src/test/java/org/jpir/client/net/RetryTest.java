package org.jpir.client.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.jpir.api.v1.AnswerRequest;
import org.jpir.api.v1.AnswerResponse;
import org.jpir.api.v1.Answered;
import org.jpir.api.v1.PirServiceGrpc;
import org.jpir.api.v1.Query;
import org.jpir.api.v1.QueryResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The network client's retries against an in-process server that refuses the first calls:
 * {@code RESOURCE_EXHAUSTED} with the server's retry hint and {@code UNAVAILABLE} are retried
 * with the very same request ids (and the client id header on every try); {@code
 * RESOURCE_EXHAUSTED} without a hint (a message too large) and other codes are not retried.
 */
class RetryTest {
  final List<AnswerRequest> seen = new CopyOnWriteArrayList<>();
  final List<String> clients = new CopyOnWriteArrayList<>();
  final AtomicInteger refuseNext = new AtomicInteger();
  volatile Status refusal = Status.RESOURCE_EXHAUSTED;
  volatile boolean hint = true;
  Server server;
  ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    PirServiceGrpc.PirServiceImplBase impl = new PirServiceGrpc.PirServiceImplBase() {
      @Override
      public void answer(AnswerRequest req, StreamObserver<AnswerResponse> out) {
        seen.add(req);
        if (refuseNext.getAndDecrement() > 0) {
          Metadata t = new Metadata();
          if (hint) {
            t.put(NetworkPirClient.RETRY_AFTER, "20");
          }
          out.onError(refusal.withDescription("busy").asRuntimeException(t));
          return;
        }
        AnswerResponse.Builder b = AnswerResponse.newBuilder();
        for (Query q : req.getQueriesList()) {
          b.addResults(QueryResult.newBuilder().setRequestId(q.getRequestId())
              .setAnswer(Answered.newBuilder().setAnswer(q.getQuery()).setConfigId(
                  q.getConfigId())));
        }
        out.onNext(b.build());
        out.onCompleted();
      }
    };
    ServerInterceptor headers = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata h,
          ServerCallHandler<Q, R> next) {
        clients.add(h.get(Metadata.Key.of(NetworkPirClient.CLIENT_HEADER,
            Metadata.ASCII_STRING_MARSHALLER)));
        return next.startCall(call, h);
      }
    };
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(ServerInterceptors.intercept(impl, headers)).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
  }

  private List<Query> queries(NetworkPirClient c) {
    List<Query> qs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      qs.add(Query.newBuilder().setRequestId(c.newRequestId()).setConfigId("cfg")
          .setQuery(ByteString.copyFromUtf8("q" + i)).build());
    }
    return qs;
  }

  @Test
  void busyAndUnavailableAreRetriedWithTheSameRequestIds() {
    try (NetworkPirClient c = new NetworkPirClient(channel, "alice", new RetryPolicy(5, 1, 10))) {
      List<Query> qs = queries(c);
      refuseNext.set(2);
      AnswerResponse r = c.answer("db", qs, 1 << 20);
      assertEquals(3, seen.size(), "two refusals, then the answer");
      for (AnswerRequest req : seen) {
        assertEquals(qs, req.getQueriesList(), "every try carries the same ids and bytes");
      }
      assertEquals(qs.get(2).getRequestId(), r.getResults(2).getRequestId());
      assertTrue(clients.stream().allMatch("alice"::equals), clients.toString());
      seen.clear();
      refusal = Status.UNAVAILABLE;
      hint = false;
      refuseNext.set(1);
      c.answer("db", qs, 1 << 20);
      assertEquals(2, seen.size());
    }
  }

  @Test
  void tooLargeAndOtherErrorsAreNotRetriedAndTriesAreBounded() {
    try (NetworkPirClient c = new NetworkPirClient(channel, "bob", new RetryPolicy(3, 1, 10))) {
      List<Query> qs = queries(c);
      hint = false; // RESOURCE_EXHAUSTED without the server's hint: a message too large
      refuseNext.set(1);
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> c.answer("db", qs, 1 << 20));
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
      assertEquals(1, seen.size());
      seen.clear();
      refusal = Status.INVALID_ARGUMENT;
      refuseNext.set(1);
      assertThrows(StatusRuntimeException.class, () -> c.answer("db", qs, 1 << 20));
      assertEquals(1, seen.size());
      seen.clear();
      refusal = Status.UNAVAILABLE;
      refuseNext.set(10);
      assertThrows(StatusRuntimeException.class, () -> c.answer("db", qs, 1 << 20));
      assertEquals(3, seen.size(), "at most maxAttempts tries");
    }
  }

  @Test
  void waitIsTheBackoffOrTheServersHintIfLonger() {
    try (NetworkPirClient c = new NetworkPirClient(channel, "carol",
        new RetryPolicy(5, 100, 1000))) {
      long w2 = c.waitMillis(2, null);
      assertTrue(w2 >= 100 && w2 <= 150, "backoff 100 ms + up to 50% jitter: " + w2);
      long w4 = c.waitMillis(4, null);
      assertTrue(w4 >= 400 && w4 <= 600, "doubled twice: " + w4);
      Metadata t = new Metadata();
      t.put(NetworkPirClient.RETRY_AFTER, "900");
      assertEquals(900, c.waitMillis(2, t));
      t = new Metadata();
      t.put(NetworkPirClient.RETRY_AFTER, "999999");
      assertTrue(c.waitMillis(2, t) <= 1000, "a hint is capped at the longest backoff");
    }
  }
}
