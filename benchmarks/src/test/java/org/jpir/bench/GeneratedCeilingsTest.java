package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The committed {@code Ceilings} is exactly what {@link CeilingGenerator} writes; with {@code
 * -Djpir.regenerate=true} the test rewrites it first (then commit the result).
 */
class GeneratedCeilingsTest {
  private static final Path MODULE = Path.of(System.getProperty("basedir", "."));

  @Test
  void committedCeilingsEqualTheGeneratorsOutput() throws IOException {
    Path f = CeilingGenerator.file(MODULE);
    String want = CeilingGenerator.source();
    if (Boolean.getBoolean("jpir.regenerate")) {
      Files.writeString(f, want, StandardCharsets.UTF_8);
    }
    assertEquals(want, Files.readString(f, StandardCharsets.UTF_8), f + " differs from"
        + " CeilingGenerator's output: regenerate (see the file's header), never edit it by hand");
  }

  @Test
  void streamingSumsAddEveryVectorOfTheRoundedLength() {
    double[] a = new double[1000];
    for (int i = 0; i < a.length; i++) {
      a[i] = i;
    }
    // 8 vectors of 4 (of 8) doubles: the first 992 (960) doubles, exact in double
    assertEquals(991.0 * 992 / 2, Ceilings.streamRead256(a));
    assertEquals(959.0 * 960 / 2, Ceilings.streamRead512(a));
  }

  @Test
  void fmaChainsRunEveryStepOnEveryLane() {
    double[] seed = new double[MachineBench.CHAINS * 8 + 8];
    Arrays.fill(seed, 1.0);
    double lanes256 = MachineBench.CHAINS * 4;
    double r256 = Ceilings.peakFma256(seed);
    double r512 = Ceilings.peakFma512(seed);
    // each lane: x -> m x + c from 1, n times: m^n + c (1 - m^n) / (1 - m)
    double m = 0.999999999;
    double mn = Math.pow(m, MachineBench.FMA_ITERS);
    assertEquals(lanes256 * (mn + 1e-12 * (1 - mn) / (1 - m)), r256, 1e-9);
    assertEquals(2 * r256, r512, 1e-9);
  }
}
