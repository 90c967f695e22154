package org.jpir.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class MessageFilesTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void sizeBoundsAreTheWireLengthsAndHeadersAreCheckedBeforeDecoding() {
    Geometry g = Geometry.of(P, 8 * 19, 1792, 8);
    PirClient c = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    byte[] q = Wire.writeQuery(c.query(5));
    assertEquals(q.length, MessageFiles.queryBytes(P, g));
    MessageFiles.checkQueryHeader(q, P, g);
    Geometry other = Geometry.of(P, 8 * 19, 1792, 4);
    Wire.WireException e = assertThrows(Wire.WireException.class,
        () -> MessageFiles.checkQueryHeader(q, P, other));
    assertTrue(e.getMessage().contains("declares 8 rows"), e.getMessage());
    byte[] cut = java.util.Arrays.copyOf(q, q.length - 1);
    assertTrue(assertThrows(Wire.WireException.class, () -> MessageFiles.checkQueryHeader(cut, P,
        g)).getMessage().contains("exactly " + q.length));
    assertTrue(assertThrows(Wire.WireException.class, () -> MessageFiles.checkQueryHeader(q,
        Presets.TEST_INSECURE_1024, g)).getMessage().contains("for preset"));

    short[] data = new short[g.planes() * 2 * P.answerLimbs() * P.n()];
    byte[] a = Wire.writeAnswer(new Answer(P.id(), g.planes(), P.answerLimbs(), data));
    MessageFiles.checkAnswerHeader(a, P, g);
    assertTrue(a.length <= MessageFiles.maxAnswerBytes(P, g));
    byte[] lying = a.clone();
    int at = 4 + 2 + 1 + 2 + P.id().length();
    lying[at] = 0x10; // declares 2^28 + planes planes
    assertTrue(assertThrows(Wire.WireException.class, () -> MessageFiles.checkAnswerHeader(lying,
        P, g)).getMessage().contains("planes"));
    assertEquals(P.id(), MessageFiles.presetOf(q));
    assertEquals(null, MessageFiles.presetOf(new byte[] {'J', 'P', 'I', 'R', 0, 1, 2, 0x7f, 0}));
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void filesThatAreNotRegularOrTooLargeAreRefusedUnread(@TempDir Path dir) throws Exception {
    Path ok = dir.resolve("ok.query");
    Files.write(ok, new byte[100]);
    assertEquals(100, MessageFiles.read(ok, 100, "query").length);
    MessageFiles.RefusedFileException big = assertThrows(MessageFiles.RefusedFileException.class,
        () -> MessageFiles.read(ok, 99, "query"));
    assertTrue(big.getMessage().contains("larger than the largest valid"), big.getMessage());
    assertTrue(assertThrows(MessageFiles.RefusedFileException.class, () -> MessageFiles.read(dir,
        1000, "query")).getMessage().contains("a directory"));
    Path dev = dir.resolve("zero.query");
    Files.createSymbolicLink(dev, Path.of("/dev/zero"));
    assertTrue(assertThrows(MessageFiles.RefusedFileException.class, () -> MessageFiles.read(dev,
        1000, "query")).getMessage().contains("not a regular file"));
    Path fifo = dir.resolve("fifo.query");
    if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) {
      // opening a FIFO for reading would block without a writer: refused before opening
      assertTrue(assertThrows(MessageFiles.RefusedFileException.class, () -> MessageFiles.read(
          fifo, 1000, "query")).getMessage().contains("not a regular file"));
    }
  }

  @Test
  void idMapsRoundTripWithRandomIdsAndRefuseMalformedFiles(@TempDir Path dir) throws Exception {
    QueryIdMap m = new QueryIdMap();
    Set<String> ids = new HashSet<>();
    for (long i = 0; i < 100; i++) {
      String id = m.add(i * 7, RANDOM);
      assertTrue(QueryIdMap.isId(id), id);
      assertTrue(ids.add(id));
    }
    assertNotEquals(QueryIdMap.newId(RANDOM), QueryIdMap.newId(RANDOM));
    Path f = dir.resolve("client/ids.map");
    m.save(f);
    QueryIdMap back = QueryIdMap.load(f, false);
    assertEquals(m.entries(), back.entries());
    assertArrayEquals(m.entries().keySet().toArray(), back.entries().keySet().toArray());
    assertEquals(0, QueryIdMap.load(dir.resolve("absent.map"), true).size());
    assertThrows(IllegalArgumentException.class, () -> back.index("0123"));
    Files.writeString(dir.resolve("bad.map"), "1234 5\n");
    assertThrows(IllegalArgumentException.class, () -> QueryIdMap.load(dir.resolve("bad.map"),
        false));
    String id = QueryIdMap.newId(RANDOM);
    Files.writeString(dir.resolve("dup.map"), id + " 1\n" + id + " 2\n");
    assertThrows(IllegalArgumentException.class, () -> QueryIdMap.load(dir.resolve("dup.map"),
        false));
  }
}
