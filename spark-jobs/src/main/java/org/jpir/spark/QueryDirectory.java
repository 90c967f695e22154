package org.jpir.spark;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.jpir.core.wire.QueryFileName;
import org.jpir.core.wire.SafeText;
import org.jpir.core.wire.UntrustedFile;
import org.jpir.core.wire.UntrustedFile.Problem;
import org.jpir.core.wire.UntrustedFile.Refused;
import org.jpir.spark.source.Storage;

/**
 * A query directory as hostile ground: whoever can drop a query there can drop anything else.
 * Only entries named as a client names them ({@link QueryFileName}: {@value QueryFileName#RULE})
 * are read; every other entry is skipped and logged once by this instance with its name escaped
 * ({@link SafeText}), so no name but a validated one reaches a Hadoop path, an output file's
 * name or a log line. On the local file system a query is read by {@link UntrustedFile} (links
 * not followed, opened and read off the calling thread within a timeout, its identity compared
 * before and after opening); on HDFS and object stores entries that are not regular files are
 * skipped like bad names and a query is read only when it is a regular file within the limit.
 * Not thread-safe: one caller (the driver's job loop) uses an instance.
 */
public final class QueryDirectory {
  private static final Logger LOG = LogManager.getLogger(QueryDirectory.class);
  /** Skipped names remembered so each is logged once; beyond this many, one line says so. */
  static final int MAX_REMEMBERED = 10_000;

  private final Storage dir;
  private final Duration openTimeout;
  private final Set<String> logged = new HashSet<>();
  private boolean loggedTooMany;

  /** The query directory {@code dir}, local reads waiting {@link UntrustedFile#DEFAULT_TIMEOUT}. */
  public QueryDirectory(Storage dir) {
    this(dir, UntrustedFile.DEFAULT_TIMEOUT);
  }

  /** The query directory {@code dir}; a local query not read within {@code openTimeout} is refused. */
  public QueryDirectory(Storage dir, Duration openTimeout) {
    this.dir = dir;
    this.openTimeout = openTimeout;
  }

  /** The directory's storage. */
  public Storage storage() {
    return dir;
  }

  /**
   * The query files of the directory, sorted by name; every other entry is skipped, and logged
   * the first time this instance sees it.
   */
  public List<QueryFileName> list() {
    List<QueryFileName> out = new ArrayList<>();
    boolean local = dir.localDirectory().isPresent();
    for (Storage.Entry e : dir.entries()) {
      Optional<QueryFileName> q = QueryFileName.parse(e.name());
      if (q.isEmpty()) {
        skipped(e.name(), "not a query file name (" + QueryFileName.RULE + ")");
      } else if (!local && !e.regularFile()) {
        skipped(e.name(), "not a regular file");
      } else {
        out.add(q.get());
      }
    }
    return out;
  }

  /** The query files that have neither an answer nor an error file in {@code out}. */
  public List<QueryFileName> pending(Storage out) {
    List<QueryFileName> todo = new ArrayList<>();
    for (QueryFileName q : list()) {
      if (!out.exists(q.answerName()) && !out.exists(q.errorName())) {
        todo.add(q);
      }
    }
    return todo;
  }

  /**
   * The bytes of the query file {@code q}, at most {@code maxBytes}; {@code what} names it in a
   * refusal ({@code "query"}).
   *
   * @throws Refused naming the query and what is wrong with it, nothing else of the server
   */
  public byte[] read(QueryFileName q, long maxBytes, String what) {
    Optional<Path> local = dir.localDirectory();
    if (local.isPresent()) {
      return UntrustedFile.read(local.get().resolve(q.fileName()), maxBytes, what, openTimeout);
    }
    String name = q.fileName();
    long length = dir.length(name);
    if (length < 0) {
      throw new Refused(what, name, dir.exists(name) ? Problem.NOT_REGULAR : Problem.MISSING,
          maxBytes, null);
    }
    if (length > maxBytes) {
      throw new Refused(what, name, Problem.TOO_LARGE, maxBytes, null);
    }
    try {
      return dir.read(name, maxBytes, what);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      throw new Refused(what, name, Problem.UNREADABLE, maxBytes, e);
    }
  }

  /** Logs a skipped entry the first time it is seen (a bounded number of names). */
  private void skipped(String name, String why) {
    if (logged.contains(name)) {
      return;
    }
    if (logged.size() >= MAX_REMEMBERED) {
      if (!loggedTooMany) {
        loggedTooMany = true;
        LOG.warn("query directory {}: more than {} entries skipped; further ones are skipped"
            + " without a log line", SafeText.escape(dir.toString()), MAX_REMEMBERED);
      }
      return;
    }
    logged.add(name);
    // a leading dot marks a temporary file by convention (clients write one, then rename it)
    String line = "query directory " + SafeText.escape(dir.toString()) + ": skipping \""
        + SafeText.escape(name, 300) + "\": " + why;
    if (name.startsWith(".")) {
      LOG.info("{}", line);
    } else {
      LOG.warn("{}", line);
    }
  }

  /** The directory's qualified path. */
  @Override
  public String toString() {
    return dir.toString();
  }
}
