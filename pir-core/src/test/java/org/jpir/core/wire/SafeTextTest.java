package org.jpir.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Escaping for log lines and terminals: one line of printable ASCII, bounded when asked. */
class SafeTextTest {
  static boolean printableAscii(String s) {
    return s.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
  }

  @Test
  void controlCharactersAndNonAsciiAreEscaped() {
    assertEquals("a:b.cquery", SafeText.escape("a:b.cquery"));
    assertEquals("x\\u000aWARN forged", SafeText.escape("x\nWARN forged"));
    assertEquals("\\u001b[2J\\u0007\\u000d", SafeText.escape("\u001b[2J\u0007\r"));
    assertEquals("back\\\\u000a", SafeText.escape("back\\u000a"), "a backslash is escaped too");
    assertEquals("caf\\u00e9 \\u0430", SafeText.escape("caf\u00e9 \u0430"));
    assertEquals("null", SafeText.escape(null));
  }

  @Test
  void boundedEscapingCutsAndSaysSo() {
    String s = SafeText.escape("\n".repeat(10_000), 100);
    assertEquals(6 * 100 + 3, s.length());
    assertTrue(s.endsWith("..."));
    assertEquals("abc", SafeText.escape("abc", 3));
  }

  @Test
  void utf8BytesAreDecodedThenEscapedEvenWhenMalformed() {
    byte[] b = "ok \u001b]0;title\u0007 \u00e9".getBytes(StandardCharsets.UTF_8);
    String s = SafeText.ofUtf8(b, b.length);
    assertEquals("ok \\u001b]0;title\\u0007 \\u00e9", s);
    String cut = SafeText.ofUtf8(b, b.length - 1); // half of the two bytes of e-acute
    assertTrue(cut.endsWith("\\ufffd") && printableAscii(cut), cut);
    byte[] raw = {(byte) 0xff, (byte) 0xfe, 0x0a, 0x1b};
    assertTrue(printableAscii(SafeText.ofUtf8(raw, raw.length)));
  }
}
