package org.jpir.client.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Tests' way to run a client command and see what it printed. */
final class ClientRun {
  private ClientRun() {}

  /** Runs {@code client ARGS}; returns its exit code (Integer) and what it printed on stdout. */
  static Object[] client(String... args) throws Exception {
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      int rc = ClientCli.run(args);
      return new Object[] {rc, buf.toString(StandardCharsets.UTF_8)};
    } finally {
      System.setOut(old);
    }
  }
}
