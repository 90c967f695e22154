package org.jpir.core.wire;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a local file that a stranger may have placed (an entry of a query directory) without
 * trusting it: the entry itself must be a regular file (links are not followed, neither when
 * looking nor when opening), it is opened and read on a helper thread that the caller waits for
 * at most a timeout (a FIFO swapped in after the check cannot block the caller), its identity
 * (file key, size, modification time) must be the same before and after opening and its length
 * what was read, and at most the limit + 1 bytes are read. A refusal names the entry and what is
 * wrong with it, nothing about what a link points to.
 */
public final class UntrustedFile {
  /** How long a caller waits for a file to be opened and read unless told otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  /**
   * Opens and reads on daemon threads; a thread blocked in opening a FIFO stays blocked until a
   * writer opens it (the JVM cannot interrupt that), but no caller waits for it.
   */
  private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "jpir-untrusted-file");
    t.setDaemon(true);
    return t;
  });

  private UntrustedFile() {}

  /** What is wrong with an entry, in words that name nothing but the entry itself. */
  public enum Problem {
    /** The entry is gone. */
    MISSING("does not exist"),
    /** A link, a FIFO, a device, a directory or anything else but a regular file. */
    NOT_REGULAR("is not a regular file"),
    /** More bytes than the caller's limit. */
    TOO_LARGE("is larger than the largest valid one"),
    /** Replaced, grown or shrunk between the check and the read. */
    CHANGED("changed while it was read"),
    /** Opening and reading took longer than the timeout. */
    TIMED_OUT("could not be opened and read in time"),
    /** Any other failure to read it. */
    UNREADABLE("could not be read");

    private final String words;

    Problem(String words) {
      this.words = words;
    }

    /** The problem in words ({@code "is not a regular file"}). */
    public String words() {
      return words;
    }
  }

  /** An entry refused unread or read only in part; the message names the entry and problem. */
  public static final class Refused extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final Problem problem;

    /**
     * A refusal of the entry {@code name} (escaped into the message) for {@code problem}; {@code
     * maxBytes} is named when the problem is {@link Problem#TOO_LARGE}; {@code cause} may be
     * null and never shows in the message.
     */
    public Refused(String what, String name, Problem problem, long maxBytes, Throwable cause) {
      super(what + " " + SafeText.escape(name, 200) + " " + problem.words()
          + (problem == Problem.TOO_LARGE ? " (" + maxBytes + " bytes)" : ""), cause);
      this.problem = problem;
    }

    private Refused(String what, Path f, Problem problem, long maxBytes, Throwable cause) {
      this(what, String.valueOf(f.getFileName()), problem, maxBytes, cause);
    }

    /** What is wrong with the entry. */
    public Problem problem() {
      return problem;
    }
  }

  /** {@link #read(Path, long, String, Duration)} with {@link #DEFAULT_TIMEOUT}. */
  public static byte[] read(Path f, long maxBytes, String what) {
    return read(f, maxBytes, what, DEFAULT_TIMEOUT);
  }

  /**
   * The bytes of the regular file {@code f} (not a link to one), at most {@code maxBytes} of
   * them, opened and read within {@code timeout}; {@code what} names the file in a refusal.
   *
   * @throws Refused when it is not such a file, changes while read, or takes too long
   * @throws IllegalStateException when the calling thread is interrupted while it waits
   */
  public static byte[] read(Path f, long maxBytes, String what, Duration timeout) {
    return read(f, maxBytes, what, timeout, () -> { });
  }

  /** {@link #read(Path, long, String, Duration)} running {@code afterCheck} before opening. */
  static byte[] read(Path f, long maxBytes, String what, Duration timeout,
      Runnable afterCheck) {
    Future<byte[]> job = READERS.submit(() -> readHere(f, maxBytes, what, afterCheck));
    try {
      return job.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      job.cancel(true);
      throw new Refused(what, f, Problem.TIMED_OUT, maxBytes, null);
    } catch (InterruptedException e) {
      job.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading " + what, e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof Refused r) {
        throw new Refused(what, f, r.problem(), maxBytes, r.getCause());
      }
      if (c instanceof NoSuchFileException) {
        throw new Refused(what, f, Problem.MISSING, maxBytes, c);
      }
      if (c instanceof IOException) {
        throw new Refused(what, f, Problem.UNREADABLE, maxBytes, c);
      }
      if (c instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("reading " + what + " failed", c);
    }
  }

  /** The check, the open and the read, on the helper thread. */
  private static byte[] readHere(Path f, long maxBytes, String what, Runnable afterCheck)
      throws IOException {
    BasicFileAttributes before = attributes(f);
    if (!before.isRegularFile()) {
      throw new Refused(what, f, Problem.NOT_REGULAR, maxBytes, null);
    }
    if (before.size() > maxBytes) {
      throw new Refused(what, f, Problem.TOO_LARGE, maxBytes, null);
    }
    afterCheck.run();
    SeekableByteChannel ch;
    try {
      ch = Files.newByteChannel(f, Set.of(StandardOpenOption.READ,
          LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      // a link swapped in after the check (ELOOP under O_NOFOLLOW), or the entry went away
      throw new Refused(what, f, unchanged(f, before) ? Problem.UNREADABLE : Problem.CHANGED,
          maxBytes, e);
    }
    try (InputStream in = Channels.newInputStream(ch)) {
      if (!sameFile(before, attributes(f)) || ch.size() != before.size()) {
        throw new Refused(what, f, Problem.CHANGED, maxBytes, null);
      }
      int cap = (int) Math.min(maxBytes, Integer.MAX_VALUE - 16);
      byte[] b = in.readNBytes(cap);
      if (b.length == cap && in.read() >= 0) {
        throw new Refused(what, f, Problem.TOO_LARGE, maxBytes, null);
      }
      if (b.length != before.size() || !sameFile(before, attributes(f))) {
        throw new Refused(what, f, Problem.CHANGED, maxBytes, null);
      }
      return b;
    }
  }

  private static BasicFileAttributes attributes(Path f) throws IOException {
    return Files.readAttributes(f, BasicFileAttributes.class,
        LinkOption.NOFOLLOW_LINKS);
  }

  /** Whether {@code f} is still the regular file {@code before} described. */
  private static boolean unchanged(Path f, BasicFileAttributes before) {
    try {
      return sameFile(before, attributes(f));
    } catch (IOException e) {
      return false;
    }
  }

  /** The same regular file, unchanged: file key (device and inode), size and mtime. */
  private static boolean sameFile(BasicFileAttributes a, BasicFileAttributes b) {
    return b.isRegularFile() && Objects.equals(a.fileKey(), b.fileKey()) && a.size() == b.size()
        && a.lastModifiedTime().equals(b.lastModifiedTime());
  }
}
