package org.jpir.service.feed;

import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.jpir.core.wire.QueryFileName;
import org.jpir.core.wire.SafeText;
import org.jpir.service.admit.QueryAdmission;
import org.jpir.service.admit.Refusal;
import org.jpir.service.batch.MicroBatcher;
import org.jpir.service.batch.Outcome;
import org.jpir.service.batch.RecentAnswers;
import org.jpir.service.batch.Work;
import org.jpir.service.db.ServedDatabase;
import org.jpir.spark.QueryDirectory;
import org.jpir.spark.source.Storage;

/**
 * The query-directory front door of the network service: query files of one database that
 * arrive in a directory (as {@code serve} reads them: {@link QueryDirectory}, files read without
 * trusting them) join the same micro-batcher as the gRPC calls, at most the size bound of them
 * as one unit; each gets {@code <id>.answer} (and {@code <id>.version} for a stored database) or
 * {@code <id>.error} naming what is wrong, written by rename. A query is pending while it has
 * neither, so a restart answers exactly the pending ones. A full queue delays the files (they are
 * tried again at the next poll), never fails them. Queries name no config id: they are answered
 * on the version current when they are read. Runs on its own thread.
 */
public final class DirectoryFeed implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(DirectoryFeed.class);

  private final QueryDirectory dir;
  private final Storage out;
  private final ServedDatabase db;
  private final QueryAdmission admission;
  private final MicroBatcher batcher;
  private final int maxQueries;
  private final long pollMillis;
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
  private final Thread thread;
  private volatile boolean stopping;

  /**
   * Starts watching {@code queries} for files of {@code db}, answers into {@code out}, polling
   * every {@code pollMillis} when idle.
   *
   * @throws IllegalArgumentException when {@code queries} is not a directory
   */
  public DirectoryFeed(Storage queries, Storage out, ServedDatabase db, QueryAdmission admission,
      MicroBatcher batcher, int maxQueries, long pollMillis) {
    if (!queries.isDirectory()) {
      throw new IllegalArgumentException("query directory " + queries + " is not a directory");
    }
    out.mkdirs();
    this.dir = new QueryDirectory(queries);
    this.out = out;
    this.db = db;
    this.admission = admission;
    this.batcher = batcher;
    this.maxQueries = maxQueries;
    this.pollMillis = pollMillis;
    this.thread = new Thread(this::loop, "jpir-directory-feed");
    thread.setDaemon(true);
    thread.start();
    LOG.info("service: watching {} for queries of database {} (answers in {})", queries,
        db.name(), out);
  }

  private void loop() {
    while (!stopping) {
      try {
        if (!feedOnce()) {
          Thread.sleep(pollMillis);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) { // a listing that failed: try again at the next poll
        LOG.error("service: query directory: {}", SafeText.escape(e.toString(), 300));
        sleepQuietly();
      }
    }
  }

  /** Submits up to the size bound of pending files as one unit; false when none was pending. */
  boolean feedOnce() {
    List<QueryFileName> todo = new ArrayList<>();
    for (QueryFileName f : dir.pending(out)) {
      if (!inFlight.contains(f.id())) {
        todo.add(f);
        if (todo.size() == maxQueries) {
          break;
        }
      }
    }
    if (todo.isEmpty()) {
      return false;
    }
    List<Work.Item> items = new ArrayList<>();
    List<QueryFileName> files = new ArrayList<>();
    ServedDatabase.Version v = db.current();
    for (QueryFileName f : todo) {
      try {
        byte[] wire = dir.read(f, db.maxQueryBytes(), "query");
        String client = QueryAdmission.clientOf(db, wire, "directory");
        items.add(new Work.Item(db, v, admission.accept(db, client, wire),
            RecentAnswers.Entry.detached()));
        files.add(f);
      } catch (Refusal r) {
        error(f, r.getMessage());
      } catch (RuntimeException e) { // unreadable, too large, a link: named without its path
        error(f, "query refused: " + SafeText.escape(e.getMessage() == null
            ? e.getClass().getSimpleName() : e.getMessage(), 300));
      }
    }
    if (items.isEmpty()) {
      return true;
    }
    try {
      batcher.submit(new Work(items));
    } catch (MicroBatcher.Refused r) {
      if (r.closing()) {
        stopping = true;
      }
      return false; // the files stay pending: tried again at the next poll
    }
    for (int i = 0; i < items.size(); i++) {
      QueryFileName f = files.get(i);
      inFlight.add(f.id());
      items.get(i).entry().result().whenComplete((o, t) -> {
        try {
          written(f, o);
        } finally {
          inFlight.remove(f.id());
        }
      });
    }
    return true;
  }

  private void written(QueryFileName f, Outcome o) {
    if (o == null || !o.ok()) {
      error(f, o == null ? "the query failed" : o.message());
      return;
    }
    if (o.dataVersion() > 0) {
      out.write(f.versionName(), ("data.version=" + o.dataVersion() + "\n")
          .getBytes(StandardCharsets.UTF_8));
    }
    out.write(f.answerName(), o.answer());
    out.delete(f.errorName());
  }

  private void error(QueryFileName f, String message) {
    LOG.warn("service: query {}: {}", f.id(), SafeText.escape(message, 300));
    out.write(f.errorName(), (SafeText.escape(message, 500) + "\n")
        .getBytes(StandardCharsets.UTF_8));
  }

  private void sleepQuietly() {
    try {
      Thread.sleep(pollMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopping = true;
    }
  }

  /** Files handed to the micro-batcher and not yet written. */
  public int inFlight() {
    return inFlight.size();
  }

  /**
   * Stops reading new files (those handed to the micro-batcher are still written when the
   * batcher drains them); waits for the thread at most {@code timeoutMillis}.
   */
  public void close(long timeoutMillis) throws InterruptedException {
    stopping = true;
    thread.interrupt();
    thread.join(timeoutMillis);
  }

  @Override
  public void close() throws InterruptedException {
    close(10_000);
  }
}
