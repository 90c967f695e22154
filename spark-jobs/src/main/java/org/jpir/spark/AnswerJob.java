package org.jpir.spark;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.QueryKind;
import org.jpir.core.wire.QueryFileName;
import org.jpir.core.wire.SafeText;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.progress.Progress;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.SparkBatchMetrics;
import org.jpir.spark.source.Storage;

/**
 * Answers every query file of a directory in batches: {@code <id>.query} (classic) and {@code
 * <id>.cquery} (compact), named as the client names them ({@link QueryFileName}); every other
 * entry is skipped and logged once, escaped ({@link QueryDirectory}). Each file is read without
 * trusting it (on the local file system no links followed, opened off the driver's thread with a
 * timeout; only regular files no larger than the largest valid message for the job's geometry;
 * declared sizes checked against the geometry before allocating) and checked on the driver; a
 * bad one gets {@code <id>.error} naming what is wrong with the query itself ({@link QueryError}:
 * nothing of the server) while the rest of its batch is answered. A batch that fails on the
 * executors is bisected until the failing queries are alone; each of those gets an error file
 * and every other query is answered. Each answer is written atomically as {@code <id>.answer}; a
 * run on an output directory that already holds answers skips those queries and says how many.
 * Nothing written or logged is derived from anything but the ids, which the client draws at
 * random ({@link org.jpir.core.wire.QueryIdMap}).
 */
public final class AnswerJob {
  private static final Logger LOG = LogManager.getLogger(AnswerJob.class);

  private AnswerJob() {}

  /**
   * Totals of a run: answered now, rejected (error files written, on the driver or after
   * failing on the executors), skipped (answered by an earlier run).
   */
  public record Summary(int answered, int rejected, int skipped, double seconds,
      double serverSeconds, double phase1Seconds, double phase2Seconds, long rawBytes,
      SparkBatchMetrics spark, List<String> batchJson) {
    /**
     * The run as one JSON object: {@code {"answered", "rejected", "skipped", "seconds",
     * "server_seconds", "spark": {...}, "batches": [{"batch", "queries", "seconds",
     * "phase1_task_seconds", "phase2_task_seconds", "spark": {...}}, ...]}}.
     */
    public String json() {
      return String.format(Locale.ROOT, "{\"answered\": %d, \"rejected\": %d, \"skipped\":"
          + " %d, \"seconds\": %.4f, \"server_seconds\": %.4f, \"spark\": %s,%n"
          + " \"batches\": [%s]}%n", answered, rejected, skipped, seconds, serverSeconds,
          spark.json(), String.join(",\n  ", batchJson));
    }

    /** Raw database bytes answered per second of wall time (bytes x queries / s). */
    public double bytesPerSecond() {
      return rawBytes * (double) answered / serverSeconds;
    }
  }

  /** What compact queries need: the preset and the clients' evaluation keys. */
  public record Compact(CompactParams params, EvaluationKeyStore keys) {}

  /** A query that passed the driver's checks: its file and the accepted query. */
  private record Item(QueryFileName file, AcceptedQuery query) {}

  /** Runs over {@code queryDir}, writing into {@code outDir} (classic queries only). */
  public static Summary run(DistributedPirServer server, Params p, Path queryDir, Path outDir,
      int batchSize) {
    return run(server, p, queryDir, outDir, batchSize, null);
  }

  /** Runs over the local {@code queryDir}; {@code compact} may be null. */
  public static Summary run(DistributedPirServer server, Params p, Path queryDir, Path outDir,
      int batchSize, Compact compact) {
    return run(server, p, Storage.at(queryDir.toAbsolutePath().toUri().toString()),
        Storage.at(outDir.toAbsolutePath().toUri().toString()), batchSize, compact);
  }

  /**
   * Runs over {@code queryDir} (any Hadoop file system), writing into {@code outDir}; {@code
   * compact} may be null (then *.cquery files are errors).
   */
  public static Summary run(DistributedPirServer server, Params p, Storage queryDir,
      Storage outDir, int batchSize, Compact compact) {
    return run(server, p, queryDir, outDir, batchSize, compact, Progress.Mode.QUIET);
  }

  /**
   * As {@link #run(DistributedPirServer, Params, Storage, Storage, int, Compact)}, showing the
   * queries answered in {@code progress} mode.
   */
  public static Summary run(DistributedPirServer server, Params p, Storage queryDir,
      Storage outDir, int batchSize, Compact compact, Progress.Mode progress) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size " + batchSize + " must be at least 1");
    }
    if (!queryDir.isDirectory()) {
      throw new IllegalArgumentException("query directory " + queryDir + " is not a directory");
    }
    QueryDirectory queries = new QueryDirectory(queryDir);
    List<QueryFileName> files = queries.list();
    outDir.mkdirs();
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no query files (" + QueryFileName.RULE + ") in "
          + queryDir);
    }
    List<QueryFileName> todo = new ArrayList<>();
    for (QueryFileName f : files) {
      if (!outDir.exists(f.answerName())) {
        todo.add(f);
      }
    }
    int skipped = files.size() - todo.size();
    if (skipped > 0) {
      LOG.info("skipping {} of {} queries already answered in {}", skipped, files.size(), outDir);
    }
    return answerFiles(server, p, queries, todo, skipped, outDir, batchSize, compact, progress);
  }

  /**
   * Answers exactly {@code todo} (query files of {@code queries}) in batches of {@code
   * batchSize}: each gets {@code <id>.answer} or {@code <id>.error} in {@code outDir}; {@code
   * skipped} is reported in the summary as is.
   */
  static Summary answerFiles(DistributedPirServer server, Params p, QueryDirectory queries,
      List<QueryFileName> todo, int skipped, Storage outDir, int batchSize, Compact compact) {
    return answerFiles(server, p, queries, todo, skipped, outDir, batchSize, compact,
        Progress.Mode.QUIET);
  }

  /** As above, showing queries done of total, queries per second and time left. */
  static Summary answerFiles(DistributedPirServer server, Params p, QueryDirectory queries,
      List<QueryFileName> todo, int skipped, Storage outDir, int batchSize, Compact compact,
      Progress.Mode progress) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size " + batchSize + " must be at least 1");
    }
    Geometry g = server.geometry();
    QueryKind classic = new ClassicQueries(p);
    QueryKind compactKind = compact == null ? null : new CompactQueries(compact.keys());
    long start = System.nanoTime();
    Totals tot = new Totals();
    int batches = (todo.size() + batchSize - 1) / batchSize;
    try (Progress bar = Progress.start("answer", todo.size(), "queries", 1, progress,
        System.err)) {
      for (int bi = 0; bi < batches; bi++) {
        List<QueryFileName> batch = todo.subList(bi * batchSize, Math.min(todo.size(),
            (bi + 1) * batchSize));
        long t0 = System.nanoTime();
        List<Item> good = new ArrayList<>();
        for (QueryFileName f : batch) {
          try {
            QueryKind kind = classic;
            if (f.compact()) {
              if (compactKind == null) {
                throw new IllegalArgumentException("compact query, but the job has no evaluation"
                    + " keys (--keys DIR) or the preset " + p.id() + " is not a compact one");
              }
              kind = compactKind;
            }
            // the kind decodes the bytes as read, checks them against the geometry and the
            // keys the server holds, and keeps them: they are what the executors get
            byte[] wire = queries.read(f, kind.maxQueryBytes(g), kind == classic ? "query"
                : "compact query");
            good.add(new Item(f, kind.accept(wire, g)));
          } catch (IllegalArgumentException | UncheckedIOException e) {
            reject(outDir, f, QueryError.refused(f, e), tot);
          }
        }
        if (good.isEmpty()) {
          bar.stepTo(Math.min(todo.size(), (bi + 1) * batchSize));
          continue;
        }
        int before = tot.answered;
        answerIsolated(server, good, outDir, tot);
        int n = tot.answered - before;
        double s = (System.nanoTime() - t0) / 1e9;
        tot.serverS += s;
        int done = Math.min(todo.size(), (bi + 1) * batchSize);
        double elapsed = (System.nanoTime() - start) / 1e9;
        LOG.info(String.format(Locale.ROOT, "batch %d/%d: %d queries answered in %.2f s (phase 1"
            + " %.2f s, phase 2 %.2f s summed over tasks); %.2f GB/s of raw database; %d of %d"
            + " queries done, %.2f queries/s, about %.0f s left; spark: %s", bi + 1, batches, n, s,
            tot.lastP1, tot.lastP2, g.rawBytes() * (double) n / s / 1e9, done, todo.size(),
            done / elapsed, elapsed / done * (todo.size() - done), tot.lastSpark.describe()));
        tot.batchJson.add(String.format(Locale.ROOT, "{\"batch\": %d, \"queries\": %d,"
            + " \"seconds\": %.4f, \"phase1_task_seconds\": %.4f, \"phase2_task_seconds\": %.4f,"
            + " \"spark\": %s}", bi + 1, n, s, tot.lastP1, tot.lastP2, tot.lastSpark.json()));
        HeapWatch.batchEnded();
        bar.stepTo(done);
        bar.note(String.format(Locale.ROOT, "batch %d/%d", bi + 1, batches));
      }
    }
    return new Summary(tot.answered, tot.rejected, skipped, (System.nanoTime() - start) / 1e9,
        tot.serverS, tot.p1, tot.p2, g.rawBytes(), tot.spark, List.copyOf(tot.batchJson));
  }

  /** Running totals. */
  private static final class Totals {
    int answered;
    int rejected;
    double serverS;
    double p1;
    double p2;
    double lastP1;
    double lastP2;
    SparkBatchMetrics spark = SparkBatchMetrics.NONE;
    SparkBatchMetrics lastSpark = SparkBatchMetrics.NONE;
    final List<String> batchJson = new ArrayList<>();
  }

  /**
   * Answers {@code items} in one pass; when that fails on the executors, answers each half the
   * same way, so a failing query ends alone and gets an error file naming the reason.
   */
  private static void answerIsolated(DistributedPirServer server, List<Item> items,
      Storage outDir, Totals tot) {
    tot.lastP1 = 0;
    tot.lastP2 = 0;
    tot.lastSpark = SparkBatchMetrics.NONE;
    ArrayDeque<List<Item>> work = new ArrayDeque<>();
    work.add(items);
    while (!work.isEmpty()) {
      List<Item> part = work.poll();
      try {
        answerOnce(server, part, outDir, tot);
      } catch (Exception e) {
        String reason = firstLine(e);
        part = part.stream().filter(it -> !outDir.exists(it.file().answerName())).toList();
        if (part.isEmpty()) {
          continue;
        }
        if (part.size() == 1) {
          reject(outDir, part.get(0).file(), QueryError.failedOnExecutors(part.get(0).file(),
              reason), tot);
        } else {
          LOG.warn("{} queries failed together on the executors ({}); answering them in halves",
              part.size(), SafeText.escape(reason));
          work.addFirst(part.subList(part.size() / 2, part.size()));
          work.addFirst(part.subList(0, part.size() / 2));
        }
      }
    }
  }

  /** One pass over the queries of {@code part} (one Spark batch); writes their answers. */
  private static void answerOnce(DistributedPirServer server, List<Item> part, Storage outDir,
      Totals tot) {
    DistributedPirServer.BatchResult r = server.transport().answer(part.stream()
        .map(Item::query).toList());
    for (int i = 0; i < part.size(); i++) {
      answered(outDir, part.get(i).file(), Wire.writeAnswer(r.answers()[i]), tot);
    }
    stats(r.stats(), tot);
  }

  private static void stats(DistributedPirServer.BatchStats st, Totals tot) {
    if (st != null) {
      tot.p1 += st.phase1Nanos() / 1e9;
      tot.p2 += st.phase2Nanos() / 1e9;
      tot.lastP1 += st.phase1Nanos() / 1e9;
      tot.lastP2 += st.phase2Nanos() / 1e9;
      tot.spark = tot.spark.plus(st.spark());
      tot.lastSpark = tot.lastSpark.plus(st.spark());
    }
  }

  private static void answered(Storage outDir, QueryFileName f, byte[] answer, Totals tot) {
    outDir.write(f.answerName(), answer);
    outDir.delete(f.errorName());
    tot.answered++;
  }

  /** Writes the error file (the public text) and logs the detail. */
  private static void reject(Storage outDir, QueryFileName f, QueryError why, Totals tot) {
    tot.rejected++;
    LOG.warn("{}", why.logText());
    outDir.write(f.errorName(), (why.publicText() + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** The first line of an exception's message (Spark's carry the executor's stack trace). */
  static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    m = nl < 0 ? m : m.substring(0, nl);
    return m.length() > 600 ? m.substring(0, 600) + "..." : m;
  }

  static String stem(Path f) {
    return stem(f.getFileName().toString());
  }

  static String stem(String n) {
    int dot = n.lastIndexOf('.');
    return dot < 0 ? n : n.substring(0, dot);
  }
}
