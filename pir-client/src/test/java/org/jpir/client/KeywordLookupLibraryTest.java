package org.jpir.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.client.PirQueryClients;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.KeyValueList;
import org.jpir.datasets.keyword.KeywordTable;
import org.junit.jupiter.api.Test;

/**
 * {@link KeywordLookup} on top of {@link PirQueryClient}, against pir-core's server in this JVM
 * (no Spark): every present key's value comes back exactly from the answers to its candidate
 * buckets, an absent key is absent, and answers that do not match the buckets are refused.
 */
class KeywordLookupLibraryTest {
  static final SecureRandom RANDOM = new SecureRandom();

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void presentKeysDecodeExactlyAndAnAbsentKeyIsAbsent() {
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      keys.add(utf8("key-" + i));
      values.add(utf8("value of key " + i));
    }
    KeywordTable table = KeywordTable.build(new KeyValueList(keys, values),
        KeywordTable.Options.defaults(7));
    Params p = Presets.TEST_INSECURE_256;
    Geometry g = Presets.geometry(p, table.recordCount(), table.recordSize(), 16);
    PirQueryClient client = PirQueryClients.generate(p, g, "unused", RANDOM);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, table);
    KeywordLookup lookup = new KeywordLookup(client, table.params());
    for (String k : List.of("key-0", "key-31", "key-59", "no-such-key")) {
      long[] buckets = lookup.buckets(utf8(k));
      assertEquals(table.params().retrievalsPerLookup(), buckets.length, "every key: all buckets");
      List<byte[]> answers = new ArrayList<>();
      for (long b : buckets) {
        answers.add(Wire.writeAnswer(new PirServer(p).answer(db, new QueryExpander(p).expand(
            Wire.readQuery(client.queryMessage(b), p), g), null)));
      }
      Optional<byte[]> v = lookup.value(utf8(k), answers);
      if (k.startsWith("key-")) {
        assertArrayEquals(utf8("value of key " + k.substring(4)), v.orElseThrow(), k);
      } else {
        assertTrue(v.isEmpty(), k);
      }
      assertThrows(IllegalArgumentException.class,
          () -> lookup.value(utf8(k), answers.subList(0, 1)), "one answer for all buckets");
    }
  }
}
