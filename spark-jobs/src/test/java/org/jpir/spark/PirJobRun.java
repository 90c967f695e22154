package org.jpir.spark;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Tests' way to run a {@link PirJob} command and see what it printed. */
final class PirJobRun {
  private PirJobRun() {}

  /** Runs a PirJob command; returns its exit code (Integer) and what it printed on stdout. */
  static Object[] pir(String... args) throws Exception {
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      int rc = PirJob.run(args);
      return new Object[] {rc, buf.toString(StandardCharsets.UTF_8)};
    } finally {
      System.setOut(old);
    }
  }
}
