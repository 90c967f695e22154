package org.jpir.service.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tokens file (lines, comments, malformed lines refused without echoing a token, duplicates)
 * and the quotas' token buckets (burst, refill, the wait computed, calls beyond a window).
 */
class BearerTokensTest {
  @Test
  void tokensMapToClientIdsAndErrorsNeverShowAToken(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("tokens");
    Files.writeString(f, "# comment\n\n  s3cr3t-token-of-alice alice  \n"
        + "s3cr3t-token-of-bob.. bob\n");
    BearerTokens t = BearerTokens.read(f);
    assertEquals(2, t.size());
    assertEquals(Optional.of("alice"), t.clientOf("s3cr3t-token-of-alice"));
    assertEquals(Optional.of("bob"), t.clientOf("s3cr3t-token-of-bob.."));
    assertEquals(Optional.empty(), t.clientOf("s3cr3t-token-of-alicE"));
    assertEquals(Optional.empty(), t.clientOf(null));
    assertEquals(Optional.empty(), t.clientOf("x".repeat(10_000)));
    for (List<String> bad : List.of(List.of("short-token alice"),
        List.of("s3cr3t-token-of-carol"), List.of("s3cr3t-token-of-carol carol extra"),
        List.of("s3cr3t-token-of-carol ../carol"),
        List.of("s3cr3t-token-of-carol a", "s3cr3t-token-of-carol b"))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> BearerTokens.parse(bad));
      assertFalse(e.getMessage().contains("s3cr3t") || e.getMessage().contains("short-token"),
          e.getMessage());
      assertTrue(e.getMessage().contains("line"), e.getMessage());
    }
  }

  @Test
  void quotasBurstRefillAndSayHowLongToWait() {
    AtomicLong now = new AtomicLong(0);
    Quotas q = new Quotas(6, 60_000, now::get);
    assertEquals(0, q.take("a", 4));
    assertEquals(0, q.take("a", 2));
    assertEquals(10_000, q.take("a", 1)); // one query per 10 s
    assertEquals(0, q.take("b", 6), "each client has its own bucket");
    now.addAndGet(9_999);
    assertEquals(1, q.take("a", 1));
    now.addAndGet(1);
    assertEquals(0, q.take("a", 1));
    assertEquals(-1, q.take("a", 7), "more than a window allows: no wait helps");
    now.addAndGet(10 * 60_000);
    assertEquals(0, q.take("a", 6), "the bucket holds at most one window");
    assertTrue(q.take("a", 1) > 0);
    assertThrows(IllegalArgumentException.class, () -> new Quotas(0, 60_000, now::get));
  }
}
