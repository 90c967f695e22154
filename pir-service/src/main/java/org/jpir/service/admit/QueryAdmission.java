package org.jpir.service.admit;

import io.grpc.Status;
import org.jpir.core.params.CompactParams;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.SafeText;
import org.jpir.core.wire.Wire;
import org.jpir.service.db.ServedDatabase;
import org.jpir.service.keys.ServiceKeys;

/**
 * Checks one query's bytes on the driver before it may join a micro-batch: its size against the
 * largest valid query of the database (before decoding), its decoding against the database's
 * preset and geometry, and, for a compact query, that it names the calling client and was made
 * for the keys held for it. Every refusal is a {@link Refusal} whose message names the query's
 * problem, the client or the database, never anything the server holds about other clients.
 * Used by every front door: the gRPC calls and the query directory. Thread-safe.
 */
public final class QueryAdmission {
  private final ServiceKeys keys;

  /** Admission against the keys {@code keys} holds. */
  public QueryAdmission(ServiceKeys keys) {
    this.keys = keys;
  }

  /**
   * The accepted query, decoded and checked, for the calling client {@code client}.
   *
   * @throws Refusal naming what is wrong, with its status code
   */
  public AcceptedQuery accept(ServedDatabase db, String client, byte[] wire) throws Refusal {
    long max = db.maxQueryBytes();
    if (wire.length > max) {
      throw new Refusal(Status.Code.INVALID_ARGUMENT, "query of " + wire.length + " bytes:"
          + " database " + db.name() + " takes at most " + max);
    }
    CompactParams cp = db.compact();
    if (cp == null) {
      try {
        return new ClassicQueries(db.params()).accept(wire, db.geometry());
      } catch (IllegalArgumentException e) {
        throw new Refusal(Status.Code.INVALID_ARGUMENT, "malformed query: " + text(e));
      }
    }
    CompactQuery q;
    try {
      q = Wire.readCompactQuery(wire, cp, db.geometry());
    } catch (IllegalArgumentException e) {
      throw new Refusal(Status.Code.INVALID_ARGUMENT, "malformed compact query: " + text(e));
    }
    if (!q.clientId().equals(client)) {
      throw new Refusal(Status.Code.PERMISSION_DENIED, "the query names client '"
          + q.clientId() + "', but the call is of client '" + client + "'");
    }
    if (keys.lookup(client, cp).isEmpty()) {
      throw new Refusal(Status.Code.FAILED_PRECONDITION, keys.missing(client, cp));
    }
    try {
      return keys.compactQueries(cp).accept(wire, db.geometry());
    } catch (IllegalArgumentException e) {
      throw new Refusal(Status.Code.FAILED_PRECONDITION, text(e));
    }
  }

  private static String text(Exception e) {
    return SafeText.escape(e.getMessage() == null ? e.getClass().getSimpleName()
        : e.getMessage(), 300);
  }

  /**
   * The client a query's bytes name: for a compact database the one its header names (the
   * query directory has no caller to take it from), else {@code fallback}.
   *
   * @throws Refusal when a compact query cannot be decoded
   */
  public static String clientOf(ServedDatabase db, byte[] wire, String fallback)
      throws Refusal {
    if (db.compact() == null) {
      return fallback;
    }
    if (wire.length > db.maxQueryBytes()) {
      throw new Refusal(Status.Code.INVALID_ARGUMENT, "query of " + wire.length + " bytes:"
          + " database " + db.name() + " takes at most " + db.maxQueryBytes());
    }
    try {
      return Wire.readCompactQuery(wire, db.compact(), db.geometry()).clientId();
    } catch (IllegalArgumentException e) {
      throw new Refusal(Status.Code.INVALID_ARGUMENT, "malformed compact query: " + text(e));
    }
  }
}
