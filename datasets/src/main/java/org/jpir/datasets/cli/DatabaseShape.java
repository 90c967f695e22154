package org.jpir.datasets.cli;

import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;

/**
 * How a database named by {@code --db} gets its preset and geometry, written once for the client
 * and the server so that both derive the same: a stored database's manifest wins, else the
 * requested preset, else the record size's default ({@link DefaultPreset}); the geometry is the
 * manifest's, else the preset's chooser. Also parses {@code synthetic:<count>x<size>[:seed]}.
 */
public final class DatabaseShape {
  private DatabaseShape() {}

  /** A parsed {@code synthetic:<count>x<recordSize>[:seed]} (seed 1 when absent). */
  public record Synthetic(long count, int recordSize, long seed) {}

  /**
   * Parses {@code spec}, which starts with {@code synthetic:}.
   *
   * @throws IllegalArgumentException when it is malformed or names a count or size below 1
   */
  public static Synthetic synthetic(String spec) {
    String[] parts = spec.substring("synthetic:".length()).split(":");
    String[] cs = parts[0].split("x");
    if (cs.length != 2) {
      throw new IllegalArgumentException("synthetic database '" + spec
          + "' must look like synthetic:<count>x<recordSize>[:seed]");
    }
    try {
      long count = Long.parseLong(cs[0]);
      int size = Integer.parseInt(cs[1]);
      long seed = parts.length > 1 ? Long.parseLong(parts[1]) : 1;
      if (count < 1 || size < 1) {
        throw new IllegalArgumentException("synthetic database '" + spec
            + "' needs count >= 1 and record size >= 1");
      }
      return new Synthetic(count, size, seed);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("synthetic database '" + spec + "': " + e.getMessage());
    }
  }

  /**
   * The preset: {@code storedPreset} (the manifest's, null for a synthetic database; a different
   * {@code requested} id is an error), else {@code requested}, else the record size's default.
   */
  public static Params params(String storedPreset, String requested, int recordSize) {
    if (storedPreset != null) {
      if (requested != null && !requested.equals(storedPreset)) {
        throw new IllegalArgumentException("database was stored for preset '" + storedPreset
            + "', not '" + requested + "'");
      }
      return Presets.byId(storedPreset);
    }
    return DefaultPreset.resolve(requested, recordSize);
  }

  /** The geometry: {@code stored} (the manifest's) when not null, else the preset's chooser. */
  public static Geometry geometry(Geometry stored, Params p, long count, int recordSize,
      int maxRows) {
    return stored != null ? stored : Presets.geometry(p, count, recordSize, maxRows);
  }
}
