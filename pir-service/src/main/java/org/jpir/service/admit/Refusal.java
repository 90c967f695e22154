package org.jpir.service.admit;

import io.grpc.Status;

/** A query refused at admission, with the status code and a message naming what is wrong. */
public final class Refusal extends Exception {
  private static final long serialVersionUID = 1L;
  private final Status.Code code;

  /** A refusal of {@code code} saying {@code message}. */
  public Refusal(Status.Code code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  /** The status code. */
  public Status.Code code() {
    return code;
  }
}
