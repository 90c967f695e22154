package org.jpir.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Anchor figures measured on this CPU in the same run as the JMH benchmarks, by an external
 * harness that prints lines {@code ANCHOR <name> <median> <p25> <p75> <unit>} (unit {@code ns},
 * {@code us}, {@code ms} or {@code s}); other lines are ignored. A name measured several times
 * (the harness runs before and after the benchmarks) is judged by the median of its medians.
 * Names: {@code spqlios_reim_fft_N<n>}, {@code spqlios_reim_ifft_N<n>}, {@code
 * spqlios_vmp_dft_to_dft_<n>:<nrows>:<ncols>}, {@code spqlios_vmp_pvec_to_dft_<n>:<nrows>:<ncols>}.
 */
final class SameCpuAnchors {
  /** No same-CPU anchors: every lookup is empty. */
  static final SameCpuAnchors NONE = new SameCpuAnchors(Map.of());

  private final Map<String, List<Double>> seconds;

  private SameCpuAnchors(Map<String, List<Double>> seconds) {
    this.seconds = seconds;
  }

  /**
   * Parses harness output; a line starting with {@code ANCHOR} that is malformed (fields, number
   * or unit) is refused with its line number.
   */
  static SameCpuAnchors parse(List<String> lines) {
    Map<String, List<Double>> m = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).trim();
      if (!line.startsWith("ANCHOR ")) {
        continue;
      }
      String[] f = line.split("\\s+");
      if (f.length != 6) {
        throw new IllegalArgumentException("anchor line " + (i + 1) + ": expected 'ANCHOR name"
            + " median p25 p75 unit', got " + f.length + " fields");
      }
      double median;
      try {
        median = Double.parseDouble(f[2]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("anchor line " + (i + 1) + ": median '" + f[2]
            + "' is not a number");
      }
      if (!(median > 0) || Double.isInfinite(median)) {
        throw new IllegalArgumentException("anchor line " + (i + 1) + ": median " + f[2]
            + " must be positive and finite");
      }
      m.computeIfAbsent(f[1], k -> new ArrayList<>()).add(median * unitSeconds(f[5], i + 1));
    }
    return new SameCpuAnchors(Collections.unmodifiableMap(m));
  }

  /** {@link #parse} of a file; a missing file gives {@link #NONE}. */
  static SameCpuAnchors read(Path file) throws IOException {
    return Files.exists(file) ? parse(Files.readAllLines(file, StandardCharsets.UTF_8)) : NONE;
  }

  private static double unitSeconds(String unit, int line) {
    switch (unit) {
      case "ns":
        return 1e-9;
      case "us":
        return 1e-6;
      case "ms":
        return 1e-3;
      case "s":
        return 1;
      default:
        throw new IllegalArgumentException("anchor line " + line + ": unknown unit '" + unit
            + "' (ns, us, ms or s)");
    }
  }

  /** Median of the medians of {@code name} in seconds, if measured. */
  OptionalDouble seconds(String name) {
    List<Double> v = seconds.get(name);
    if (v == null) {
      return OptionalDouble.empty();
    }
    double[] a = v.stream().mapToDouble(Double::doubleValue).toArray();
    return OptionalDouble.of(Stats.median(a));
  }

  /** How many times {@code name} was measured. */
  int count(String name) {
    List<Double> v = seconds.get(name);
    return v == null ? 0 : v.size();
  }

  /** Whether nothing was measured. */
  boolean isEmpty() {
    return seconds.isEmpty();
  }

  /** The anchor name of a kernel benchmark's operation and shape ({@code nrows, ncols} unused for FFTs). */
  static String name(String method, int n, int nrows, int ncols) {
    switch (method) {
      case "fft":
        return "spqlios_reim_fft_N" + n;
      case "ifft":
        return "spqlios_reim_ifft_N" + n;
      case "applyDftToDft":
        return String.format(Locale.ROOT, "spqlios_vmp_dft_to_dft_%d:%d:%d", n, nrows, ncols);
      case "applyPvecToDft":
        return String.format(Locale.ROOT, "spqlios_vmp_pvec_to_dft_%d:%d:%d", n, nrows, ncols);
      default:
        return "";
    }
  }
}
