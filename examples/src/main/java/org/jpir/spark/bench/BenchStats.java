package org.jpir.spark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Small statistics and machine facts the harnesses of this package share. */
final class BenchStats {
  private BenchStats() {}

  /** The 1-minute load average, NaN where /proc/loadavg is missing. */
  static double load1() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** The median of {@code a} (NaN when empty); {@code a} is left as it is. */
  static double median(double[] a) {
    if (a.length == 0) {
      return Double.NaN;
    }
    double[] s = a.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
