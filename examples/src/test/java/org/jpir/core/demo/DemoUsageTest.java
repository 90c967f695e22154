package org.jpir.core.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoUsageTest {
  @Test
  void everyDemoRejectsUnknownOptionsWithExitCode2AndPrintsItsHelp() {
    for (Object demo : List.of(new LocalDemo(), new CompactDemo(), new SizeReport(),
        new CompactBudget())) {
      StringWriter err = new StringWriter();
      CommandLine cl = new CommandLine(demo).setErr(new PrintWriter(err));
      assertEquals(2, cl.execute("--no-such-option", "1"), demo.getClass().getSimpleName());
      assertTrue(err.toString().contains("Unknown option")
          && err.toString().contains("'--no-such-option'"), err.toString());
      StringWriter out = new StringWriter();
      cl = new CommandLine(demo).setOut(new PrintWriter(out));
      assertEquals(0, cl.execute("--help"));
      assertTrue(out.toString().contains("Usage:"), out.toString());
    }
    // a value of the wrong type names the option
    StringWriter err = new StringWriter();
    assertEquals(2, new CommandLine(new LocalDemo()).setErr(new PrintWriter(err))
        .execute("--mib", "lots"));
    assertTrue(err.toString().contains("--mib"), err.toString());
  }
}
