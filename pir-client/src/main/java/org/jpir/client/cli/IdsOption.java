package org.jpir.client.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --ids FILE}: the client's private map from query ids to record indices. */
final class IdsOption {
  @Option(names = "--ids", required = true, description = "the client's private map from the"
      + " random query ids (the file names the server sees) to record indices")
  Path ids;
}
