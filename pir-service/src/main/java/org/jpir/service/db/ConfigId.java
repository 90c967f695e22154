package org.jpir.service.db;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;

/**
 * The config id of a served database version: the hex SHA-256 of a canonical text of its name,
 * preset id, parameter revision, geometry (every field), keyword-table parameters (sorted) and
 * data version. Two versions have the same id exactly when a query made for one is valid for
 * the other and is answered from the same data.
 */
public final class ConfigId {
  private ConfigId() {}

  /** The canonical text hashed (one {@code key=value} line each, fixed order). */
  static String canonical(String name, Params p, Geometry g, Map<String, String> keyword,
      int dataVersion) {
    StringBuilder b = new StringBuilder("jpir.v1 config\n");
    b.append("name=").append(name).append('\n');
    b.append("preset=").append(p.id()).append('\n');
    b.append("revision=").append(ParameterRevision.hex(ParameterRevision.of(p))).append('\n');
    b.append("geometry=").append(g.recordCount()).append(',').append(g.recordSize()).append(',')
        .append(g.polyBytes()).append(',').append(g.recordsPerPoly()).append(',')
        .append(g.planes()).append(',').append(g.rows()).append(',').append(g.cols()).append(',')
        .append(g.pairedTail()).append('\n');
    for (Map.Entry<String, String> e : new TreeMap<>(keyword).entrySet()) {
      b.append("keyword:").append(e.getKey()).append('=').append(e.getValue()).append('\n');
    }
    b.append("data.version=").append(dataVersion).append('\n');
    return b.toString();
  }

  /** The config id (64 hex digits) of the given database version. */
  public static String of(String name, Params p, Geometry g, Map<String, String> keyword,
      int dataVersion) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(
          canonical(name, p, g, keyword, dataVersion).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
