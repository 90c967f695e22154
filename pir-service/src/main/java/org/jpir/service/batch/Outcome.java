package org.jpir.service.batch;

import io.grpc.Status;

/**
 * What one query got: its answer (wire form), the data version and config id that answered it;
 * or a status code and a message naming what is wrong (never an index), with the current config
 * id when the query named an outdated one.
 */
public record Outcome(byte[] answer, int dataVersion, String configId, Status.Code code,
    String message, String currentConfigId) {

  /** An answer. */
  public static Outcome answered(byte[] answer, int dataVersion, String configId) {
    return new Outcome(answer, dataVersion, configId, Status.Code.OK, "", "");
  }

  /** An error of {@code code}. */
  public static Outcome error(Status.Code code, String message) {
    return new Outcome(null, 0, "", code, message, "");
  }

  /** A query made for a config id no longer (or never) served; names the current one. */
  public static Outcome outdated(String message, String currentConfigId) {
    return new Outcome(null, 0, "", Status.Code.FAILED_PRECONDITION, message, currentConfigId);
  }

  /** Whether this is an answer. */
  public boolean ok() {
    return answer != null;
  }
}
