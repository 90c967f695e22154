package org.jpir.client.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import org.jpir.client.ClientDatabase;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.client.PirQueryClients;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.wire.Wire;
import picocli.CommandLine.Option;

/** The database and the client's key: what every command but keygen needs. */
final class KeyOptions {
  @Option(names = "--db", required = true, description = "the database (its manifest gives the"
      + " preset and the geometry; a local directory or synthetic:<count>x<size>[:seed])")
  String db;

  @Option(names = "--key", required = true, description = "the secret key file")
  Path key;

  @Option(names = "--client-id", description = "the client's id (compact presets: required)")
  String clientId;

  @Option(names = "--evk", description = "the client's evaluation keys (compact presets)")
  Path evk;

  @Option(names = "--preset", description = "the preset (default: the database's)")
  String preset;

  @Option(names = "--max-rows", description = "most rows of the grid (default:"
      + " ${DEFAULT-VALUE})")
  int maxRows = 1024;

  /** The client of these options for {@code database}, the database of {@code --db} parsed. */
  PirQueryClient client(ClientDatabase database, SecureRandom random) throws IOException {
    Params p = database.params(preset);
    Geometry g = database.geometry(p, maxRows);
    byte[] keyBytes = Files.readAllBytes(key);
    requireKeyFor(p, keyBytes);
    PirQueryClient c = PirQueryClients.withKey(p, g, keyBytes, () -> {
      if (clientId == null) {
        throw new IllegalArgumentException("option --client-id is required for the compact"
            + " preset " + p.id());
      }
      return clientId;
    }, random);
    if (evk != null && c.compact()) {
      c.useEvaluationKeysMessage(Files.readAllBytes(evk));
    }
    return c;
  }

  /**
   * Refuses to query with a compact client that was given no uploaded evaluation keys ({@code
   * --evk}): the server could not answer its queries.
   */
  void requireQueryKeys(PirQueryClient c) {
    if (c.compact() && evk == null) {
      throw new IllegalArgumentException("a compact query needs the client's uploaded"
          + " evaluation keys: --evk FILE (made by client evk)");
    }
  }

  /**
   * Refuses a secret key (wire form) made for another preset than the database's {@code p}, with
   * a message naming both presets and how to make the right key; a key whose header cannot be
   * read is left to {@link PirQueryClients#withKey}, which names what is wrong with it.
   */
  private void requireKeyFor(Params p, byte[] keyBytes) {
    String expected = PirQueryClients.keyParams(p).id();
    String got = Wire.secretKeyPreset(keyBytes);
    if (got != null && !got.equals(expected)) {
      throw new IllegalArgumentException("the secret key " + key + " was made for preset '"
          + PirQueryClients.presetOfKey(got) + "', but the database " + db + " uses preset '"
          + p.id() + "': make a key for this database with 'client keygen --db " + db
          + " --out FILE' (a key works only with databases of its own preset)");
    }
  }
}
