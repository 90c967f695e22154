package org.jpir.bench;

import java.util.Locale;
import java.util.Optional;

/**
 * The kernel targets (FFT, applies, multi-column pass, phase 1), judged on a measured median against the ceilings measured in
 * the same run and the same JVM flags ({@link Ceilings}). Anchors (from {@code ANCHORS.md}, NOT
 * measured on this CPU): spqlios-arithmetic (C, AVX2/FMA) on an AMD Zen 4 (2026-11-29) and on
 * an AMD Zen 3 (2026-12-01), OnionPIRv2 on the Zen 3. Targets: multi-column pass >= 85% of the
 * peak FMA; phase 1 >= 85% of the flop bound ({@link PirBench#phase1Flops} at the peak); applies
 * <= 1.0x and FFT <= 1.2x spqlios, judged against spqlios measured on this CPU in the same run
 * ({@link SameCpuAnchors}, {@code ./pir bench --anchor-command}) where there is one, else against
 * the faster (Zen 4) figure.
 */
final class Targets {
  /** Fraction of the measured ceiling the compute-bound passes must reach. */
  static final double FRACTION = 0.85;

  private Targets() {}

  /** What the table prints for one row. */
  record Verdict(String rate, String target, String met) {}

  /** Ceilings of one JVM configuration: streaming read (GB/s) and peak FMA (GFLOP/s). */
  record Ceilings(Optional<Double> streamGbs, Optional<Double> peakGflops) {}

  /** spqlios time in seconds at an (operation, shape) on the Zen 4 and the Zen 3, or NaN. */
  static double[] spqlios(String m, int n, int nrows, int ncols) {
    switch (m) {
      case "fft":
        return n == 4096 ? new double[] {3.47e-6, 4.64e-6}
            : n == 16384 ? new double[] {16.4e-6, 22.7e-6} : nan();
      case "ifft":
        return n == 4096 ? new double[] {Double.NaN, 4.85e-6}
            : n == 16384 ? new double[] {Double.NaN, 22.7e-6} : nan();
      case "applyDftToDft":
      case "applyPvecToDft": {
        boolean pvec = m.equals("applyPvecToDft");
        if (n == 4096 && nrows == 512 && ncols == 12) {
          return pvec ? new double[] {10.3e-3, 16.95e-3} : new double[] {14.2e-3, 24.4e-3};
        }
        if (n == 4096 && nrows == 4096 && ncols == 12) {
          return pvec ? new double[] {80.3e-3, 145.1e-3} : new double[] {116e-3, 190.6e-3};
        }
        if (n == 16384 && nrows == 15 && ncols == 30) {
          return pvec ? new double[] {2.81e-3, 5.19e-3} : new double[] {3.42e-3, 5.62e-3};
        }
        return nan();
      }
      default:
        return nan();
    }
  }

  private static double[] nan() {
    return new double[] {Double.NaN, Double.NaN};
  }

  /** As {@link #judge(JmhResults.Row, double, Ceilings, SameCpuAnchors)} without same-CPU anchors. */
  static Verdict judge(JmhResults.Row r, double seconds, Ceilings c) {
    return judge(r, seconds, c, SameCpuAnchors.NONE);
  }

  /** The verdict of one row; spqlios targets use {@code here}'s figure for the row when it has one. */
  static Verdict judge(JmhResults.Row r, double seconds, Ceilings c, SameCpuAnchors here) {
    String m = r.method();
    boolean ref = "ref".equals(implValue(r));
    int n = intParam(r, "n");
    int nrows = intParam(r, "nrows");
    int ncols = intParam(r, "ncols");
    int cols = Math.max(intParam(r, "columns"), intParam(r, "cols"));
    String shape = r.param("shape");
    if (shape != null) {
      // N:nrows:ncols[:columns]
      String[] f = shape.split(":");
      n = Integer.parseInt(f[0]);
      nrows = Integer.parseInt(f[1]);
      ncols = Integer.parseInt(f[2]);
      cols = f.length > 3 ? Integer.parseInt(f[3]) : cols;
    }
    int queries = Math.max(1, intParam(r, "queries"));
    if (r.benchmark().endsWith("PirBench." + m)) {
      return pir(r, m, seconds, c);
    }
    if (MachineBench.isStream(m)) {
      return new Verdict(gbs(MachineBench.STREAM_BYTES / seconds), "ceiling", "");
    }
    if (MachineBench.isPeak(m)) {
      return new Verdict(gflops(MachineBench.flops(m) / seconds), "ceiling", "");
    }
    switch (m) {
      case "fft":
      case "ifft": {
        double[] s = spqlios(m, n, 0, 0);
        double h = here.seconds(SameCpuAnchors.name(m, n, 0, 0)).orElse(Double.NaN);
        double lim = 1.2 * (!Double.isNaN(h) ? h : Double.isNaN(s[0]) ? s[1] : s[0]);
        return time(seconds, lim, "<= 1.2 x spqlios; spqlios " + hereText(h, seconds, true)
            + us(s[0]) + " (Zen 4), " + us(s[1]) + " (Zen 3); ours/spqlios " + ratio(seconds, s),
            ref);
      }
      case "applyDftToDft":
      case "applyPvecToDft": {
        double[] s = spqlios(m, n, nrows, ncols);
        double bytes = 8.0 * n * nrows * ncols;
        String rate = gbs(bytes / seconds) + " matrix";
        if (c.streamGbs().isPresent() && bytes > 64e6) {
          rate += String.format(Locale.ROOT, " (%.0f%% of stream)",
              100 * bytes / seconds / 1e9 / c.streamGbs().get());
        }
        double h = here.seconds(SameCpuAnchors.name(m, n, nrows, ncols)).orElse(Double.NaN);
        Verdict t = time(seconds, Double.isNaN(h) ? s[0] : h, "<= spqlios; spqlios "
            + hereText(h, seconds, false) + ms(s[0]) + " (Zen 4), " + ms(s[1])
            + " (Zen 3); ours/spqlios " + ratio(seconds, s), ref);
        return new Verdict(rate, t.target(), t.met());
      }
      default:
        if ((m.toLowerCase(Locale.ROOT).contains("multi") || m.toLowerCase(Locale.ROOT)
            .contains("batch")) && cols > 0) {
          double flops = 8.0 * (n / 2) * nrows * ncols * cols * queries;
          double g = flops / seconds / 1e9;
          if (ref || c.peakGflops().isEmpty()) {
            return new Verdict(gflops(flops / seconds), ref ? "(reference)" : "no ceiling", "");
          }
          double frac = g / c.peakGflops().get();
          String rate = gflops(flops / seconds)
              + String.format(Locale.ROOT, " (%.0f%% of peak", 100 * frac);
          if (c.streamGbs().isPresent()) {
            // bytes from memory at least once: the database columns and the PMAT
            double bytes = 8.0 * n * nrows * (cols + ncols * queries);
            double memBound = flops / (bytes / (c.streamGbs().get() * 1e9)) / 1e9;
            rate += String.format(Locale.ROOT, "; memory allows %s GFLOP/s = %.0f%% of peak",
                Report.fmt(memBound), 100 * memBound / c.peakGflops().get());
          }
          return new Verdict(rate + ")", ">= 85% of peak FMA", frac >= FRACTION ? "yes"
              : "**no**");
        }
        return new Verdict("", "", "");
    }
  }

  private static Verdict pir(JmhResults.Row r, String m, double seconds, Ceilings c) {
    int mib = intParam(r, "mib");
    int batch = Math.max(1, intParam(r, "batch"));
    double raw = PirBench.rawBytes(mib) * (m.equals("phase1") ? batch : 1);
    String rate = gbs(raw / seconds) + " raw DB";
    if (m.equals("phase1")) {
      double flops = PirBench.phase1Flops(mib) * batch;
      String bounds = "";
      boolean ok = false;
      if (c.peakGflops().isPresent()) {
        double flopBound = raw / (flops / (c.peakGflops().get() * 1e9));
        ok = raw / seconds >= FRACTION * flopBound;
        bounds = String.format(Locale.ROOT, " = %.0f%% of flop bound %s", 100 * raw / seconds
            / flopBound, gbs(flopBound));
      }
      if (c.streamGbs().isPresent()) {
        double memBound = raw / (PirBench.pvecBytes(mib) / (c.streamGbs().get() * 1e9));
        bounds += String.format(Locale.ROOT, ", %.0f%% of stream bound %s", 100 * raw / seconds
            / memBound, gbs(memBound));
      }
      return new Verdict(rate + bounds, ">= 85% of flop bound (" + Report.fmt(
          flops / raw) + " flops/raw byte); OnionPIRv2 first dimension 0.63 GB/s (Zen 3)",
          c.peakGflops().isEmpty() ? "" : ok ? "yes" : "**no**");
    }
    if (m.equals("answer")) {
      return new Verdict(rate, "(phase 1 + phase 2); OnionPIRv2 whole query 0.475 GB/s at 1 GiB"
          + " (Zen 3)", "");
    }
    return new Verdict(rate, "(per query)", "");
  }

  /** "X (this CPU, ours/spqlios R), " for a same-CPU figure, or "" without one. */
  private static String hereText(double h, double seconds, boolean micro) {
    if (Double.isNaN(h)) {
      return "";
    }
    return (micro ? us(h) : ms(h)) + " (**this CPU**, same run: ours/spqlios **"
        + Report.fmt(seconds / h) + "x**), ";
  }

  private static String ratio(double seconds, double[] s) {
    return (Double.isNaN(s[0]) ? "n/a" : Report.fmt(seconds / s[0]) + "x") + " / "
        + (Double.isNaN(s[1]) ? "n/a" : Report.fmt(seconds / s[1]) + "x");
  }

  private static Verdict time(double seconds, double limit, String target, boolean ref) {
    if (Double.isNaN(limit)) {
      return new Verdict("", "", "");
    }
    if (ref) {
      return new Verdict("", "(reference)", "");
    }
    return new Verdict("", target, seconds <= limit ? "yes" : "**no**");
  }

  static String implValue(JmhResults.Row r) {
    String k = Report.implParam(r.params());
    return k == null ? null : r.params().get(k);
  }

  private static int intParam(JmhResults.Row r, String name) {
    String v = r.param(name);
    if (v == null) {
      return 0;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String gbs(double bytesPerSecond) {
    return Report.fmt(bytesPerSecond / 1e9) + " GB/s";
  }

  private static String gflops(double flopsPerSecond) {
    return Report.fmt(flopsPerSecond / 1e9) + " GFLOP/s";
  }

  private static String us(double s) {
    return Double.isNaN(s) ? "n/a" : Report.fmt(s * 1e6) + " us";
  }

  private static String ms(double s) {
    return Double.isNaN(s) ? "n/a" : Report.fmt(s * 1e3) + " ms";
  }
}
