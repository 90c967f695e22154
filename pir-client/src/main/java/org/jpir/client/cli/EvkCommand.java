package org.jpir.client.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jpir.client.ClientDatabase;
import org.jpir.client.ClientFiles;
import org.jpir.core.client.PirQueryClient;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code client evk}: the evaluation keys (and, for records spanning planes, the plane-packing
 * key beside them as {@code <name>.pack}) that a compact client uploads once.
 */
@Command(name = "evk", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "The client's evaluation keys, uploaded once into the"
    + " server's --keys directory (compact presets).")
final class EvkCommand implements Callable<Integer> {
  @Mixin
  KeyOptions k;

  @Option(names = "--out", required = true, description = "the .evk file to write")
  Path out;

  @Override
  public Integer call() throws IOException {
    PirQueryClient client = k.client(ClientDatabase.parse(k.db), new SecureRandom());
    byte[] evk = client.evaluationKeysMessage().orElseThrow(() -> new IllegalArgumentException(
        "evaluation keys exist only for compact presets"));
    ClientFiles.write(out, evk);
    System.out.println("client: evaluation keys of '" + k.clientId + "' (" + evk.length
        + " bytes) written; the server reads <client-id>.evk from its --keys directory");
    Optional<byte[]> pack = client.packingKeyMessage();
    if (pack.isPresent()) {
      String name = out.getFileName().toString();
      Path packFile = out.resolveSibling((name.endsWith(".evk")
          ? name.substring(0, name.length() - 4) : name) + ".pack");
      ClientFiles.write(packFile, pack.get());
      System.out.println("client: plane-packing key (" + pack.get().length + " bytes) written"
          + " to " + packFile + "; beside the .evk file it makes answers to records spanning"
          + " planes share one mask");
    }
    return 0;
  }
}
