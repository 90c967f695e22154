package org.jpir.service.keys;

import java.util.Optional;
import org.jpir.core.params.CompactParams;
import org.jpir.core.query.QueryKind;

/**
 * The evaluation keys the service holds, per (client id, compact preset): what the gRPC calls
 * {@code UploadKeys}, {@code DeleteKeys} and {@code KeyStatus} change and read, and what compact
 * queries are accepted against. The seam for a persistent store with least-recently-used
 * eviction and a time to live: such a store implements this interface (its {@link #lookup}
 * refreshing the time to live) and the service does not change. Implementations are
 * thread-safe; none logs key bytes.
 */
public interface ServiceKeys {
  /**
   * Stores (or replaces) the keys of {@code clientId} for {@code cp} from their wire form, and
   * the optional plane-packing key ({@code packingKey} null or empty: none).
   *
   * @return what is held afterwards ({@link KeyInfo#present()} true)
   * @throws IllegalArgumentException when the bytes are malformed, larger than the preset's
   *     largest valid keys, for another preset, or name another client (the message says which)
   */
  KeyInfo upload(String clientId, CompactParams cp, byte[] evaluationKeys, byte[] packingKey);

  /** Forgets the keys of {@code clientId} for {@code cp}; returns {@link KeyInfo#missing}. */
  KeyInfo delete(String clientId, CompactParams cp);

  /** What is held for {@code clientId} under {@code cp}, without changing it. */
  KeyInfo status(String clientId, CompactParams cp);

  /**
   * The keys of {@code clientId} for {@code cp} when held (a use: a store with a time to live
   * refreshes it here), else empty.
   */
  Optional<KeyInfo> lookup(String clientId, CompactParams cp);

  /**
   * Why {@code clientId} has no keys under {@code cp} (after {@link #lookup} found none): a
   * message naming the client and the preset, saying whether they expired.
   */
  default String missing(String clientId, CompactParams cp) {
    return "no evaluation keys for client '" + clientId + "' under preset " + cp.id()
        + ": upload them (UploadKeys)";
  }

  /**
   * The query kind that accepts compact queries of {@code cp} against the keys held here (a
   * query of a client without keys is refused by it, naming the client).
   *
   * @throws IllegalArgumentException when {@code cp} is not a preset this store serves
   */
  QueryKind compactQueries(CompactParams cp);
}
