package org.jpir.spark;

import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.jpir.core.params.Params;
import org.jpir.core.wire.QueryFileName;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.source.Storage;

/**
 * The service mode: the database stays prepared and cached on the executors while query files
 * arriving in a directory are answered in micro-batches, until told to stop.
 *
 * <p>A watch loop on the driver, not Structured Streaming's file source: a query is one small
 * binary file whose answer must come from the prepared partitions the application already holds,
 * and the output is idempotent by construction (a query is pending while it has neither {@code
 * <id>.answer} nor {@code <id>.error}; both are written by temporary file and rename), so a
 * restart on the same directories answers exactly the queries that have no answer yet, without
 * a checkpoint of its own. A file source would add a DataFrame per micro-batch and a checkpoint
 * directory that can disagree with the answers already written.
 *
 * <p>With a {@link VersionWatch}, the service checks the stored database for a new data version
 * before each micro-batch and moves to it there (only partitions with changed chunks are
 * prepared again, {@link DistributedPirServer#withChangedPartitions}), so one micro-batch is
 * answered on one version; next to each answer it writes {@code <id>.version} ({@code
 * data.version=N}, the same for every query of the micro-batch).
 *
 * <p>Clients must write query files atomically (a temporary name that is not a query file name,
 * then rename), as {@code client query} does. Only query file names ({@link QueryFileName}) are
 * read; every other entry is skipped and logged once per run ({@link QueryDirectory}).
 */
public final class ServeJob {
  private static final Logger LOG = LogManager.getLogger(ServeJob.class);

  private ServeJob() {}

  /**
   * Totals of a service run; with a version watch, the data version served last, the switches to
   * new versions and the partitions prepared again for them (0 without a watch).
   */
  public record Summary(int answered, int rejected, int microBatches, double seconds,
      int dataVersion, int versionSwitches, long repreparedPartitions) {}

  /**
   * Query files in {@code queries} with neither an answer nor an error file in {@code out}
   * ({@link QueryDirectory#pending}; other entries skipped).
   */
  static List<QueryFileName> pending(Storage queries, Storage out) {
    return new QueryDirectory(queries).pending(out);
  }

  /**
   * Answers pending queries of {@code queries} into {@code out} in micro-batches (each at most
   * {@code maxPerMicroBatch} files, answered in Spark batches of {@code batch}), polling every
   * {@code pollMillis} when idle, until {@code stop} is true between micro-batches; a bad query
   * gets its error file and the service goes on.
   */
  public static Summary serve(DistributedPirServer server, Params p, Storage queries,
      Storage out, int batch, int maxPerMicroBatch, AnswerJob.Compact compact,
      long pollMillis, BooleanSupplier stop)
      throws InterruptedException {
    return serve(server, p, queries, out, batch, maxPerMicroBatch, compact, pollMillis, 0,
        stop, s -> { }, null);
  }

  /**
   * {@link #serve} that also stops after {@code maxIdleMillis} without pending queries (0: never)
   * and hands each micro-batch's summary to {@code each} (metrics, progress).
   */
  public static Summary serve(DistributedPirServer server, Params p, Storage queries,
      Storage out, int batch, int maxPerMicroBatch, AnswerJob.Compact compact,
      long pollMillis, long maxIdleMillis,
      BooleanSupplier stop, Consumer<AnswerJob.Summary> each) throws InterruptedException {
    return serve(server, p, queries, out, batch, maxPerMicroBatch, compact, pollMillis,
        maxIdleMillis, stop, each, null);
  }

  /**
   * {@link #serve} that, given a {@code watch} (null: none), moves to each new data version of
   * the stored database between micro-batches; a new version that cannot be served (another
   * grid, too little memory) is logged and the current one goes on serving.
   */
  public static Summary serve(DistributedPirServer server, Params p, Storage queries,
      Storage out, int batch, int maxPerMicroBatch, AnswerJob.Compact compact,
      long pollMillis, long maxIdleMillis,
      BooleanSupplier stop, Consumer<AnswerJob.Summary> each, VersionWatch watch)
      throws InterruptedException {
    int switches = 0;
    long reprepared = 0;
    if (!queries.isDirectory()) {
      throw new IllegalArgumentException("serve: query directory " + queries
          + " is not a directory");
    }
    out.mkdirs();
    // one instance for the whole run: an entry that is not a query file is logged once
    QueryDirectory dir = new QueryDirectory(queries);
    long start = System.nanoTime();
    int answered = 0;
    int rejected = 0;
    int micro = 0;
    LOG.info("serve: watching {} (answers in {}), polling every {} ms", queries, out, pollMillis);
    long busy = System.nanoTime();
    while (!stop.getAsBoolean()) {
      if (watch != null) {
        try {
          VersionWatch.Switch sw = watch.poll(server);
          if (sw != null) {
            server.unpersist();
            server = sw.server();
            switches++;
            reprepared += sw.reprepared();
            String line = String.format(Locale.ROOT, "serve: data version %d -> %d: %d of %d"
                + " partitions prepared again in %.2f s", sw.from(), sw.to(), sw.reprepared(),
                sw.partitions(), sw.seconds());
            System.out.println(line);
          }
        } catch (Exception e) { // a failed Spark job too: the old version goes on serving
          LOG.error("serve: staying on data version {}: {}", watch.version(), e.toString());
        }
      }
      List<QueryFileName> todo = dir.pending(out);
      if (todo.isEmpty()) {
        if (maxIdleMillis > 0 && System.nanoTime() - busy > maxIdleMillis * 1_000_000L) {
          LOG.info("serve: idle for {} ms, stopping", maxIdleMillis);
          break;
        }
        Thread.sleep(pollMillis);
        continue;
      }
      List<QueryFileName> now = todo.subList(0, Math.min(todo.size(), maxPerMicroBatch));
      AnswerJob.Summary s = AnswerJob.answerFiles(server, p, dir, now, 0, out, batch,
          compact);
      busy = System.nanoTime();
      micro++;
      if (watch != null) {
        byte[] tag = ("data.version=" + watch.version() + "\n")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (QueryFileName f : now) {
          if (out.exists(f.answerName())) {
            out.write(f.versionName(), tag);
          }
        }
      }
      each.accept(s);
      answered += s.answered();
      rejected += s.rejected();
      double secs = (System.nanoTime() - start) / 1e9;
      System.out.println(String.format(Locale.ROOT, "serve: micro-batch %d: %d answered, %d"
          + " with an error file in %.2f s (%.2f queries/s); %d pending; %d answered in %.0f s"
          + " so far%s", micro, s.answered(), s.rejected(), s.serverSeconds(),
          s.answered() / Math.max(1e-9, s.serverSeconds()), todo.size() - now.size(), answered,
          secs, watch == null ? "" : "; data version " + watch.version()));
    }
    double secs = (System.nanoTime() - start) / 1e9;
    LOG.info("serve: stopped after {} micro-batches: {} answered, {} with an error file", micro,
        answered, rejected);
    return new Summary(answered, rejected, micro, secs, watch == null ? 0 : watch.version(),
        switches, reprepared);
  }
}
