package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.jpir.client.cli.ClientCli;
import org.jpir.core.params.Presets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's default flow, as the README gives it, on the default preset of its records
 * (1000 bytes: {@code onionpir-2048-compact-128}, compact queries): setup, keygen --db, evk,
 * query, answer, verify, the server's through {@link PirJob#run}, the client's through {@link
 * ClientCli#run}.
 */
class PirJobCliTest {
  @TempDir Path dir;

  private static int pir(String... args) throws Exception {
    return PirJob.run(args);
  }

  /** A client command, through the pir-client module's command line. */
  private static int client(String... args) throws Exception {
    return ClientCli.run(args);
  }

  @Test
  void defaultFlowIsCompactAndEveryRecordVerifies() throws Exception {
    Path db = dir.resolve("db");
    Path key = dir.resolve("me/key.bin");
    Path keys = dir.resolve("keys");
    Path ids = dir.resolve("me/ids.map");
    Files.createDirectories(key.getParent());
    Files.createDirectories(keys);
    assertEquals(0, org.jpir.datasets.cli.DatasetsCli.run(new String[] {"import", "synthetic",
        "--count", "300", "--record-size", "1000", "--out", db.toString()}, System.out,
        System.err));
    // no --preset: 1000-byte records get the record size's default, N = 2048
    assertEquals(Presets.ONIONPIR_2048_COMPACT.id(), Presets.forRecordSize(1000).id());
    assertEquals(Presets.forRecordSize(1000).id(),
        org.jpir.datasets.store.StoredDatabase.readManifest(db).presetId(),
        "the stored database names the record size's default preset");
    assertEquals(0, client("keygen", "--db", db.toString(), "--out", key.toString()));
    String evk = keys.resolve("alice.evk").toString();
    assertEquals(0, client("evk", "--db", db.toString(), "--key", key.toString(),
        "--client-id", "alice", "--out", evk));
    assertEquals(0, client("query", "--db", db.toString(), "--key", key.toString(),
        "--client-id", "alice", "--evk", evk, "--index", "0,150,299", "--ids", ids.toString(),
        "--out", dir.resolve("q").toString()));
    try (Stream<Path> q = Files.list(dir.resolve("q"))) {
      assertEquals(3, q.filter(f -> f.toString().endsWith(".cquery")).count(),
          "the default client writes compact queries");
    }
    IllegalArgumentException noKeys = assertThrows(IllegalArgumentException.class,
        () -> pir("answer", "--db", db.toString(), "--queries", dir.resolve("q").toString(),
            "--out", dir.resolve("a0").toString()));
    assertTrue(noKeys.getMessage().contains("--keys"), noKeys.getMessage());
    assertEquals(0, pir("answer", "--db", db.toString(), "--queries",
        dir.resolve("q").toString(), "--out", dir.resolve("a").toString(), "--keys",
        keys.toString(), "--batch", "2"));
    assertEquals(0, client("verify", "--db", db.toString(), "--key", key.toString(),
        "--client-id", "alice", "--ids", ids.toString(), "--answers",
        dir.resolve("a").toString()));
    // a wrong record would fail verify: decode against another client's key
    Path other = dir.resolve("me/other.bin");
    assertEquals(0, client("keygen", "--db", db.toString(), "--out", other.toString()));
    assertEquals(1, client("verify", "--db", db.toString(), "--key", other.toString(),
        "--client-id", "alice", "--ids", ids.toString(), "--answers",
        dir.resolve("a").toString()));
  }
}
