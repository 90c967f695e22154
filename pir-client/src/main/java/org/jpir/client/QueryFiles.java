package org.jpir.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.wire.QueryIdMap;

/**
 * Writes queries into a query directory under the names a server reads ({@code <random
 * id>.cquery|.query}), keeping the id -> index map on the client's side only.
 */
public final class QueryFiles {
  private QueryFiles() {}

  /**
   * Writes one query per index into {@code dir} (created if absent), each atomically under a
   * fresh random id, adds the ids to the map in {@code mapFile} (saved); returns a query's size.
   */
  public static long write(PirQueryClient client, long[] indices, Path dir, Path mapFile,
      SecureRandom random) throws IOException {
    Files.createDirectories(dir);
    QueryIdMap map = QueryIdMap.load(mapFile, true);
    long bytes = 0;
    for (long i : indices) {
      byte[] q = client.queryMessage(i);
      ClientFiles.write(dir.resolve(client.queryFileName(map.add(i, random)).fileName()), q);
      bytes = q.length;
    }
    map.save(mapFile);
    return bytes;
  }
}
