package org.jpir.service;

import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.jpir.api.v1.AnswerRequest;
import org.jpir.api.v1.AnswerResponse;
import org.jpir.api.v1.QueryResult;
import org.jpir.service.rpc.ClientIdInterceptor;

/**
 * The gRPC side of {@link ServiceMetrics}. {@link #calls} goes outermost (it sees every call,
 * those refused by authentication or a quota included): each call's method, final status code
 * and latency, and each per-query error's code. {@link #metering} goes inside authentication
 * and quotas: the queries each admitted {@code Answer} call carries, by client id. Neither reads
 * a query's bytes.
 */
final class MetricsInterceptor {
  private MetricsInterceptor() {}

  /** Counts calls by method and code, their latency, and per-query errors by code. */
  static ServerInterceptor calls(ServiceMetrics m) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata h,
          ServerCallHandler<Q, R> next) {
        String method = call.getMethodDescriptor().getBareMethodName();
        String name = method == null ? "unknown" : method;
        long t0 = System.nanoTime();
        return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void sendMessage(R message) {
            if (message instanceof AnswerResponse a) {
              for (QueryResult r : a.getResultsList()) {
                if (r.hasError()) {
                  m.queryErrors.labelValues(Status.fromCodeValue(r.getError().getCode())
                      .getCode().name()).inc();
                }
              }
            }
            super.sendMessage(message);
          }

          @Override
          public void close(Status status, Metadata trailers) {
            m.calls.labelValues(name, status.getCode().name()).inc();
            m.callSeconds.labelValues(name).observe((System.nanoTime() - t0) / 1e9);
            super.close(status, trailers);
          }
        }, h);
      }
    };
  }

  /** Counts the queries of each {@code Answer} call by its client id (for metering). */
  static ServerInterceptor metering(ServiceMetrics m) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata h,
          ServerCallHandler<Q, R> next) {
        String client = ClientIdInterceptor.current();
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
            next.startCall(call, h)) {
          @Override
          public void onMessage(Q message) {
            if (message instanceof AnswerRequest a) {
              m.clientQueries.labelValues(client).inc(a.getQueriesCount());
            }
            super.onMessage(message);
          }
        };
      }
    };
  }
}
