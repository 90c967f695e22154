package org.jpir.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The query file name rule: exactly what a client writes, nothing else. */
class QueryFileNameTest {
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void acceptsExactlyTheNamesAClientWrites() {
    String id = QueryIdMap.newId(RANDOM);
    QueryFileName classic = QueryFileName.parse(id + ".query").orElseThrow();
    QueryFileName compact = QueryFileName.parse(id + ".cquery").orElseThrow();
    assertEquals(id, classic.id());
    assertFalse(classic.compact());
    assertTrue(compact.compact());
    assertEquals(id + ".query", classic.fileName());
    assertEquals(id + ".cquery", compact.toString());
    assertEquals(id + ".answer", compact.answerName());
    assertEquals(id + ".error", compact.errorName());
    assertEquals(id + ".version", compact.versionName());
  }

  @Test
  void refusesEveryOtherName() {
    String id = QueryIdMap.newId(RANDOM);
    for (String bad : List.of("a:b.cquery", "a:b.query", id.toUpperCase(java.util.Locale.ROOT)
        + ".query", id.substring(1) + ".query", id + "0.query", id + ".query.tmp",
        "." + id + ".query", id + ".answer", id + ".error", id + ".Query", id + ".query ",
        id + ".query\n", id + "\n.query", "x\nWARN forged line.query", "../" + id + ".query",
        id + ".query/x", ".query", ".cquery", "", id,
        "0123456789abcdef0123456789abcde\u0430.query")) {
      assertTrue(QueryFileName.parse(bad).isEmpty(), SafeText.escape(bad));
    }
    assertTrue(QueryFileName.parse(null).isEmpty());
    assertThrows(IllegalArgumentException.class, () -> new QueryFileName("a:b", false));
  }
}
