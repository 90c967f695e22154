package org.jpir.core.wire;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Text from the other side (a file name in a query directory, a server's error file) made safe
 * for a log line or a terminal: printable ASCII stays as it is, a backslash becomes {@code \\}
 * and every other character (control characters such as newline and escape, non-ASCII) becomes
 * {@code \}{@code uXXXX}, so the result is one line of printable ASCII that cannot forge a log
 * line or steer a terminal.
 */
public final class SafeText {
  private SafeText() {}

  /** {@code s} escaped as the class says ({@code "null"} for null). */
  public static String escape(CharSequence s) {
    return escape(s, Integer.MAX_VALUE);
  }

  /**
   * {@code s} escaped, cut after its first {@code maxChars} characters (then {@code ...}
   * follows), so the result holds at most {@code 6 * maxChars + 3} characters.
   */
  public static String escape(CharSequence s, int maxChars) {
    if (s == null) {
      return "null";
    }
    int n = Math.min(s.length(), Math.max(0, maxChars));
    StringBuilder sb = new StringBuilder(n + 16);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        sb.append("\\\\");
      } else if (c >= 0x20 && c < 0x7f) {
        sb.append(c);
      } else {
        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      }
    }
    if (n < s.length()) {
      sb.append("...");
    }
    return sb.toString();
  }

  /**
   * The first {@code length} bytes of {@code bytes} read as UTF-8 (a malformed or cut sequence
   * becomes U+FFFD) and escaped.
   */
  public static String ofUtf8(byte[] bytes, int length) {
    return escape(new String(bytes, 0, length, StandardCharsets.UTF_8));
  }
}
