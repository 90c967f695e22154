package org.jpir.core.params;

import java.util.Locale;

/** The default geometry of a compact preset ({@link CompactParams#chooseGeometryWithReason}). */
final class CompactGeometry {
  private CompactGeometry() {}

  /** As {@link CompactParams#chooseGeometryWithReason(long, int, boolean)}. */
  static CompactParams.GeometryChoice choose(CompactParams cp, long recordCount, int recordSize,
      boolean share) {
    Geometry g = Geometry.of(cp.server(), recordCount, recordSize, 1, share);
    long polys = g.polynomials();
    int maxRows = cp.maxRows();
    double ideal = Math.sqrt(polys * (double) g.planes() * CompactParams.CMUX_PER_KEY_SWITCH
        / cp.server().plaintextLimbs());
    int rows = (int) Math.max(1, Math.min(maxRows, Math.round(ideal)));
    String why = String.format(Locale.ROOT, "rows = sqrt(%d polynomials x %d planes x"
        + " %.2f (CMux / key switch) / %d limbs) = %.0f", polys, g.planes(),
        CompactParams.CMUX_PER_KEY_SWITCH, cp.server().plaintextLimbs(), ideal);
    if (ideal > maxRows) {
      why += ", capped at the " + maxRows + " rows the noise budget allows";
    }
    Geometry out = Geometry.of(cp.server(), recordCount, recordSize, rows, share);
    if (out.cols() > 1 && !cp.layout(out.rows(), out.cols()).packed()) {
      for (int r = rows - 1; r >= Math.max(1, rows / 2); r--) {
        Geometry lower = Geometry.of(cp.server(), recordCount, recordSize, r, share);
        if (cp.layout(lower.rows(), lower.cols()).packed()) {
          why += ", lowered to " + r + " so that the query packs into one GLWE (half the query)";
          out = lower;
          break;
        }
      }
    }
    cp.checkGeometry(out.rows(), out.cols());
    if (Geometry.PAIR_TAILS_BY_DEFAULT && out.canPairTail()) {
      out = out.withPairedTail();
      why += ", the half-used last plane paired (columns 2j and 2j + 1 share a polynomial: "
          + out.planeColumns(out.planes() - 1) + " columns)";
    }
    CompactParams.Layout l = cp.layout(out.rows(), out.cols());
    why += String.format(Locale.ROOT, ": %d x %d x %d, query %s", out.rows(),
        out.cols(), out.planes(), l.packed() ? "one GLWE" : "two GLWEs");
    return new CompactParams.GeometryChoice(out, why);
  }
}
