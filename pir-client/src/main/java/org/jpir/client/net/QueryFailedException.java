package org.jpir.client.net;

/**
 * A query the server answered with an error status: the gRPC status code number, the server's
 * message and, for an outdated config id, the config id it serves now.
 */
public final class QueryFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int code;
  private final String currentConfigId;

  /** The error of one query. */
  public QueryFailedException(int code, String message, String currentConfigId) {
    super(message);
    this.code = code;
    this.currentConfigId = currentConfigId;
  }

  /** The gRPC status code number ({@code io.grpc.Status.Code#value}). */
  public int code() {
    return code;
  }

  /** The config id served now (set for an outdated config id), else empty. */
  public String currentConfigId() {
    return currentConfigId;
  }
}
