package org.jpir.core.demo;

import java.util.Locale;
import org.jpir.core.CompactParams;
import org.jpir.core.Geometry;
import org.jpir.core.Params;
import org.jpir.core.PlanePacking;
import org.jpir.core.Presets;
import org.jpir.core.Sizes;

/**
 * Prints where the bytes of a query, an answer and the evaluation keys go ({@link Sizes}) for a
 * preset and a database, at the geometry the preset would choose (for records spanning planes
 * also the shared-mask answer and the packing key, {@link PlanePacking}). Options: {@code
 * --preset ID} (default onionpir-4096-compact-128; a classic preset prints the classic query),
 * {@code --mib M} (default 1024), {@code --record-size B} (default 3072).
 */
public final class SizeReport {
  private SizeReport() {}

  public static void main(String[] args) {
    String preset = CompactParams.ONIONPIR_4096_COMPACT.id();
    long mib = 1024;
    int recordSize = 3072;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--preset": preset = args[i + 1]; break;
        case "--mib": mib = Long.parseLong(args[i + 1]); break;
        case "--record-size": recordSize = Integer.parseInt(args[i + 1]); break;
        default: throw new IllegalArgumentException("unknown option '" + args[i]
            + "' (known: --preset --mib --record-size)");
      }
    }
    if (args.length % 2 != 0) {
      throw new IllegalArgumentException("option " + args[args.length - 1] + " needs a value");
    }
    long count = Math.max(1, (mib << 20) / recordSize);
    CompactParams cp = null;
    for (CompactParams c : CompactParams.all()) {
      if (c.id().equals(preset)) {
        cp = CompactParams.byId(preset);
      }
    }
    Params p = cp != null ? cp.server() : Presets.byId(preset);
    Geometry g = cp != null ? cp.chooseGeometry(count, recordSize)
        : Geometry.choose(p, count, recordSize, 1024);
    System.out.println(String.format(Locale.ROOT, "preset %s, N = %d; database %d x %d B"
        + " (%d MiB): %d rows x %d columns x %d planes, %d records per polynomial", p.id(),
        p.n(), count, recordSize, mib, g.rows(), g.cols(), g.planes(), g.recordsPerPoly()));
    if (cp != null) {
      System.out.print(Sizes.compactQuery(cp, g).describe());
      System.out.print(Sizes.answer(p, g).describe());
      System.out.print(Sizes.evaluationKeys(cp, g).describe());
    } else {
      System.out.print(Sizes.query(p, g).describe());
      System.out.print(Sizes.answer(p, g).describe());
    }
    if (g.planes() > 1 && g.planes() <= PlanePacking.MAX_PLANES) {
      System.out.print(Sizes.sharedAnswer(p, g).describe());
      System.out.print(Sizes.packingKey(p, g.planes()).describe());
    }
  }
}
