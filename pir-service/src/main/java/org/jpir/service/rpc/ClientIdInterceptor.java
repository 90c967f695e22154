package org.jpir.service.rpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.jpir.core.wire.EvaluationKeys;
import org.jpir.core.wire.SafeText;

/**
 * Where a call's client id comes from, in one place: today the metadata header {@value #HEADER}
 * (1 to 64 characters of [A-Za-z0-9._-]). A call without it, or with a malformed one, is closed
 * with {@code UNAUTHENTICATED} before any handler runs; otherwise the id is in {@link
 * #CLIENT_ID} for the call's handlers. Bearer-token authentication replaces this class: another
 * interceptor that sets the same context key.
 */
public final class ClientIdInterceptor implements ServerInterceptor {
  /** The header naming the client. */
  public static final String HEADER = "x-jpir-client";
  /** The header's key. */
  public static final Metadata.Key<String> KEY =
      Metadata.Key.of(HEADER, Metadata.ASCII_STRING_MARSHALLER);
  /** The calling client's id, set for every call this interceptor lets through. */
  public static final Context.Key<String> CLIENT_ID = Context.key("jpir-client-id");

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String id = headers.get(KEY);
    if (id == null) {
      call.close(Status.UNAUTHENTICATED.withDescription("no client id: send the metadata header "
          + HEADER), new Metadata());
      return new ServerCall.Listener<>() { };
    }
    try {
      EvaluationKeys.checkClientId(id);
    } catch (IllegalArgumentException e) {
      call.close(Status.UNAUTHENTICATED.withDescription(SafeText.escape(e.getMessage(), 200)),
          new Metadata());
      return new ServerCall.Listener<>() { };
    }
    return Contexts.interceptCall(Context.current().withValue(CLIENT_ID, id), call, headers,
        next);
  }

  /** The client id of the current call (set by this interceptor or its replacement). */
  public static String current() {
    String id = CLIENT_ID.get();
    if (id == null) {
      throw new IllegalStateException("no client id in the call's context: is the client-id"
          + " interceptor installed?");
    }
    return id;
  }
}
