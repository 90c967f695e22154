package org.jpir.spark;

import java.io.UncheckedIOException;
import org.jpir.core.wire.QueryFileName;
import org.jpir.core.wire.SafeText;
import org.jpir.core.wire.UntrustedFile;

/**
 * Why a query got an error file, told twice: {@code publicText} for its {@code <id>.error}
 * (what is wrong with the query itself, nothing of the server: no paths, no sizes or types of
 * other files, no host names) and {@code logText} for the server's log (the detail, escaped to
 * one line of printable ASCII).
 *
 * @param publicText the error file's text
 * @param logText the log line
 */
record QueryError(String publicText, String logText) {
  /** Longest message of a refusal copied into an error file, in characters. */
  static final int MAX_REASON_CHARS = 500;

  /**
   * A query refused on the driver: unreadable ({@link UntrustedFile.Refused}: what is wrong with
   * the entry), or not a valid query for this server (the decoder's or key store's message,
   * which names only the query's own bytes and its client); an I/O failure on the server's side
   * is reported without its detail.
   */
  static QueryError refused(QueryFileName q, RuntimeException e) {
    String head = "query " + q + " rejected: ";
    if (e instanceof UntrustedFile.Refused r) {
      String text = head + "it " + r.problem().words() + (r.problem()
          == UntrustedFile.Problem.TOO_LARGE ? " of its kind for this database" : "");
      return new QueryError(text, text + detail(r.getCause()));
    }
    if (e instanceof UncheckedIOException) {
      return new QueryError(head + "the server could not read what it needs to answer it; its"
          + " log has the reason", head + detail(e) + detail(e.getCause()));
    }
    String text = head + SafeText.escape(e.getMessage(), MAX_REASON_CHARS);
    return new QueryError(text, text + detail(e.getCause()));
  }

  /** A query that failed on the executors: the error file says so, the log says why. */
  static QueryError failedOnExecutors(QueryFileName q, String reason) {
    String head = "query " + q + " failed on the executors";
    return new QueryError(head + "; the server's log has the reason", head + ": "
        + SafeText.escape(reason));
  }

  /** {@code " (cause)"}, escaped, or nothing when there is no cause. */
  private static String detail(Throwable cause) {
    return cause == null ? "" : " (" + SafeText.escape(cause.toString(), 1000) + ")";
  }
}
