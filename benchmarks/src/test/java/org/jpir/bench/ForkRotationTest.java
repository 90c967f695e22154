package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ForkRotationTest {
  @Test
  void aSlotsFirstCallIsDroppedAndTheRestGiveTheMedian() {
    assertEquals(2.0, ForkRotation.slotMedian(new double[] {100, 3, 1, 2}));
    assertEquals(7.0, ForkRotation.slotMedian(new double[] {7}));
    assertThrows(IllegalArgumentException.class, () -> ForkRotation.slotMedian(new double[0]));
  }

  @Test
  void theSpreadIsOfTheRatiosToTheControlNotOfTheDrift() {
    // the machine drifts 50% between the two forks; both run at the control's speed
    ForkRotation.Fork a = new ForkRotation.Fork(1, 1);
    a.add(100, 100);
    a.add(102, 100);
    a.add(98, 100);
    ForkRotation.Fork b = new ForkRotation.Fork(2, 1);
    b.add(150, 150);
    b.add(165, 150);
    b.add(150, 150);
    ForkRotation.Spread s = ForkRotation.spread(List.of(a, b));
    assertEquals(0.0, s.ratio(), 1e-12);
    assertEquals(0.5, s.raw(), 1e-12);
    assertEquals(0.5, s.control(), 1e-12);
    // a fork 20% slower than the control is the slowest, whatever the drift
    ForkRotation.Fork c = new ForkRotation.Fork(3, 1);
    c.add(60, 50);
    c.add(60, 50);
    ForkRotation.Spread t = ForkRotation.spread(List.of(a, b, c));
    assertEquals(0.2, t.ratio(), 1e-12);
    assertEquals(3, t.slowest());
    assertThrows(IllegalArgumentException.class, () -> ForkRotation.spread(List.of(a)));
  }

  @Test
  void badWorkloadsAreNamedBeforeAnyJvmStarts() {
    for (String bad : new String[] {"phase1", "phase1:0", "phase1:x", "multi:64:8:2",
        "pvec:64:8:2:1", "nope:1", "fft:-4", ""}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ForkRotation.WorkloadChild.check(bad), bad);
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
    ForkRotation.WorkloadChild.check("phase1:16");
    ForkRotation.WorkloadChild.check("multi:64:8:2:4");
    assertEquals(2, new CommandLine(new ForkRotation()).execute("--workload", "multi:1"));
    assertEquals(2, new CommandLine(new ForkRotation()).execute("--workload", "fft:64",
        "--forks", "1"));
  }

  @Test
  void forkJvmArgumentsReachTheForksOnly() {
    // a heap no JVM starts with (unknown options are ignored under the project's options):
    // the control starts, the first fork does not
    java.io.StringWriter err = new java.io.StringWriter();
    CommandLine cl = new CommandLine(new ForkRotation());
    cl.setErr(new java.io.PrintWriter(err, true));
    int rc = cl.execute("--workload", "fft:64", "--forks", "2", "--turns", "1", "--slot-ms", "10",
        "--fork-jvm-arg", "-Xmx1k");
    assertEquals(1, rc, err.toString());
    assertTrue(err.toString().contains("fork 1 ended before 'READY'"), err.toString());
  }

  @Test
  void forksTakeTurnsWithTheControlAndEveryForkIsReported(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("rotation.md");
    int rc = new CommandLine(new ForkRotation()).execute("--workload", "pvec:64:8:4",
        "--forks", "2", "--turns", "2", "--slot-ms", "30", "--out", out.toString());
    assertEquals(0, rc);
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    List<String> rows = lines.stream().filter(l -> l.matches("\\| [0-9]+ \\|.*")).toList();
    assertEquals(2, rows.size(), String.join("\n", lines));
    for (String row : rows) {
      String[] f = row.split("\\|");
      double median = Double.parseDouble(f[3].trim());
      double ratio = Double.parseDouble(f[5].trim());
      assertTrue(median > 0 && ratio > 0, row);
    }
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("spread of the ratios")),
        String.join("\n", lines));
  }
}
