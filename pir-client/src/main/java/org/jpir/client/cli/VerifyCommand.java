package org.jpir.client.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpir.client.ClientDatabase;
import org.jpir.client.ClientFiles;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.client.ServerErrorFile;
import org.jpir.core.server.RecordSource;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.core.wire.SafeText;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code client verify}: decodes the answer of every id in the map and compares it with the
 * database; a server's error file is printed bounded and escaped. Exit 1 unless every id has an
 * exact answer.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Decode the answer of every id in the map and compare"
    + " it with the database (exit 1 unless every id has an exact answer).")
final class VerifyCommand implements Callable<Integer> {
  @Mixin
  KeyOptions k;

  @Mixin
  IdsOption ids;

  @Option(names = "--answers", required = true, description = "the answer directory")
  Path answers;

  @Override
  public Integer call() throws Exception {
    ClientDatabase db = ClientDatabase.parse(k.db);
    PirQueryClient client = k.client(db, new SecureRandom());
    QueryIdMap map = QueryIdMap.load(ids.ids, false);
    RecordSource truth = db.records();
    try {
      return verify(client, map, truth);
    } finally {
      if (truth instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  private int verify(PirQueryClient client, QueryIdMap map, RecordSource truth)
      throws Exception {
    int ok = 0;
    int bad = 0;
    int errors = 0;
    int missing = 0;
    for (Map.Entry<String, Long> e : map.entries().entrySet()) {
      Path f = answers.resolve(e.getKey() + ".answer");
      Path error = answers.resolve(e.getKey() + ".error");
      if (Files.exists(f)) {
        byte[] want = new byte[truth.recordSize()];
        truth.read(e.getValue(), want, 0);
        if (Arrays.equals(want, decodeOrNull(client, f, e.getValue()))) {
          ok++;
        } else {
          bad++;
          System.out.println("client: answer " + f.getFileName() + " DIFFERS from the"
              + " database");
        }
      } else if (Files.exists(error)) {
        errors++;
        // the server's text, bounded and escaped: nothing it wrote reaches the terminal raw
        System.out.println("client: query " + e.getKey() + " has an error file: "
            + ServerErrorFile.read(error));
      } else {
        missing++;
      }
    }
    System.out.println("client: verified " + ok + " answers exact, " + bad + " wrong, "
        + errors + " with an error file, " + missing + " without an answer (of " + map.size()
        + " ids)");
    return ok > 0 && bad == 0 && errors == 0 && missing == 0 ? 0 : 1;
  }

  /** The decoded record, or null (and a line saying why) when the answer is refused. */
  private static byte[] decodeOrNull(PirQueryClient client, Path f, long index) {
    try {
      return ClientFiles.decodeAnswer(client, f, index);
    } catch (IllegalArgumentException ex) {
      System.out.println("client: answer " + f.getFileName() + " refused: "
          + SafeText.escape(ex.getMessage(), ServerErrorFile.MAX_BYTES));
      return null;
    }
  }
}
