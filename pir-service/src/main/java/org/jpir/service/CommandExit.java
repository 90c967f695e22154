package org.jpir.service;

import picocli.CommandLine;

/**
 * The exit code of one of this module's command lines: picocli's own for usage errors (2), 2
 * with {@code pir: <message>} on stderr for refused input (an {@link IllegalArgumentException}
 * or {@link IllegalStateException} of the work), 1 with {@code pir: <exception>} for anything
 * else.
 */
public final class CommandExit {
  private CommandExit() {}

  /**
   * Runs {@code command} (a picocli command object) on {@code args} and returns its exit code as
   * above; {@code traceUnexpected} also prints the stack trace of an unexpected failure.
   */
  public static int run(Object command, String[] args, boolean traceUnexpected) {
    try {
      CommandLine cl = new CommandLine(command);
      Exception[] failed = {null};
      cl.setExecutionExceptionHandler((e, line, parsed) -> {
        failed[0] = e;
        return 2;
      });
      int code = cl.execute(args);
      if (failed[0] != null) {
        throw failed[0];
      }
      return code;
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("pir: " + e.getMessage());
      return 2;
    } catch (Exception e) {
      System.err.println("pir: " + e);
      if (traceUnexpected) {
        e.printStackTrace();
      }
      return 1;
    }
  }
}
