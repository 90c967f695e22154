package org.jpir.service.rpc;

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
 * Thread-safe.
 */
final class QueryAdmission {
  private final ServiceKeys keys;

  QueryAdmission(ServiceKeys keys) {
    this.keys = keys;
  }

  /** The accepted query, decoded and checked, or a refusal. */
  AcceptedQuery accept(ServedDatabase db, String client, byte[] wire) throws Refusal {
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
      throw new Refusal(Status.Code.FAILED_PRECONDITION, "no evaluation keys for client '"
          + client + "' under preset " + cp.id() + ": upload them (UploadKeys)");
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
}
