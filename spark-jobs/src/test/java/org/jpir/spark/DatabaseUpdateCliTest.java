package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.RecordSource;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code setup update} on a local directory, given as a path and as a {@code file://} URI: the
 * named records change, every other record stays, and a malformed file is refused naming its line
 * with nothing written.
 */
class DatabaseUpdateCliTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SyntheticRecords SRC = new SyntheticRecords(8 * 17 * 19 + 5, 100, 11);
  @TempDir Path dir;

  /** {@code setup update OPTIONS}; returns what it printed. */
  static String run(String... options) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    assertEquals(0, DatabaseUpdate.parse(new PrintStream(b, true, StandardCharsets.UTF_8),
        options).call());
    return b.toString(StandardCharsets.UTF_8);
  }

  static void assertRecords(RecordSource db, Map<Long, byte[]> changed) {
    byte[] r = new byte[SRC.recordSize()];
    assertEquals(SRC.recordCount(), db.recordCount());
    for (long i = 0; i < SRC.recordCount(); i++) {
      db.read(i, r, 0);
      assertArrayEquals(changed.getOrDefault(i, SRC.record(i)), r, "record " + i);
    }
  }

  @Test
  void updatesALocalDatabaseByPathAndByFileUri() throws Exception {
    Geometry g = Geometry.of(P, SRC.recordCount(), SRC.recordSize(), 8);
    Path db = dir.resolve("db");
    StoredDatabaseWriter.write(db, P, g, SRC, 4, "test", Map.of(), null);
    Path u = dir.resolve("u.txt");
    Files.writeString(u, "# two records\nput 10 hex:0a0b\ndelete 2000\n");
    String out = run("--db", db.toString(), "--updates", u.toString());
    assertTrue(out.contains("data version 1 -> 2: 2 operations, 2 of 5 chunks rewritten"), out);
    byte[] ten = new byte[100];
    ten[0] = 10;
    ten[1] = 11;
    try (StoredDatabase s = StoredDatabase.open(db)) {
      assertRecords(s, Map.of(10L, ten, 2000L, new byte[100]));
    }
    Files.writeString(u, "put 11 base64:AQ==\n");
    out = run("--db", db.toUri().toString(), "--updates", u.toString());
    assertTrue(out.contains("data version 2 -> 3"), out);
    byte[] one = new byte[100];
    one[0] = 1;
    try (StoredDatabase s = StoredDatabase.open(db)) {
      assertRecords(s, Map.of(10L, ten, 11L, one, 2000L, new byte[100]));
    }
    // through PirJob's command line, and refused: a bad line 3, nothing written
    List<String> before;
    try (Stream<Path> s = Files.list(db)) {
      before = s.map(Path::toString).sorted().toList();
    }
    Files.writeString(u, "put 1 hex:00\nput 2 hex:00\nput 3 hex:0g\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PirJob.run(new String[] {"setup", "update", "--db", db.toString(), "--updates",
            u.toString()}));
    assertTrue(e.getMessage().contains("line 3") && e.getMessage().contains("nothing changed"),
        e.getMessage());
    try (Stream<Path> s = Files.list(db)) {
      assertEquals(before, s.map(Path::toString).sorted().toList());
    }
    // a missing option is a usage error (exit code 2) naming it
    picocli.CommandLine.ParameterException usage = assertThrows(
        picocli.CommandLine.ParameterException.class, () -> DatabaseUpdate.parse(System.out,
            "--db", db.toString()));
    assertTrue(usage.getMessage().contains("--updates"), usage.getMessage());
    assertEquals(2, PirJob.run(new String[] {"setup", "update", "--db", db.toString()}));
  }
}
