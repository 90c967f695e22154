package org.jpir.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.params.Security;
import org.jpir.core.wire.Sizes;

/**
 * The parameter table's rows from the code alone: per production preset its geometries, noise
 * budget, security estimate and wire sizes ({@link Sizes}), no measurement.
 */
public final class PresetRows {
  private PresetRows() {}

  /** Size geometry of the table: 1 GiB of 3 KiB records. */
  public static final long SIZE_BYTES = 1L << 30;
  /** Record size of the size geometry. */
  public static final int SIZE_RECORD = 3072;
  /** Record size of the large-record rate column: 30 KiB. */
  public static final int LARGE_RECORD = 30 * 1024;

  /**
   * What the code says about one production preset (no measurement).
   *
   * @param params the server parameters
   * @param compact the compact scheme, or null for a classic preset
   * @param maxRows rows of the largest geometry (the budget's)
   * @param maxCols columns of the largest geometry
   * @param log2Std log2 of the estimated answer noise std at the largest geometry
   * @param log2Failure log2 failure probability per coefficient there
   * @param security the server parameters' estimate
   * @param keySecurity the compact key parameters' estimate (null for classic)
   * @param sizeGeometry the geometry of 1 GiB of 3 KiB records
   * @param queryBytes wire bytes of a query there ({@link Sizes})
   * @param answerBytes wire bytes of an answer there
   * @param keyBytes wire bytes of the evaluation keys there (0 for classic)
   * @param largeGeometry the geometry of 1 GiB of 30 KiB records
   * @param largeAnswerBytes wire bytes of a per-plane answer there
   * @param largeSharedBytes wire bytes of a shared-mask answer there ({@link
   *     org.jpir.core.lwe.PlanePacking})
   * @param packingKeyBytes wire bytes of the client's packing key for that geometry
   * @param log2FailureShared log2 failure per coefficient at the largest geometry with the
   *     packing's noise added
   * @param sharedBytes wire bytes of a shared-mask answer at the 3 KiB geometry when its records
   *     span 2 to MAX_PLANES planes (else answerBytes)
   * @param sharedKeyBytes wire bytes of the packing key for that geometry (0 when none)
   */
  public record Row(Params params, CompactParams compact, int maxRows, int maxCols,
      double log2Std, double log2Failure, Security.Estimate security,
      Security.Estimate keySecurity, Geometry sizeGeometry, long queryBytes, long answerBytes,
      long keyBytes, Geometry largeGeometry, long largeAnswerBytes, long largeSharedBytes,
      long packingKeyBytes, double log2FailureShared, long sharedBytes, long sharedKeyBytes) {

    /** Record bytes per answer byte at 30 KiB records, per-plane answers. */
    public double largeRate() {
      return (double) LARGE_RECORD / largeAnswerBytes;
    }

    /** Record bytes per answer byte at 30 KiB records, shared-mask answers. */
    public double largeSharedRate() {
      return (double) LARGE_RECORD / largeSharedBytes;
    }

    /** The smaller classical estimate of the server and (compact) key parameters. */
    public double classicalBits() {
      return keySecurity == null ? security.classicalBits()
          : Math.min(security.classicalBits(), keySecurity.classicalBits());
    }

    /** The smaller quantum estimate of the server and (compact) key parameters. */
    public double quantumBits() {
      return keySecurity == null ? security.quantumBits()
          : Math.min(security.quantumBits(), keySecurity.quantumBits());
    }
  }

  /** The production presets, classic then compact (insecure test presets excluded). */
  public static List<Params> productionPresets() {
    List<Params> out = new ArrayList<>();
    for (Params p : Presets.all()) {
      if (p.secure()) {
        out.add(p);
      }
    }
    return out;
  }

  /** The insecure test presets (listed in the table as refused outside tests). */
  public static List<Params> testPresets() {
    List<Params> out = new ArrayList<>();
    for (Params p : Presets.all()) {
      if (!p.secure()) {
        out.add(p);
      }
    }
    return out;
  }

  /** The geometry preset {@code p} chooses for {@code bytes} of records of {@code size}. */
  public static Geometry geometry(Params p, long bytes, int size) {
    return Presets.geometry(p, Math.max(1, bytes / size), size, 1024);
  }

  /** The row of preset {@code p}, from the code alone. */
  public static Row row(Params p) {
    CompactParams cp = Presets.compactFor(p);
    int rows;
    int cols;
    double v;
    if (cp != null) {
      rows = cp.maxRows();
      cols = CompactParams.BUDGET_COLS;
      v = Noise.compactAnswer(cp, rows, cols);
    } else {
      rows = Geometry.maxRows(p);
      cols = Presets.BUDGET_COLS;
      v = Noise.answer(p, rows, cols);
    }
    Geometry g = geometry(p, SIZE_BYTES, SIZE_RECORD);
    Geometry large = geometry(p, SIZE_BYTES, LARGE_RECORD);
    long query = cp != null ? Sizes.compactQuery(cp, g).total() : Sizes.query(p, g).total();
    long keys = cp != null ? Sizes.evaluationKeys(cp, g).total() : 0;
    // beyond PlanePacking.MAX_PLANES planes answers stay per plane: no packing key, no shared mask
    boolean packs = packs(large);
    double vShared = packs ? v + PlanePacking.variance(p, large.planes()) : v;
    long perPlane = Sizes.answer(p, large).total();
    return new Row(p, cp, rows, cols, Math.log(v) / Math.log(4),
        Noise.log2FailureProbability(p, v), p.estimatedSecurity(),
        cp != null ? cp.keys().estimatedSecurity() : null, g, query, Sizes.answer(p, g).total(),
        keys, large, perPlane, packs ? Sizes.sharedAnswer(p, large).total() : perPlane,
        packs ? Sizes.packingKey(p, large.planes()).total() : 0,
        Noise.log2FailureProbability(p, vShared),
        packs(g) ? Sizes.sharedAnswer(p, g).total() : Sizes.answer(p, g).total(),
        packs(g) ? Sizes.packingKey(p, g.planes()).total() : 0);
  }

  /** Whether answers at g can share one mask ({@link PlanePacking}: 2 to MAX_PLANES planes). */
  public static boolean packs(Geometry g) {
    return g.planes() >= 2 && g.planes() <= PlanePacking.MAX_PLANES;
  }

  /** The cells of a row that come from the code alone (sizes, rate), as the table prints them. */
  public static String sizeCells(Row r) {
    Geometry g = r.sizeGeometry();
    Geometry l = r.largeGeometry();
    String shared = packs(l) ? String.format(Locale.ROOT, "shared mask %,d B (**%.3f**), packing"
        + " key %,d B", r.largeSharedBytes(), r.largeSharedRate(), r.packingKeyBytes())
        : String.format(Locale.ROOT, "no shared mask (%d planes > %d)", l.planes(),
            PlanePacking.MAX_PLANES);
    String answer = packs(g) ? String.format(Locale.ROOT, "%,d (%d planes); shared mask **%,d**,"
        + " packing key %,d", r.answerBytes(), g.planes(), r.sharedBytes(), r.sharedKeyBytes())
        : String.format(Locale.ROOT, "%,d", r.answerBytes());
    return String.format(Locale.ROOT, "%d x %d | %,d | %s | %s | %d x %d x %d: per-plane %,d B"
        + " (%.3f); %s", g.rows(), g.cols(), r.queryBytes(), answer,
        r.keyBytes() > 0 ? String.format(Locale.ROOT, "%,d", r.keyBytes()) : "none", l.rows(),
        l.cols(), l.planes(), r.largeAnswerBytes(), r.largeRate(), shared);
  }
}
