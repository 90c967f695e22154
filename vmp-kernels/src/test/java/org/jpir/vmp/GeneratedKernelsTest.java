package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The committed straight-line kernels are exactly what {@link MacGenerator} and {@link
 * FftGenerator} write; with {@code -Djpir.regenerate=true} the test rewrites them first (then
 * commit the result).
 */
class GeneratedKernelsTest {
  @Test
  void committedKernelsEqualTheGeneratorsOutput() throws IOException {
    Path module = Path.of(System.getProperty("basedir", "."));
    for (String name : MacGenerator.CLASSES.keySet()) {
      Path f = MacGenerator.file(module, name);
      String want = MacGenerator.source(name);
      if (Boolean.getBoolean("jpir.regenerate")) {
        Files.writeString(f, want, StandardCharsets.UTF_8);
      }
      assertEquals(want, Files.readString(f, StandardCharsets.UTF_8), f + " differs from"
          + " MacGenerator's output: regenerate (see the file's header), never edit it by hand");
    }
  }

  @Test
  void committedFftPassesEqualTheGeneratorsOutput() throws IOException {
    Path f = FftGenerator.file(Path.of(System.getProperty("basedir", ".")));
    String want = FftGenerator.source();
    if (Boolean.getBoolean("jpir.regenerate")) {
      Files.writeString(f, want, StandardCharsets.UTF_8);
    }
    assertEquals(want, Files.readString(f, StandardCharsets.UTF_8), f + " differs from"
        + " FftGenerator's output: regenerate (see the file's header), never edit it by hand");
  }
}
