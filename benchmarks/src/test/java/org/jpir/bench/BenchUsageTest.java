package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchUsageTest {
  @Test
  void everyBenchmarkCommandRejectsUnknownOptionsWithExitCode2() {
    for (Class<?> c : List.of(BenchRunner.class, KernelAb.class, SimdFork.class,
        SimdStudy.Cli.class, Report.class, ScalingPlot.class, SlowJvmProbe.class,
        ParamTable.class)) {
      StringWriter err = new StringWriter();
      int rc = new CommandLine(c).setErr(new PrintWriter(err)).execute("--no-such-option");
      assertEquals(2, rc, c.getName() + ": " + err);
      assertTrue(err.toString().contains("Unknown option")
          || err.toString().contains("Missing required"), err.toString());
    }
    StringWriter err = new StringWriter();
    assertEquals(2, new CommandLine(Report.class).setErr(new PrintWriter(err)).execute());
    assertTrue(err.toString().contains("Missing required parameter"), err.toString());
  }
}
