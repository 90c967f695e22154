package org.jpir.spark.bench;

import static org.jpir.spark.bench.CostModel.CALIBRATION_COLUMNS;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Measured rates: phase 1 in raw database bytes per second per core at batch 1 and 4, seconds
 * per CMux, classic expansion per row and phase-2 GGSWs per level, compact expansion per row
 * and GGSWs per level, seconds to prepare one client's evaluation keys, the driver's broadcast
 * write rate and loopback TCP (bytes/s), the load while measuring, and the columns the phase-1
 * rates were measured over (one pass each: their time includes one read of every query's
 * phase-1 matrix per that many columns), and the seconds one phase-1 pass costs beyond its
 * columns at batch 1 and 4, classic and compact (NaN: not measured).
 */
record CostRates(double phase1B1, double phase1B4, double cmux, double expandRow,
    double ggswLevel, double compactPhase1B1, double compactPhase1B4, double compactCmux,
    double compactRow, double compactGgswLevel, double keysPrepare, double bcastWrite,
    double net, double load, double columns, double passB1, double passB4,
    double compactPassB1, double compactPassB4) {

  /** Phase-1 raw bytes/s per core at batch b (linear between 1 and 4, flat above). */
  double phase1(int b, boolean compact) {
    return atBatch(compact ? compactPhase1B1 : phase1B1, compact ? compactPhase1B4 : phase1B4,
        b);
  }

  /** Seconds a phase-1 pass costs beyond its columns at batch b (as {@link #phase1}). */
  double pass(int b, boolean compact) {
    return atBatch(compact ? compactPassB1 : passB1, compact ? compactPassB4 : passB4, b);
  }

  /** Measured at batch 1 ({@code r1}) and 4 ({@code r4}): at batch b, linear, flat above 4. */
  private static double atBatch(double r1, double r4, int b) {
    return b >= 4 ? r4 : r1 + (r4 - r1) * (b - 1) / 3.0;
  }

  /** Seconds per CMux. */
  double cmux(boolean compact) {
    return compact ? compactCmux : cmux;
  }

  static CostRates read(Path f) throws IOException {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(f)) {
      p.load(in);
    }
    double[] v = new double[names().length];
    String[] k = names();
    for (int i = 0; i < k.length; i++) {
      String s = p.getProperty(k[i]);
      if (s == null && k[i].equals("rate_columns")) {
        s = "" + CALIBRATION_COLUMNS; // files written before the field: calibrate's width
      }
      if (s == null && k[i].contains("pass_s")) {
        s = "NaN"; // files written before the pass was measured
      }
      if (s == null) {
        throw new IllegalArgumentException(f + " lacks " + k[i]);
      }
      v[i] = Double.parseDouble(s);
    }
    return new CostRates(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11],
        v[12], v[13], v[14], v[15], v[16], v[17], v[18]);
  }

  static String[] names() {
    return new String[] {"phase1_bytes_per_s_b1", "phase1_bytes_per_s_b4", "cmux_s",
        "expand_s_per_row", "ggsw_s_per_level", "compact_phase1_bytes_per_s_b1",
        "compact_phase1_bytes_per_s_b4", "compact_cmux_s", "compact_expand_s_per_row",
        "compact_ggsw_s_per_level", "keys_prepare_s", "broadcast_write_bytes_per_s",
        "net_bytes_per_s", "load1", "rate_columns", "phase1_pass_s_b1", "phase1_pass_s_b4",
        "compact_phase1_pass_s_b1", "compact_phase1_pass_s_b4"};
  }

  double[] values() {
    return new double[] {phase1B1, phase1B4, cmux, expandRow, ggswLevel, compactPhase1B1,
        compactPhase1B4, compactCmux, compactRow, compactGgswLevel, keysPrepare, bcastWrite,
        net, load, columns, passB1, passB4, compactPassB1, compactPassB4};
  }
}
