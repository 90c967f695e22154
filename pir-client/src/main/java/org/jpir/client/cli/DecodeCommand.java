package org.jpir.client.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import org.jpir.client.ClientDatabase;
import org.jpir.client.ClientFiles;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code client decode}: the record of one answer file, its index from the map or given. */
@Command(name = "decode", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Decode one answer (the index comes from the map).")
final class DecodeCommand implements Callable<Integer> {
  @Mixin
  KeyOptions k;

  @Option(names = "--ids", description = "the client's id -> index map (unless --index)")
  Path ids;

  @Option(names = "--index", description = "the record index (instead of the map's)")
  Long index;

  @Option(names = "--answer", required = true, description = "the answer file")
  Path answer;

  @Option(names = "--out", required = true, description = "the record file to write")
  Path out;

  @Override
  public Integer call() throws IOException {
    if (index == null && ids == null) {
      throw new IllegalArgumentException("client decode: --ids FILE (or --index I) is"
          + " required: the client's private map from the random query ids to record"
          + " indices");
    }
    long i = index != null ? index
        : QueryIdMap.load(ids, false).index(ClientFiles.stem(answer));
    PirQueryClient client = k.client(ClientDatabase.parse(k.db), new SecureRandom());
    byte[] rec = ClientFiles.decodeAnswer(client, answer, i);
    ClientFiles.write(out, rec);
    System.out.println("client: record (" + rec.length + " bytes) written to " + out);
    return 0;
  }
}
