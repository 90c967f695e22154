package org.jpir.datasets.keyword;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.KeyValueList;
import org.jpir.datasets.ValueTooLargeException;
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeywordTableTest {
  @TempDir
  Path tmp;

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** n distinct keys of 5 to 20 bytes with values of 0 to 47 bytes, from {@code seed}. */
  static KeyValueList table(int n, long seed) {
    List<byte[]> k = new ArrayList<>(n);
    List<byte[]> v = new ArrayList<>(n);
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    for (int i = 0; i < n; i++) {
      String key = "k" + Integer.toString(i, 36) + "-" + "x".repeat(r.nextInt(12));
      k.add(utf8(key));
      v.add(utf8(("v" + i + ":" + "abcdefghij".repeat(5)).substring(0, r.nextInt(48))));
    }
    return new KeyValueList(k, v);
  }

  static Optional<byte[]> plainLookup(KeywordTable t, byte[] key) {
    return t.params().lookup(key, b -> {
      byte[] rec = new byte[t.recordSize()];
      t.read(b, rec, 0);
      return rec;
    });
  }

  @Test
  void findsEveryPresentKeyAndReportsAbsentKeysOver100kEntries() {
    int n = 100_000;
    long seed = 11;
    KeyValueList kv = table(n, seed);
    KeywordTable t = KeywordTable.build(kv, KeywordTable.Options.defaults(seed));
    KeywordParams p = t.params();
    assertEquals(3, p.retrievalsPerLookup());
    assertTrue(t.stashSize() <= 8, "stash " + t.stashSize());
    for (int i = 0; i < n; i++) {
      Optional<byte[]> v = plainLookup(t, kv.key(i));
      assertTrue(v.isPresent(), "seed " + seed + ": key " + i + " not found");
      assertArrayEquals(kv.value(i), v.get(), "seed " + seed + ": value of key " + i);
    }
    for (int i = 0; i < n; i++) {
      byte[] absent = utf8("absent-" + i);
      assertTrue(plainLookup(t, absent).isEmpty(), "absent key " + i + " reported present");
    }
    System.out.printf("keyword table: %d entries, %d buckets x %d bytes, stash %d, overhead "
        + "%.2fx raw entry bytes, %d retrievals per lookup%n", n, p.buckets(), p.bucketBytes(),
        t.stashSize(), t.spaceOverhead(), p.retrievalsPerLookup());
  }

  @Test
  void entriesThatOverflowGoToTheStashAndAreStillFound() {
    KeyValueList kv = table(2000, 5);
    // load 1.0 is above the 0.918 threshold of 3-choice cuckoo hashing: some entries must fail
    KeywordTable t = KeywordTable.build(kv, new KeywordTable.Options(3, 1, 1.0, 0, false, 5,
        2000));
    assertTrue(t.stashSize() > 0, "expected a non-empty stash at load 1.0");
    KeywordParams back = KeywordParams.fromManifest(t.params().toManifest()).orElseThrow();
    assertEquals(t.stashSize(), back.stash().size());
    for (int i = 0; i < kv.size(); i++) {
      byte[] key = kv.key(i);
      Optional<byte[]> v = back.lookup(key, b -> {
        byte[] rec = new byte[t.recordSize()];
        t.read(b, rec, 0);
        return rec;
      });
      assertArrayEquals(kv.value(i), v.orElseThrow(), "key " + i);
    }
  }

  @Test
  void twoSlotsPerBucketAndTwoChoicesWork() {
    KeyValueList kv = table(5000, 6);
    KeywordTable t = KeywordTable.build(kv, new KeywordTable.Options(2, 2, 0.8, 0, false, 6, 8));
    assertEquals(2, t.params().retrievalsPerLookup());
    for (int i = 0; i < kv.size(); i++) {
      assertArrayEquals(kv.value(i), plainLookup(t, kv.key(i)).orElseThrow(), "key " + i);
    }
    assertTrue(plainLookup(t, utf8("nope")).isEmpty());
  }

  @Test
  void duplicateKeysAndOversizedValuesAreRejectedNamingTheEntry() {
    KeyValueList dup = new KeyValueList(List.of(utf8("a"), utf8("b"), utf8("a")),
        List.of(utf8("1"), utf8("2"), utf8("3")));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> KeywordTable.build(dup, KeywordTable.Options.defaults(1)));
    assertTrue(e.getMessage().contains("duplicate key 'a'") && e.getMessage().contains("entry 0")
        && e.getMessage().contains("entry 2"), e.getMessage());
    KeyValueList big = new KeyValueList(List.of(utf8("small"), utf8("huge")),
        List.of(utf8("ok"), utf8("y".repeat(100))));
    ValueTooLargeException v = assertThrows(ValueTooLargeException.class,
        () -> KeywordTable.build(big, KeywordTable.Options.defaults(1).withValueField(40, false)));
    assertTrue(v.getMessage().contains("key 'huge'") && v.getMessage().contains("100 bytes"),
        v.getMessage());
    KeywordTable cut = KeywordTable.build(big,
        KeywordTable.Options.defaults(1).withValueField(40, true));
    assertEquals(39, plainLookup(cut, utf8("huge")).orElseThrow().length);
  }

  @Test
  void keywordLookupThroughRealPirOnAStoredDatabase() throws IOException {
    Params p = Presets.TEST_INSECURE_256;
    KeyValueList kv = table(600, 21);
    KeywordTable t = KeywordTable.build(kv, KeywordTable.Options.defaults(21));
    Geometry g = Geometry.choose(p, t.recordCount(), t.recordSize(), 64);
    Path dir = tmp.resolve("kw");
    StoredDatabaseWriter.write(dir, p, g, t, 2, "keyword test", t.params().toManifest(), null);
    SecureRandom rnd = new SecureRandom();
    try (StoredDatabase db = StoredDatabase.open(dir, p)) {
      KeywordParams kp = KeywordParams.fromManifest(db.manifest().extra()).orElseThrow();
      PreparedDatabase prepared = db.prepare(0, db.geometry().cols(), null);
      PirClient client = new PirClient(p, db.geometry(), SecretKey.generate(p, rnd), rnd);
      QueryExpander ex = new QueryExpander(p);
      PirServer server = new PirServer(p);
      int[] retrievals = {0};
      java.util.function.LongFunction<byte[]> pir = b -> {
        retrievals[0]++;
        byte[] q = Wire.writeQuery(client.query(b));
        byte[] a = Wire.writeAnswer(server.answer(prepared, ex.expand(Wire.readQuery(q, p),
            db.geometry()), null));
        return client.decode(Wire.readAnswer(a, p), b);
      };
      for (int i : new int[] {0, 299, 599}) {
        assertArrayEquals(kv.value(i), kp.lookup(kv.key(i), pir).orElseThrow(), "key " + i);
      }
      assertTrue(kp.lookup(utf8("not-there"), pir).isEmpty());
      assertEquals(4 * kp.retrievalsPerLookup(), retrievals[0]);
    }
  }
}
