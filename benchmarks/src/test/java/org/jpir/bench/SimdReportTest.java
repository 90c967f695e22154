package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report renders from a raw directory of JMH-shaped JSON alone. */
class SimdReportTest {
  /** A JMH JSON result with one benchmark, forks x iterations samples around {@code mean}. */
  static String jmh(String method, String bench, String param, String value, String unit,
      double mean, int forks, int iters, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    StringBuilder raw = new StringBuilder("[");
    for (int f = 0; f < forks; f++) {
      raw.append(f == 0 ? "[" : ",[");
      for (int i = 0; i < iters; i++) {
        raw.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.6f",
            mean * (1 + 0.02 * rnd.nextGaussian())));
      }
      raw.append(']');
    }
    raw.append(']');
    return "{\"jmhVersion\":\"1.37\",\"benchmark\":\"org.jpir.bench." + bench + "." + method
        + "\",\"mode\":\"avgt\",\"threads\":1,\"forks\":" + forks + ",\"jvm\":\"java\","
        + "\"jvmArgs\":[],\"jdkVersion\":\"25\",\"vmName\":\"OpenJDK 64-Bit Server VM\","
        + "\"vmVersion\":\"25+1\"," + (param == null ? "" : "\"params\":{\"" + param + "\":\""
        + value + "\"},") + "\"primaryMetric\":{\"score\":" + mean + ",\"scoreUnit\":\"" + unit
        + "\",\"rawData\":" + raw + "}}";
  }

  @Test
  void rendersTablesStatisticsAndPlotsFromRawJson(@TempDir Path dir) throws Exception {
    Path raw = dir.resolve("raw");
    Files.createDirectories(raw);
    double[][] times = {{"c1".hashCode(), 3000}, {1, 1000}, {2, 900}, {3, 300}};
    String[] variants = {"c1", "c2-nosw", "c2", "panama"};
    for (int v = 0; v < variants.length; v++) {
      String a = jmh("fft", "SimdPolyBench", "n", "4096", "ns/op", times[v][1], 2, 30, v);
      String b = jmh("applyPvecToDft", "SimdVmpBench", "shape", "4096:512:12", "us/op",
          times[v][1] * 10, 2, 30, 10 + v);
      Files.writeString(raw.resolve(variants[v] + "__x.json"), "[" + a + "," + b + "]");
    }
    Files.writeString(raw.resolve("machine__machine.json"), "["
        + jmh("streamRead", "MachineBench", null, null, "ms/op", 40, 1, 20, 5) + ","
        + jmh("peakFma", "MachineBench", null, null, "ms/op", 2.3, 1, 20, 6) + "]");
    Files.writeString(raw.resolve("env.json"), "{\"cpu\":\"Test CPU\",\"cores\":2,"
        + "\"profile\":\"test\"}");
    Path report = dir.resolve("REPORT.md");
    Files.createDirectories(Path.of("target"));
    SimdReport.write(raw, report);
    String md = Files.readString(report, StandardCharsets.UTF_8);
    Files.writeString(Path.of("target", "simd-report-test.md"), md);
    assertTrue(md.contains("Test CPU"), md);
    assertFalse(md.contains("{{"), md);
    assertTrue(md.contains("- Streaming read of 1 GiB: "), md);
    assertTrue(md.contains("Machine balance: "), md);
    assertTrue(md.contains("Below the bar"), md);
    assertTrue(md.contains("### Vector API over C2 scalar"), md);
    // c2 900 ns against panama 300 ns: 3x, every pair faster
    assertTrue(md.matches("(?s).*\\| fft \\| n=4096 \\| \\*\\*3\\.0\\dx\\*\\* \\|.*"), md);
    assertTrue(md.contains("+1.000 (large)"), md);
    assertTrue(md.contains("Where the Vector API helps (over C2 on the scalar reference):**"
        + " fft n=4096 3.0"), md);
    assertTrue(md.contains("applyPvecToDft | shape=4096:512:12 | panama"), md);
    assertTrue(Files.size(raw.resolve("speedups.png")) > 1000);
    assertTrue(Files.size(raw.resolve("fft.png")) > 1000);
    Files.copy(raw.resolve("speedups.png"), Path.of("target", "simd-report-test.png"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void mergesForksFromOneFilePerForkAndFlagsSlowForks(@TempDir Path dir) throws Exception {
    Path raw = dir.resolve("raw");
    Files.createDirectories(raw);
    for (int f = 1; f <= 3; f++) {
      // c2: three steady forks; panama: fork 3 is 3x slower than forks 1 and 2
      Files.writeString(raw.resolve("c2__poly__f0" + f + ".json"), "["
          + jmh("fft", "SimdPolyBench", "n", "4096", "ns/op", 900, 1, 40, f) + "]");
      Files.writeString(raw.resolve("panama__poly__f0" + f + ".json.gz"), "");
      try (java.io.OutputStream o = new java.util.zip.GZIPOutputStream(
          Files.newOutputStream(raw.resolve("panama__poly__f0" + f + ".json.gz")))) {
        o.write(("[" + jmh("fft", "SimdPolyBench", "n", "4096", "ns/op", f == 3 ? 900 : 300, 1,
            40, 10 + f) + "]").getBytes(StandardCharsets.UTF_8));
      }
    }
    java.util.List<SimdRaw.Obs> obs = SimdRaw.readRaw(raw);
    assertEquals(2, obs.size());
    for (SimdRaw.Obs o : obs) {
      assertEquals(3, o.forks().length, o.variant());
      assertEquals(120, o.all().length, o.variant());
    }
    Path report = dir.resolve("REPORT.md");
    SimdReport.write(raw, report);
    String md = Files.readString(report, StandardCharsets.UTF_8);
    assertTrue(md.contains("**Sample sizes:** 0 of 1 comparisons"), md);
    assertTrue(md.contains("Below the bar:** fft n=4096 (120 obs from 3 forks)"), md);
    assertTrue(md.matches("(?s).*\\| fft \\| n=4096 \\| panama \\|[^\\n]*\\| 1 of 3 \\|.*"),
        md);
    assertTrue(md.contains("1 of 2 cells (with 3 or more forks)"), md);
    assertEquals("4 files from D (revision r, started s; poly: 10 forks)", SimdReport.ownSettings(
        "4 files from D (revision r, started s; poly: 10 forks; pir: 2 forks)", "poly"));
  }

  @Test
  void bytesAndFlopsModel() {
    double[] m = SimdComparisons.model("applyPvecToDft", "shape=4096:512:12");
    assertEquals(8.0 * 4096 * 512 * 12 + 8.0 * 4096 * 512, m[0]);
    assertEquals(4.0 * 4096 * 512 * 12, m[1]);
    double[] f = SimdComparisons.model("fft", "n=4096");
    assertEquals(5.0 * 2048 * 11, f[1], 1e-6);
    assertEquals(null, SimdComparisons.model("query", "mib=8"));
  }
}
