package org.jpir.core.query;

import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;

/**
 * The executors' half of a {@link QueryKind}: turns the bytes of an accepted query (and its
 * client's evaluation-key bytes, for kinds that need keys) into the {@link PreparedQuery} that
 * phase 1 and phase 2 use. Re-created where it runs from its {@link #id()} ({@link #byId}), so
 * only that string travels; immutable and thread-safe.
 */
public interface QueryExpansion {
  /** {@code "classic:<preset id>"} or {@code "compact:<compact preset id>"}. */
  String id();

  /** The server preset of the prepared queries (the database's preset). */
  Params server();

  /** True when {@link #expand} needs the client's evaluation keys. */
  boolean needsKeys();

  /**
   * Decodes and prepares a client's evaluation keys.
   *
   * @throws IllegalArgumentException when the bytes are not valid keys, or the kind has none
   */
  PreparedEvaluationKeys prepareKeys(byte[] keys);

  /** Bytes of the prepared keys {@link #prepareKeys} makes (0 for kinds without keys). */
  long preparedKeysBytes();

  /** Bytes of the prepared query {@link #expand} makes for geometry {@code g}. */
  long preparedQueryBytes(Geometry g);

  /**
   * The prepared query of {@code query} (bytes an accepted query carried) for geometry {@code g};
   * {@code keys} is null for kinds without keys.
   *
   * @throws IllegalArgumentException when the bytes or the keys do not match
   */
  PreparedQuery expand(byte[] query, PreparedEvaluationKeys keys, Geometry g);

  /**
   * The expansion named by {@code id}.
   *
   * @throws IllegalArgumentException when the kind or the preset is unknown
   */
  static QueryExpansion byId(String id) {
    if (id == null) {
      throw new IllegalArgumentException("query expansion id is null");
    }
    int colon = id.indexOf(':');
    String kind = colon < 0 ? id : id.substring(0, colon);
    String preset = colon < 0 ? "" : id.substring(colon + 1);
    switch (kind) {
      case ClassicQueries.NAME:
        return new ClassicQueries.Expansion(Presets.byId(preset));
      case CompactQueries.NAME:
        return new CompactQueries.Expansion(CompactParams.byId(preset));
      default:
        throw new IllegalArgumentException("unknown query kind '" + kind + "' in expansion id '"
            + id + "' (classic, compact)");
    }
  }
}
