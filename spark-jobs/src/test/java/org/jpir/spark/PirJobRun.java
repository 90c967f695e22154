package org.jpir.spark;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.jpir.client.cli.ClientCli;

/**
 * Tests' way to run a {@link PirJob} command, or a client command ({@link ClientCli}, the
 * pir-client module), and see what it printed.
 */
final class PirJobRun {
  private PirJobRun() {}

  /** Runs a PirJob command; returns its exit code (Integer) and what it printed on stdout. */
  static Object[] pir(String... args) throws Exception {
    return captured(() -> PirJob.run(args));
  }

  /** Runs {@code client ARGS}; returns its exit code (Integer) and what it printed on stdout. */
  static Object[] client(String... args) throws Exception {
    return captured(() -> ClientCli.run(args));
  }

  private static Object[] captured(Callable<Integer> command) throws Exception {
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      int rc = command.call();
      return new Object[] {rc, buf.toString(StandardCharsets.UTF_8)};
    } finally {
      System.setOut(old);
    }
  }
}
