package org.jpir.service.rpc;

import java.util.Collection;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.params.CompactParams;
import org.jpir.core.wire.Wire;
import org.jpir.service.db.ServedDatabase;

/**
 * Message size limits derived from the databases served: the largest valid call is either an
 * {@code Answer} of {@code maxQueries} of the largest valid queries, or an {@code UploadKeys} of
 * the largest valid evaluation keys and packing key; each with room for the ids and the protobuf
 * framing. gRPC refuses a larger message before it is parsed ({@code RESOURCE_EXHAUSTED}).
 */
public final class Limits {
  /** Bytes allowed per query for its ids and framing. */
  static final long PER_QUERY_OVERHEAD = 512;
  /** Bytes allowed per message for the database name and framing. */
  static final long PER_MESSAGE_OVERHEAD = 4096;

  private Limits() {}

  /** The largest message the server accepts for {@code dbs} and calls of {@code maxQueries}. */
  public static int maxInboundBytes(Collection<ServedDatabase> dbs, int maxQueries) {
    long max = PER_MESSAGE_OVERHEAD;
    for (ServedDatabase db : dbs) {
      max = Math.max(max, maxQueries * (db.maxQueryBytes() + PER_QUERY_OVERHEAD)
          + PER_MESSAGE_OVERHEAD);
      CompactParams cp = db.compact();
      if (cp != null) {
        max = Math.max(max, Wire.maxEvaluationKeysBytes(cp)
            + Wire.packingKeyBytes(cp.server(), PlanePacking.MAX_PLANES) + PER_MESSAGE_OVERHEAD);
      }
    }
    return (int) Math.min(max, Integer.MAX_VALUE - 8);
  }

  /** The largest answer message for {@code dbs} and calls of {@code maxQueries}. */
  public static int maxOutboundBytes(Collection<ServedDatabase> dbs, int maxQueries) {
    long max = PER_MESSAGE_OVERHEAD;
    for (ServedDatabase db : dbs) {
      max = Math.max(max, maxQueries * (db.maxAnswerBytes() + PER_QUERY_OVERHEAD)
          + PER_MESSAGE_OVERHEAD);
    }
    return (int) Math.min(max, Integer.MAX_VALUE - 8);
  }
}
