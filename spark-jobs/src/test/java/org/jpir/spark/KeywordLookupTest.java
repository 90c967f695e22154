package org.jpir.spark;

import static org.jpir.spark.PirJobRun.client;
import static org.jpir.spark.PirJobRun.pir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Private keyword lookup end to end on a real table: an excerpt of Debian bookworm's package
 * index ({@code src/test/resources/debian/Packages-excerpt}: every 500th stanza of main/amd64
 * plus openssl, bash and coreutils, fields trimmed) through {@code datasets/debian-packages.sh},
 * a keyword import, {@code client lookup} (pir-client's command: queries for every candidate
 * bucket), the answer job and {@code client lookup --answers}, which must print each present
 * package's version and summary exactly and "absent" for a package that is not there.
 */
class KeywordLookupTest {
  @TempDir Path dir;

  /** Package -> "version summary", parsed here independently of the script. */
  private static Map<String, String> expected(Path packages) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (String stanza : Files.readString(packages).split("\n\n")) {
      String p = null;
      String v = "";
      String d = "";
      for (String line : stanza.split("\n")) {
        if (line.startsWith("Package: ")) {
          p = line.substring(9);
        } else if (line.startsWith("Version: ")) {
          v = line.substring(9);
        } else if (line.startsWith("Description: ")) {
          d = line.substring(13);
        }
      }
      if (p != null) {
        out.putIfAbsent(p, v + " " + d);
      }
    }
    return out;
  }


  @Test
  void presentPackagesDecodeExactlyAndAnAbsentOneIsAbsent() throws Exception {
    Path packages = Path.of("src/test/resources/debian/Packages-excerpt").toAbsolutePath();
    Path tsv = dir.resolve("debian.tsv");
    Process p = new ProcessBuilder("bash", Path.of("../datasets/debian-packages.sh").toString(),
        tsv.toString(), packages.toString()).redirectErrorStream(true).start();
    String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), log);
    Map<String, String> want = expected(packages);
    assertEquals(want.size(), Files.readAllLines(tsv).size(), "one line per package: " + log);
    assertTrue(want.size() > 100, "the excerpt has " + want.size() + " packages");

    Path db = dir.resolve("db");
    assertEquals(0, org.jpir.datasets.cli.DatasetsCli.run(new String[] {"import", "tsv", "--in",
        tsv.toString(), "--keyword", "--out", db.toString()}, System.out, System.err));
    String key = dir.resolve("me/key.bin").toString();
    Path keys = dir.resolve("keys");
    String evk = keys.resolve("alice.evk").toString();
    assertEquals(0, client("keygen", "--db", db.toString(), "--out", key)[0]);
    assertEquals(0, client("evk", "--db", db.toString(), "--key", key, "--client-id",
        "alice", "--out", evk)[0]);
    List<String> lookups = List.of("openssl", "bash", "coreutils", "no-such-package");
    for (String k : lookups) {
      assertEquals(0, client("lookup", "--db", db.toString(), "--key", key,
          "--client-id", "alice", "--evk", evk, "--keyword", k, "--ids",
          dir.resolve("me/" + k + ".map").toString(), "--out", dir.resolve("q").toString())[0]);
    }
    try (Stream<Path> q = Files.list(dir.resolve("q"))) {
      assertEquals(3 * lookups.size(), q.count(), "three buckets per key, present or absent");
    }
    assertEquals(0, pir("answer", "--db", db.toString(), "--queries", dir.resolve("q").toString(),
        "--out", dir.resolve("a").toString(), "--keys", keys.toString(), "--batch", "6")[0]);
    for (String k : lookups) {
      Object[] r = client("lookup", "--db", db.toString(), "--key", key, "--client-id",
          "alice", "--keyword", k, "--ids", dir.resolve("me/" + k + ".map").toString(),
          "--answers", dir.resolve("a").toString());
      String printed = ((String) r[1]).trim();
      if (want.containsKey(k)) {
        assertEquals(0, r[0], k);
        assertEquals(want.get(k), printed, k);
      } else {
        assertEquals(3, r[0], k);
        assertEquals("absent", printed, k);
      }
    }
  }
}
