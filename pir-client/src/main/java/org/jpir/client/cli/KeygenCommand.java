package org.jpir.client.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import org.jpir.client.ClientDatabase;
import org.jpir.client.ClientFiles;
import org.jpir.core.client.PirQueryClients;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code client keygen}: a secret key for the preset of {@code --db} (a stored database's
 * manifest; a synthetic one's record-size default or {@code --preset}), else of {@code --preset},
 * else {@link Presets#DEFAULT}; it prints the preset and why it was chosen.
 */
@Command(name = "keygen", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "A secret key from SecureRandom, for the preset of the database --db (give it:"
    + " databases of small records default to onionpir-2048-compact-128), else --preset, else"
    + " onionpir-4096-compact-128.")
final class KeygenCommand implements Callable<Integer> {
  @Option(names = "--db", description = "the database the key is for: the key gets its preset"
      + " (a stored database's manifest; for synthetic:<count>x<size> the record size's"
      + " default unless --preset)")
  String db;

  @Option(names = "--preset", description = "the preset (default: the database's; without"
      + " --db onionpir-4096-compact-128)")
  String preset;

  @Option(names = "--out", required = true, description = "the key file to write")
  Path out;

  @Override
  public Integer call() throws IOException {
    Params p = params();
    ClientFiles.write(out, Wire.writeSecretKey(PirQueryClients.generateSecret(p,
        new SecureRandom())));
    System.out.println("client: secret key for preset " + p.id() + " (" + why() + ") written"
        + " to " + out);
    return 0;
  }

  /** The key's preset: the database's, else {@code --preset}, else {@link Presets#DEFAULT}. */
  private Params params() {
    if (db != null) {
      return ClientDatabase.parse(db).params(preset);
    }
    return preset != null ? Presets.byId(preset) : Presets.DEFAULT;
  }

  /** Why {@link #params} chose its preset, for the line keygen prints. */
  private String why() {
    if (preset != null) {
      return "--preset";
    }
    return db != null ? "the preset of database " + db : "no --db or --preset: the default"
        + " for every database; a database of another preset needs a key made with --db";
  }
}
