package org.jpir.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.jpir.core.wire.UntrustedFile.Problem;
import org.jpir.core.wire.UntrustedFile.Refused;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading an entry a stranger placed: links not followed, nothing about their targets in the
 * refusal, a FIFO (present or swapped in after the check) cannot block the caller, a file
 * replaced or grown between the check and the read is refused.
 */
class UntrustedFileTest {
  static final Duration SHORT = Duration.ofMillis(500);
  @TempDir Path dir;

  static Refused refused(Path f, long max) {
    return assertThrows(Refused.class, () -> UntrustedFile.read(f, max, "query", SHORT));
  }

  /** Makes a FIFO at {@code f}; false where mkfifo is missing or fails. */
  static boolean mkfifo(Path f) throws InterruptedException {
    try {
      return new ProcessBuilder("mkfifo", f.toString()).inheritIO().start().waitFor() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void aRegularFileIsReadOffTheCallersThread() throws Exception {
    Path f = Files.write(dir.resolve("q"), new byte[] {1, 2, 3});
    Thread caller = Thread.currentThread();
    AtomicReference<Thread> reader = new AtomicReference<>();
    assertArrayEquals(new byte[] {1, 2, 3}, UntrustedFile.read(f, 3, "query", SHORT,
        () -> reader.set(Thread.currentThread())));
    assertNotSame(caller, reader.get());
    assertEquals(Problem.TOO_LARGE, refused(f, 2).problem());
    assertEquals(Problem.MISSING, refused(dir.resolve("gone"), 10).problem());
  }

  @Test
  void aLinkIsNotFollowedAndItsTargetStaysUnknown(@TempDir Path outside) throws Exception {
    Path secret = Files.write(outside.resolve("secret"), new byte[12_345]);
    Path small = Files.write(outside.resolve("small"), new byte[] {7});
    Path toSecret = Files.createSymbolicLink(dir.resolve("a"), secret);
    Path toSmall = Files.createSymbolicLink(dir.resolve("b"), small);
    Path dangling = Files.createSymbolicLink(dir.resolve("c"), outside.resolve("none"));
    Path toDir = Files.createSymbolicLink(dir.resolve("d"), outside);
    for (Path link : new Path[] {toSecret, toSmall, dangling, toDir}) {
      Refused r = refused(link, 100);
      assertEquals(Problem.NOT_REGULAR, r.problem());
      // the same words whether the target exists, is small, large or a directory
      assertEquals("query " + link.getFileName() + " is not a regular file", r.getMessage());
    }
  }

  @Test
  void aFifoIsRefusedWithoutBlocking() throws Exception {
    Path fifo = dir.resolve("fifo");
    Assumptions.assumeTrue(mkfifo(fifo), "mkfifo is not available");
    assertTimeoutPreemptively(Duration.ofSeconds(5),
        () -> assertEquals(Problem.NOT_REGULAR, refused(fifo, 100).problem()));
  }

  @Test
  void aFifoSwappedInAfterTheCheckCannotBlockTheCaller() throws Exception {
    Assumptions.assumeTrue(mkfifo(dir.resolve("probe")), "mkfifo is not available");
    Path f = Files.write(dir.resolve("q"), new byte[] {1, 2, 3});
    Refused r = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(
        Refused.class, () -> UntrustedFile.read(f, 100, "query", SHORT, () -> {
          try {
            Files.delete(f);
            assertTrue(mkfifo(f));
          } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
          }
        })));
    // the open blocks (no writer): the caller gives up after the timeout
    assertEquals(Problem.TIMED_OUT, r.problem());
  }

  @Test
  void aFileReplacedOrALinkSwappedInAfterTheCheckIsRefused(@TempDir Path outside)
      throws Exception {
    Path f = Files.write(dir.resolve("q"), new byte[] {1, 2, 3});
    Path other = Files.write(dir.resolve("other"), new byte[] {4, 5, 6});
    Refused replaced = assertThrows(Refused.class, () -> UntrustedFile.read(f, 100, "query",
        SHORT, () -> move(other, f)));
    assertEquals(Problem.CHANGED, replaced.problem(), "same size, another inode");

    Path g = Files.write(dir.resolve("g"), new byte[] {1, 2, 3});
    Path target = Files.write(outside.resolve("t"), new byte[] {9, 9, 9});
    Refused linked = assertThrows(Refused.class, () -> UntrustedFile.read(g, 100, "query",
        SHORT, () -> {
          try {
            Files.delete(g);
            Files.createSymbolicLink(g, target);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }));
    assertEquals(Problem.CHANGED, linked.problem());

    Path h = Files.write(dir.resolve("h"), new byte[] {1, 2, 3});
    Refused grown = assertThrows(Refused.class, () -> UntrustedFile.read(h, 100, "query",
        SHORT, () -> {
          try {
            Files.write(h, new byte[50], java.nio.file.StandardOpenOption.APPEND);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }));
    assertEquals(Problem.CHANGED, grown.problem());
    assertFalse(grown.getMessage().contains("53"), "no size in " + grown.getMessage());
  }

  private static void move(Path from, Path to) {
    try {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void namesInRefusalsAreEscaped() throws Exception {
    Path f = dir.resolve("x\nWARN forged");
    Files.createDirectory(f);
    Refused r = refused(f, 10);
    assertTrue(r.getMessage().contains("x\\u000aWARN forged") && !r.getMessage().contains("\n"),
        r.getMessage());
  }
}
