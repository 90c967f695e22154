package org.jpir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jpir.bench.SimdComparisons.Speedup;
import org.jpir.bench.SimdData.Cell;

/**
 * The SIMD study's plots, written as PNG into the raw directory: the speedup decomposition and
 * the JDK sensitivity (ratios with intervals, {@link RatioChart}) and the FFT time by variant
 * ({@link LineChart}).
 */
final class SimdPlots {
  /** A written plot: its alternative text and file name (in the raw directory). */
  record Plot(String alt, String file) {}

  private SimdPlots() {}

  /** Writes the plots that have data into {@code c.data.raw}; returns them in report order. */
  static List<Plot> write(SimdComparisons c) throws IOException {
    List<Plot> out = new ArrayList<>();
    ratios(c, out, "speedups.png", "speedup decomposition",
        "Speedup decomposition (median ratio, 95% CI)",
        "C2 over C1", "C2 / C1",
        "auto-vectorization (C2 over C2 -SuperWord)", "C2 / C2-noSuperWord",
        "Vector API over C2 scalar", "Vector API / C2 scalar");
    ratios(c, out, "jdk.png", "JDK sensitivity", "Java 25 over Java 17 (median ratio, 95% CI)",
        "Java 25 over 17, scalar reference (C2)", "scalar reference (C2)",
        "Java 25 over 17, Vector API", "Vector API");
    LineChart fft = new LineChart("FFT time per transform", "log2 N", "microseconds")
        .logY().integerX();
    for (String v : SimdData.TIME_VARIANTS) {
      if (v.equals("interp")) {
        continue;
      }
      for (Map<String, Cell> m : c.data.table.values()) {
        Cell cell = m.get(v);
        if (cell != null && cell.o.method().equals("fft")) {
          fft.add(v, Math.log(SimdData.firstNumber(cell.o.params())) / Math.log(2),
              cell.median / 1e3);
        }
      }
    }
    if (fft.size() > 0) {
      fft.write(c.data.raw.resolve("fft.png"));
      out.add(new Plot("FFT time by variant", "fft.png"));
    }
    return out;
  }

  /** One ratio chart of the comparisons {@code nameAndLabel} (name, legend label, ...). */
  private static void ratios(SimdComparisons c, List<Plot> out, String file, String alt,
      String title, String... nameAndLabel) throws IOException {
    RatioChart chart = new RatioChart(title, "speedup");
    for (int i = 0; i < nameAndLabel.length; i += 2) {
      for (Speedup s : c.speedups.getOrDefault(nameAndLabel[i], List.of())) {
        chart.add(s.key(), nameAndLabel[i + 1], s.ratio(), s.lo(), s.hi());
      }
    }
    if (chart.size() > 0) {
      chart.write(c.data.raw.resolve(file));
      out.add(new Plot(alt, file));
    }
  }
}
