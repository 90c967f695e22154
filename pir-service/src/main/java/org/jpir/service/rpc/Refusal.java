package org.jpir.service.rpc;

import io.grpc.Status;

/** A query refused at admission, with the status code and a message naming what is wrong. */
final class Refusal extends Exception {
  private final Status.Code code;

  Refusal(Status.Code code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  Status.Code code() {
    return code;
  }
}
