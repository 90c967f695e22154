package org.jpir.service.rpc;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.jpir.api.v1.AnswerRequest;
import org.jpir.api.v1.UploadKeysRequest;

/**
 * Per-client quotas on the calling client (the id an authenticating interceptor put in {@link
 * ClientIdInterceptor#CLIENT_ID}, so it runs inside that one): an {@code Answer} call takes one
 * unit of the queries-per-minute quota per query it carries, an {@code UploadKeys} call one unit
 * of the uploads-per-hour quota. A call beyond its quota is closed with {@code
 * RESOURCE_EXHAUSTED} and the trailer {@code retry-after-ms} (when the quota will allow it; the
 * client library waits that long and retries), before the handler sees it; a call larger than a
 * whole window's quota gets no hint. Either quota may be null (none).
 */
public final class QuotaInterceptor implements ServerInterceptor {
  private final Quotas queries;
  private final Quotas uploads;

  /** Queries per minute ({@code queries}) and uploads per hour ({@code uploads}); null: none. */
  public QuotaInterceptor(Quotas queries, Quotas uploads) {
    this.queries = queries;
    this.uploads = uploads;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String client = ClientIdInterceptor.current();
    ServerCall.Listener<Q> delegate = next.startCall(call, headers);
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
      private boolean refused;

      @Override
      public void onMessage(Q message) {
        String why = null;
        long wait = 0;
        if (message instanceof AnswerRequest a && queries != null) {
          wait = queries.take(client, a.getQueriesCount());
          why = a.getQueriesCount() + " queries: client '" + client + "' may send "
              + queries.perWindow() + " per minute";
        } else if (message instanceof UploadKeysRequest && uploads != null) {
          wait = uploads.take(client, 1);
          why = "a key upload: client '" + client + "' may upload keys " + uploads.perWindow()
              + " times per hour";
        }
        if (wait != 0) {
          refused = true;
          Metadata trailers = new Metadata();
          if (wait > 0) {
            trailers.put(AnswerCall.RETRY_AFTER_KEY, Long.toString(wait));
          }
          call.close(Status.RESOURCE_EXHAUSTED.withDescription("quota exceeded by " + why
              + (wait > 0 ? "; retry in " + wait + " ms" : "")), trailers);
          return;
        }
        super.onMessage(message);
      }

      @Override
      public void onHalfClose() {
        if (!refused) {
          super.onHalfClose();
        }
      }

      @Override
      public void onReady() {
        if (!refused) {
          super.onReady();
        }
      }
    };
  }
}
