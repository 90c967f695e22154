package org.jpir.bench;

import java.util.Locale;
import java.util.Optional;

/**
 * The targets of the kernels issue, judged on a measured median. References (spqlios-arithmetic,
 * C with AVX2/FMA, measured on this machine class): FFT 3.5 us (N=4096), 16.4 us (N=16384);
 * applyDftToDft 14.2 / 116 / 3.4 ms and applyPvecToDft 10.3 / 80 / 2.8 ms at (4096, 512x12),
 * (4096, 4096x12), (16384, 15x30).
 */
final class Targets {
  private Targets() {}

  /** What the table prints for one row. */
  record Verdict(String rate, String target, String met) {}

  static Verdict judge(JmhResults.Row r, double seconds, Optional<Double> streamGbs,
      Optional<Double> peakGflops) {
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
      int mib = intParam(r, "mib");
      double raw = PirBench.rawBytes(mib) * (m.equals("phase1") ? Math.max(1, intParam(r,
          "batch")) : 1);
      String rate = gbs(raw / seconds) + " raw DB";
      if (m.equals("phase1")) {
        boolean ok = raw / seconds >= 1.5e9;
        return new Verdict(rate, ">= 1.5 GB/s per core", ok ? "yes" : "**no**");
      }
      return new Verdict(rate, m.equals("answer") ? "(phase 1 + phase 2)" : "(per query)", "");
    }
    switch (m) {
      case "streamRead":
        return new Verdict(gbs(MachineBench.STREAM_BYTES / seconds), "ceiling (C: ~25)", "");
      case "peakFma":
        return new Verdict(gflops(MachineBench.FMA_FLOPS / seconds), "ceiling (C: ~56)", "");
      case "fft":
      case "ifft": {
        double c = n == 4096 ? 3.5e-6 : n == 16384 ? 16.4e-6 : Double.NaN;
        return time(seconds, 1.3 * c, "<= 1.3 x spqlios " + us(c) + " = " + us(1.3 * c), ref);
      }
      case "applyDftToDft":
      case "applyPvecToDft": {
        double c = spqlios(m, n, nrows, ncols);
        double bytes = 8.0 * n * nrows * ncols;
        String rate = gbs(bytes / seconds) + " matrix";
        Verdict t = time(seconds, c, "<= spqlios " + ms(c), ref);
        if (m.equals("applyPvecToDft") && streamGbs.isPresent() && !ref && bytes > 64e6) {
          double frac = bytes / seconds / 1e9 / streamGbs.get();
          boolean ok = frac >= 0.8 && t.met().equals("yes");
          return new Verdict(rate + String.format(Locale.ROOT, " (%.0f%% of stream)", 100 * frac),
              t.target() + "; >= 80% of stream", ok ? "yes" : "**no**");
        }
        return new Verdict(rate, t.target(), t.met());
      }
      default:
        if (m.toLowerCase(Locale.ROOT).contains("multi") || m.toLowerCase(Locale.ROOT)
            .contains("batch")) {
          double flops = 8.0 * (n / 2) * nrows * ncols * cols * queries;
          double g = flops / seconds / 1e9;
          if (ref || peakGflops.isEmpty()) {
            return new Verdict(gflops(flops / seconds), "(reference)", "");
          }
          double frac = g / peakGflops.get();
          return new Verdict(gflops(flops / seconds)
              + String.format(Locale.ROOT, " (%.0f%% of peak)", 100 * frac),
              ">= 80% of peak FMA", frac >= 0.8 ? "yes" : "**no**");
        }
        return new Verdict("", "", "");
    }
  }

  private static double spqlios(String m, int n, int nrows, int ncols) {
    boolean pvec = m.equals("applyPvecToDft");
    if (n == 4096 && nrows == 512 && ncols == 12) {
      return pvec ? 10.3e-3 : 14.2e-3;
    }
    if (n == 4096 && nrows == 4096 && ncols == 12) {
      return pvec ? 80e-3 : 116e-3;
    }
    if (n == 16384 && nrows == 15 && ncols == 30) {
      return pvec ? 2.8e-3 : 3.4e-3;
    }
    return Double.NaN;
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
    return Report.fmt(s * 1e6) + " us";
  }

  private static String ms(double s) {
    return Report.fmt(s * 1e3) + " ms";
  }
}
