package org.jpir.client.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpir.client.ClientDatabase;
import org.jpir.client.QueryFiles;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.wire.QueryFileName;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code client query}: queries for the records of {@code --index} (or {@code --random N} of
 * them) written into {@code --out} under random ids, which go to the private map {@code --ids}.
 */
@Command(name = "query", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Queries for records, as <random id>.cquery (.query"
    + " for a classic preset).")
final class QueryCommand implements Callable<Integer> {
  @Mixin
  KeyOptions k;

  @Mixin
  IdsOption ids;

  @Option(names = "--index", split = ",", description = "record indices I[,J...]")
  List<Long> index;

  @Option(names = "--random", description = "N random records instead of --index")
  int random;

  @Option(names = "--out", required = true, description = "the query directory to write into")
  Path out;

  @Override
  public Integer call() throws IOException {
    SecureRandom rnd = new SecureRandom();
    PirQueryClient client = k.client(ClientDatabase.parse(k.db), rnd);
    long[] idx = indices(client.recordCount(), rnd);
    k.requireQueryKeys(client);
    Path dir = out.toAbsolutePath();
    long bytes = QueryFiles.write(client, idx, dir, ids.ids, rnd);
    System.out.println("client: " + idx.length + " queries (" + bytes + " bytes each) written"
        + " to " + dir + " as <random id>" + (client.compact() ? QueryFileName.COMPACT_SUFFIX
        : QueryFileName.CLASSIC_SUFFIX) + "; their ids are in " + ids.ids + " (keep it:"
        + " decoding needs it, the server must never see it)");
    return 0;
  }

  private long[] indices(long count, SecureRandom rnd) {
    if ((index == null) == (random <= 0)) {
      throw new IllegalArgumentException("client query: give --index I[,J,...] or --random N");
    }
    long[] out = index != null ? index.stream().mapToLong(Long::longValue).toArray()
        : rnd.longs(random, 0, count).toArray();
    for (long i : out) {
      if (i < 0 || i >= count) {
        throw new IllegalArgumentException("client query: index " + i + " is outside the "
            + count + " records");
      }
    }
    return out;
  }
}
