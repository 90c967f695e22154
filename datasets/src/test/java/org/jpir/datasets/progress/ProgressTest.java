package org.jpir.datasets.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressTest {
  @Test
  void barRendersDoneOfTotalAndPercentage() {
    List<String> drawn = Collections.synchronizedList(new ArrayList<>());
    try (Progress p = Progress.start("prepare", 8, "partitions", 1, Progress.Mode.BAR,
        Progress.rendering(drawn::add), null)) {
      p.stepTo(3);
      p.note("12.5 MB/s raw");
    }
    // the library draws the final state on close
    String last = drawn.get(drawn.size() - 1);
    assertTrue(last.contains("prepare"), last);
    assertTrue(last.contains("3/8"), last);
    assertTrue(last.contains("37%"), last); // the library rounds down
    assertTrue(last.contains("12.5 MB/s raw"), last);
  }

  @Test
  void linesModePrintsTheFinalStateOnceAndClamps() {
    List<String> out = new ArrayList<>();
    Progress p = Progress.start("import", 4L << 20, "MiB", 1 << 20, Progress.Mode.LINES, null,
        out::add);
    p.stepTo(1L << 20);
    p.stepBy(10L << 20); // beyond the total: clamped
    assertEquals(4L << 20, p.done());
    p.close();
    p.close();
    assertEquals(1, out.size(), out.toString()); // nothing before LINE_INTERVAL, once at close
    assertTrue(out.get(0).startsWith("import: 4 / 4 MiB (100%)"), out.get(0));
  }

  @Test
  void quietPrintsNothing() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        Progress p = Progress.start("answer", 10, "queries", 1, Progress.Mode.QUIET, ps)) {
      p.stepTo(10);
    }
    assertEquals(0, buf.size());
  }

  @Test
  void parseAcceptsTheModesAndRejectsOthers() {
    assertEquals(Progress.Mode.BAR, Progress.Mode.parse("Bar"));
    assertEquals(Progress.Mode.QUIET, Progress.Mode.parse("quiet"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Progress.Mode.parse("loud"));
    assertTrue(e.getMessage().contains("auto, bar, lines, quiet"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Progress.start("x", -1, "u", 1,
        Progress.Mode.QUIET, System.out));
  }
}
