package org.jpir.core.demo;

import java.util.Locale;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.Sizes;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Prints where the bytes of a query, an answer and the evaluation keys go ({@link Sizes}) for a
 * preset and a database, at the geometry the preset would choose (for records spanning planes
 * also the shared-mask answer and the packing key, {@link PlanePacking}); a classic preset
 * prints the classic query.
 */
@Command(name = "SizeReport", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Where the bytes of a query, an answer and the"
    + " evaluation keys go, at the geometry the preset chooses.")
public final class SizeReport implements Runnable {
  @Option(names = "--preset", description = "a compact or classic preset (default:"
      + " ${DEFAULT-VALUE})")
  String preset = CompactParams.ONIONPIR_4096_COMPACT.id();

  @Option(names = "--mib", description = "database size in MiB (default: ${DEFAULT-VALUE})")
  long mib = 1024;

  @Option(names = "--record-size", description = "bytes per record (default: ${DEFAULT-VALUE})")
  int recordSize = 3072;

  public static void main(String[] args) {
    System.exit(new CommandLine(new SizeReport()).execute(args));
  }

  @Override
  public void run() {
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
      System.out.println("geometry: " + cp.chooseGeometryWithReason(count, recordSize).reason());
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
