package org.jpir.client.cli;

import static org.jpir.client.cli.ClientRun.client;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jpir.client.ClientDatabase;
import org.jpir.core.client.PirQueryClients;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.DatasetsCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's key follows the database's preset: {@code client keygen --db} makes the key for
 * the database's preset (the record size's default for a synthetic one, the manifest's for a
 * stored one); an explicit {@code --preset} and a stored manifest win; a key of another preset is
 * refused naming both presets and the command that makes the right key.
 */
class KeyPresetTest {
  static final Params N2048 = Presets.ONIONPIR_2048_COMPACT;
  static final Params N4096 = Presets.ONIONPIR_4096_COMPACT;

  @TempDir Path dir;

  /** The preset whose secret key {@code key} holds (its header, mapped to the server preset). */
  private static String keyPreset(Path key) throws Exception {
    return PirQueryClients.presetOfKey(Wire.secretKeyPreset(Files.readAllBytes(key)));
  }

  /** Makes a key with {@code client keygen ARGS --out FILE}; returns its preset and output. */
  private String[] keygen(String name, String... args) throws Exception {
    Path key = dir.resolve(name);
    List<String> all = new ArrayList<>(List.of("keygen"));
    all.addAll(List.of(args));
    all.addAll(List.of("--out", key.toString()));
    Object[] r = client(all.toArray(String[]::new));
    assertEquals(0, r[0], String.join(" ", all));
    return new String[] {keyPreset(key), (String) r[1]};
  }

  /** A stored database of 10 records of {@code size} bytes, imported with {@code extra}. */
  private Path stored(String name, int size, String... extra) {
    Path db = dir.resolve(name);
    List<String> args = new ArrayList<>(List.of("import", "synthetic", "--count", "10",
        "--record-size", Integer.toString(size), "--progress", "quiet", "--out", db.toString()));
    args.addAll(List.of(extra));
    assertEquals(0, DatasetsCli.run(args.toArray(String[]::new), System.out, System.err));
    return db;
  }

  @Test
  void anExplicitPresetWins() throws Exception {
    assertEquals(N4096, ClientDatabase.parse("synthetic:100x1000").params(N4096.id()));
    assertEquals(N2048, ClientDatabase.parse("synthetic:100x6000").params(N2048.id()));
    assertEquals(N4096.id(), keygen("a.key", "--db", "synthetic:100x1000", "--preset",
        N4096.id())[0]);
    assertEquals(Presets.ONIONPIR_4096.id(), keygen("b.key", "--preset",
        Presets.ONIONPIR_4096.id())[0]);
  }

  @Test
  void aStoredDatabaseKeepsTheManifestsPreset() throws Exception {
    // a database stored before the default changed: N = 4096 for 1000-byte records
    Path old = stored("old", 1000, "--preset", N4096.id());
    assertEquals(N4096, ClientDatabase.parse(old.toString()).params(null));
    assertEquals(N4096, ClientDatabase.parse(old.toUri().toString()).params(null),
        "a file: URI names the same local directory");
    assertEquals(N4096.id(), keygen("old.key", "--db", old.toString())[0]);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client("keygen", "--db", old.toString(), "--preset", N2048.id(), "--out",
            dir.resolve("x.key").toString()));
    assertTrue(e.getMessage().contains(N4096.id()) && e.getMessage().contains(N2048.id()),
        e.getMessage());
  }

  @Test
  void aRemoteDatabaseIsRefusedWithWhatToDo() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ClientDatabase.parse("hdfs://nn:8020/pir/db"));
    assertTrue(e.getMessage().contains("local files only"), e.getMessage());
  }

  @Test
  void keygenTakesTheDatabasesPreset() throws Exception {
    String[] small = keygen("small.key", "--db", "synthetic:100x1000");
    assertEquals(N2048.id(), small[0]);
    assertTrue(small[1].contains("secret key for preset " + N2048.id()
        + " (the preset of database synthetic:100x1000)"), small[1]);
    assertEquals(N2048.id(), keygen("mid.key", "--db", "synthetic:100x3072")[0]);
    assertEquals(N4096.id(), keygen("large.key", "--db", "synthetic:100x6000")[0]);
    Path db = stored("db", 1000);
    assertEquals(N2048.id(), keygen("stored.key", "--db", db.toString())[0]);
    // neither --db nor --preset: the documented default, and the line says so
    String[] plain = keygen("plain.key");
    assertEquals(Presets.DEFAULT.id(), plain[0]);
    assertTrue(plain[1].contains("secret key for preset " + Presets.DEFAULT.id() + " (no --db"
        + " or --preset"), plain[1]);
  }

  @Test
  void aKeyOfAnotherPresetIsRefusedNamingBothPresets() throws Exception {
    Path db = stored("db", 1000);
    Path key4096 = dir.resolve("plain.key");
    assertEquals(0, client("keygen", "--out", key4096.toString())[0]);
    for (String spec : new String[] {db.toString(), "synthetic:100x1000"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> client("evk", "--db", spec, "--key", key4096.toString(), "--client-id",
              "alice", "--out", dir.resolve("a.evk").toString()));
      assertTrue(e.getMessage().contains("made for preset '" + N4096.id() + "'")
          && e.getMessage().contains("uses preset '" + N2048.id() + "'")
          && e.getMessage().contains("client keygen --db " + spec), e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> client("query", "--db", spec,
          "--key", key4096.toString(), "--client-id", "alice", "--index", "0", "--ids",
          dir.resolve("ids.map").toString(), "--out", dir.resolve("q").toString()));
      assertTrue(e.getMessage().contains(N4096.id()) && e.getMessage().contains(N2048.id()),
          e.getMessage());
    }
    // a classic key for a compact database
    Path classic = dir.resolve("classic.key");
    assertEquals(0, client("keygen", "--preset", Presets.ONIONPIR_4096.id(), "--out",
        classic.toString())[0]);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client("evk", "--db", "synthetic:100x6000", "--key", classic.toString(),
            "--client-id", "alice", "--out", dir.resolve("c.evk").toString()));
    assertTrue(e.getMessage().contains("made for preset '" + Presets.ONIONPIR_4096.id() + "'")
        && e.getMessage().contains("uses preset '" + N4096.id() + "'"), e.getMessage());
    // the database's own key passes
    Path mine = dir.resolve("mine.key");
    assertEquals(0, client("keygen", "--db", db.toString(), "--out", mine.toString())[0]);
    assertEquals(0, client("evk", "--db", db.toString(), "--key", mine.toString(),
        "--client-id", "alice", "--out", dir.resolve("m.evk").toString())[0]);
  }
}
