package org.jpir.spark.bench;

import java.nio.file.Path;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.PirServer;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.spark.server.ColumnPartitioning;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.MemoryPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The cost model of the {@code answer} job, its measurements and its check (a documented
 * harness; the work is in {@link RateCalibration}, {@link CostPoint}, {@link CostPrediction} and
 * {@link CostReport}). Three commands:
 *
 * <ul>
 *   <li>{@code calibrate --out RATES}: per-core rates measured in this JVM by one task per core at
 *       once (phase 1 in raw bytes/s at batch 1 and 4 and the cost of a pass, one CMux, classic
 *       and compact expansion per row and the phase-2 GGSWs per level, the preparation of
 *       evaluation keys), the driver's broadcast write rate (a real Spark broadcast in local
 *       mode) and loopback TCP; written as properties.
 *   <li>{@code point --master M --mib D --rows R --batch B --batches K --kind K --out TSV}: one
 *       measured point of the job ({@link DistributedPirServer}) on a synthetic database, any
 *       master ({@code local[c]}, {@code local-cluster[E,1,mem]}, a cluster); appends the median
 *       batch time after the first, Spark's components and the master's per-job and per-task
 *       overhead (empty jobs on the same context) to TSV.
 *   <li>{@code report --rates RATES --points TSV --out MD}: predicts every point from the
 *       project's own sizes ({@link Wire}, {@link MemoryPlan}, {@link ColumnPartitioning}, {@link
 *       PirServer#chunkColumns}) and the rates, states each point's error, and writes the
 *       prediction grid for 10 to 1000 executors and 10 GiB to 10 TiB with the limiting resource
 *       of every cell.
 * </ul>
 *
 * <p>Kinds: {@code classic} (seeded queries expanded on the executors, the job's default),
 * {@code classic-driver} (expanded on the driver, the prepared matrices broadcast) and {@code
 * compact} (compact queries and evaluation keys, expanded on the executors).
 */
@Command(name = "CostModel", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class, subcommandsRepeatable = false,
    description = "The cluster cost model: calibrate, measure points, report.")
public final class CostModel {
  private CostModel() {}

  static final Params P = Presets.ONIONPIR_4096;
  static final CompactParams CP = CompactParams.ONIONPIR_4096_COMPACT;
  static final int FAN_IN = 8;

  public static void main(String[] args) {
    System.exit(new CommandLine(new CostModel()).execute(args));
  }

  @Command(name = "calibrate", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Measure the rates on this machine.")
  int calibrateCmd(@Option(names = "--out", required = true, description = "rates file") Path out,
      @Option(names = "--rows", defaultValue = "37", description = "rows of the calibration"
          + " database (default: ${DEFAULT-VALUE})") int rows) throws Exception {
    RateCalibration.calibrate(out, rows);
    return 0;
  }

  @Command(name = "point", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Measure one point and append it to a TSV file.")
  int pointCmd(@Option(names = "--master", required = true) String master,
      @Option(names = "--mib", required = true) long mib,
      @Option(names = "--rows", defaultValue = "0", description = "0: the chosen geometry")
          int rows,
      @Option(names = "--batch", required = true) int batch,
      @Option(names = "--batches", defaultValue = "4") int batches,
      @Option(names = "--kind", defaultValue = "classic",
          description = "classic, classic-driver or compact") String kind,
      @Option(names = "--out", required = true) Path out) throws Exception {
    CostPoint.point(master, mib, rows, batch, batches, kind, out);
    return 0;
  }

  @Command(name = "report", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Check the model against the points and write the prediction grid.")
  int reportCmd(@Option(names = "--rates", required = true) Path rates,
      @Option(names = "--points", required = true) Path points,
      @Option(names = "--out", required = true) Path out,
      @Option(names = "--commands", defaultValue = "") String commands) throws Exception {
    CostReport.report(rates, points, out, commands);
    return 0;
  }

  /** Columns of the calibration's phase-1 passes (the grid's rates). */
  static final int CALIBRATION_COLUMNS = 64;

  /** Columns of the phase-1 passes each point measures its own rates over. */
  static final int POINT_RATE_COLUMNS = 32;
}
