package org.jpir.client.cli;

import java.util.concurrent.Callable;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ./pir client}: the client's commands. The files they write for the server are named by
 * random ids; the id -> index map ({@code --ids}) stays with the client. Exit code 0 on success,
 * 1 on a failed check ({@code verify}), 2 on bad usage or refused input, 3 for a keyword lookup of
 * an absent key.
 */
@Command(name = "pir client", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class,
    description = "The client's side: keys, queries, decoding; fetch: over the network.")
public final class ClientCli implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing client command"
        + " (keygen, evk, query, decode, verify, lookup, fetch)");
  }

  /** The command tree, built fresh (its commands print to {@link System#out} as it is then). */
  public static CommandLine commandLine() {
    return new CommandLine(new ClientCli()).addSubcommand(new KeygenCommand())
        .addSubcommand(new EvkCommand()).addSubcommand(new QueryCommand())
        .addSubcommand(new DecodeCommand()).addSubcommand(new VerifyCommand())
        .addSubcommand(new LookupCommand()).addSubcommand(new FetchCommand());
  }

  /**
   * Runs a command; returns its exit code. Usage errors print the message and the usage and
   * return 2; errors of the work itself propagate to the caller ({@link #main} prints them).
   */
  public static int run(String... args) throws Exception {
    CommandLine cl = commandLine();
    Exception[] failed = {null};
    cl.setExecutionExceptionHandler((e, line, parsed) -> {
      failed[0] = e;
      return 2;
    });
    int rc = cl.execute(args);
    if (failed[0] != null) {
      throw failed[0];
    }
    return rc;
  }

  /** Runs a command and exits with its code; refused input prints {@code pir: <why>}, exit 2. */
  public static void main(String[] args) throws Exception {
    int code;
    try {
      code = run(args);
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("pir: " + e.getMessage());
      code = 2;
    }
    System.exit(code);
  }
}
