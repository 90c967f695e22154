package org.jpir.spark;

import org.jpir.core.Geometry;
import org.jpir.core.Params;

/**
 * A database named on the command line, and the geometry both client and server derive from it:
 * {@code synthetic:<count>x<recordSize>[:<seed>]} is the seeded synthetic generator.
 */
public record DatabaseSpec(RecordSourceFactory factory, long count, int recordSize) {

  /** Parses a spec; the message names what is wrong. */
  public static DatabaseSpec parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("no database given (use synthetic:<count>x<size>[:seed])");
    }
    if (spec.startsWith("synthetic:")) {
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
        return new DatabaseSpec(new SyntheticSourceFactory(count, size, seed), count, size);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("synthetic database '" + spec + "': " + e.getMessage());
      }
    }
    throw new IllegalArgumentException("unknown database '" + spec
        + "' (supported: synthetic:<count>x<recordSize>[:seed])");
  }

  /** The geometry client and server agree on. */
  public Geometry geometry(Params p, int maxRows) {
    return Geometry.choose(p, count, recordSize, maxRows);
  }
}
