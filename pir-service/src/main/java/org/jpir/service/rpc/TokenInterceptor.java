package org.jpir.service.rpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Optional;

/**
 * The client id from a bearer token ({@code authorization: Bearer <token>}, looked up in {@link
 * BearerTokens}): a call without a token, or with one not in the file, is closed with {@code
 * UNAUTHENTICATED} before any handler runs; a call whose {@code x-jpir-client} header (which the
 * client library sends) names another client than its token is {@code PERMISSION_DENIED}.
 * Otherwise the token's client id is in {@link ClientIdInterceptor#CLIENT_ID}, as the handlers
 * expect. No status or log line contains a token.
 */
public final class TokenInterceptor implements ServerInterceptor {
  /** The header carrying the token. */
  public static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final String BEARER = "Bearer ";

  private final BearerTokens tokens;

  /** Authenticates calls against {@code tokens}. */
  public TokenInterceptor(BearerTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String auth = headers.get(AUTHORIZATION);
    Optional<String> client = auth != null && auth.regionMatches(true, 0, BEARER, 0,
        BEARER.length()) ? tokens.clientOf(auth.substring(BEARER.length()).strip())
        : Optional.empty();
    if (client.isEmpty()) {
      return refuse(call, Status.UNAUTHENTICATED.withDescription(auth == null
          ? "no bearer token: send the metadata header 'authorization: Bearer <token>'"
          : "the bearer token is not valid"));
    }
    String named = headers.get(ClientIdInterceptor.KEY);
    if (named != null && !named.equals(client.get())) {
      return refuse(call, Status.PERMISSION_DENIED.withDescription("the call names client '"
          + org.jpir.core.wire.SafeText.escape(named, 80) + "', but its token is of client '"
          + client.get() + "'"));
    }
    return Contexts.interceptCall(Context.current().withValue(ClientIdInterceptor.CLIENT_ID,
        client.get()), call, headers, next);
  }

  private static <Q, R> ServerCall.Listener<Q> refuse(ServerCall<Q, R> call, Status s) {
    call.close(s, new Metadata());
    return new ServerCall.Listener<>() { };
  }

  /**
   * {@code outer} then {@code inner} as one interceptor: {@code inner} runs inside {@code
   * outer}'s context (the client id an authenticating {@code outer} set).
   */
  public static ServerInterceptor chain(ServerInterceptor outer, ServerInterceptor inner) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata h,
          ServerCallHandler<Q, R> next) {
        return outer.interceptCall(call, h, (c, hh) -> inner.interceptCall(c, hh, next));
      }
    };
  }
}
