package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The committed straight-line kernels are exactly what {@link MacGenerator}, {@link
 * GaussGenerator}, {@link FourGenerator}, {@link FftGenerator} and {@link LeafGenerator} write;
 * with {@code -Djpir.regenerate=true} the test rewrites them first (then commit the result).
 */
class GeneratedKernelsTest {
  private static final Path MODULE = Path.of(System.getProperty("basedir", "."));

  @Test
  void committedKernelsEqualTheGeneratorsOutput() throws IOException {
    for (String name : MacGenerator.CLASSES.keySet()) {
      check(MacGenerator.file(MODULE, name), MacGenerator.source(name), "MacGenerator");
    }
  }

  @Test
  void committedGaussKernelsEqualTheGeneratorsOutput() throws IOException {
    for (String name : GaussGenerator.CLASSES.keySet()) {
      check(MacGenerator.file(MODULE, name), GaussGenerator.source(name), "GaussGenerator");
    }
  }

  @Test
  void committedFourProductKernelsEqualTheGeneratorsOutput() throws IOException {
    check(MacGenerator.file(MODULE, "Four512"), FourGenerator.source(), "FourGenerator");
  }

  @Test
  void committedFftPassesEqualTheGeneratorsOutput() throws IOException {
    check(FftGenerator.file(MODULE), FftGenerator.source(), "FftGenerator");
  }

  @Test
  void committedFftLeavesEqualTheGeneratorsOutput() throws IOException {
    check(LeafGenerator.file(MODULE), LeafGenerator.source(), "LeafGenerator");
  }

  // fails unless file f holds exactly want (written first when regenerating)
  private static void check(Path f, String want, String generator) throws IOException {
    if (Boolean.getBoolean("jpir.regenerate")) {
      Files.writeString(f, want, StandardCharsets.UTF_8);
    }
    assertEquals(want, Files.readString(f, StandardCharsets.UTF_8), f + " differs from "
        + generator + "'s output: regenerate (see the file's header), never edit it by hand");
  }
}
