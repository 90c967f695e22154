package org.jpir.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.jpir.core.Answer;
import org.jpir.core.ClientQuery;
import org.jpir.core.CompactQuery;
import org.jpir.core.Geometry;
import org.jpir.core.Params;
import org.jpir.core.Wire;
import org.jpir.datasets.progress.Progress;

/**
 * Answers every {@code *.query} (classic) and {@code *.cquery} (compact) file of a directory in
 * batches. Each file is read without trusting it ({@link Wire#readFile}: regular files no larger
 * than the largest valid message for the job's geometry; declared sizes checked against the geometry before allocating) and
 * checked on the driver; a bad one gets {@code <name>.error} naming the problem while the rest
 * of its batch is answered. A batch that fails on the executors is bisected until the failing
 * queries are alone; each of those gets an error file and every other query is answered. Each
 * answer is written atomically as {@code <name>.answer}; a run on an output directory that
 * already holds answers skips those queries and says how many. Nothing written or logged is
 * derived from anything but the file names, which the client chooses as opaque random ids
 * ({@link org.jpir.core.QueryIdMap}).
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

  /** What compact queries need: the preset, the clients' evaluation keys, the expansion mode. */
  public record Compact(org.jpir.core.CompactParams params, org.jpir.core.EvaluationKeyStore keys,
      DistributedPirServer.ExpandMode mode) {}

  /** A query that passed the driver's checks: its file stem and the parsed query. */
  private record Item(String name, ClientQuery classic, CompactQuery compact) {}

  /** Runs over {@code queryDir}, writing into {@code outDir} (classic queries only). */
  public static Summary run(DistributedPirServer server, Params p, Path queryDir, Path outDir,
      int batchSize) {
    return run(server, p, queryDir, outDir, batchSize, null, DistributedPirServer.ExpandMode.DRIVER);
  }

  /** Runs over the local {@code queryDir}; {@code compact} may be null. */
  public static Summary run(DistributedPirServer server, Params p, Path queryDir, Path outDir,
      int batchSize, Compact compact, DistributedPirServer.ExpandMode classicMode) {
    return run(server, p, Storage.at(queryDir.toAbsolutePath().toUri().toString()),
        Storage.at(outDir.toAbsolutePath().toUri().toString()), batchSize, compact, classicMode);
  }

  /**
   * Runs over {@code queryDir} (any Hadoop file system), writing into {@code outDir}; {@code
   * compact} may be null (then *.cquery files are errors).
   */
  public static Summary run(DistributedPirServer server, Params p, Storage queryDir,
      Storage outDir, int batchSize, Compact compact,
      DistributedPirServer.ExpandMode classicMode) {
    return run(server, p, queryDir, outDir, batchSize, compact, classicMode,
        Progress.Mode.QUIET);
  }

  /** As {@link #run(DistributedPirServer, Params, Storage, Storage, int, Compact,
   * DistributedPirServer.ExpandMode)}, showing the queries answered in {@code progress} mode. */
  public static Summary run(DistributedPirServer server, Params p, Storage queryDir,
      Storage outDir, int batchSize, Compact compact,
      DistributedPirServer.ExpandMode classicMode, Progress.Mode progress) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size " + batchSize + " must be at least 1");
    }
    if (!queryDir.isDirectory()) {
      throw new IllegalArgumentException("query directory " + queryDir + " is not a directory");
    }
    List<String> files = queryDir.list(".query", ".cquery");
    outDir.mkdirs();
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no *.query or *.cquery files in " + queryDir);
    }
    List<String> todo = new ArrayList<>();
    for (String f : files) {
      if (!outDir.exists(stem(f) + ".answer")) {
        todo.add(f);
      }
    }
    int skipped = files.size() - todo.size();
    if (skipped > 0) {
      LOG.info("skipping {} of {} queries already answered in {}", skipped, files.size(), outDir);
    }
    return answerFiles(server, p, queryDir, todo, skipped, outDir, batchSize, compact,
        classicMode, progress);
  }

  /**
   * Answers exactly {@code todo} (file names in {@code queryDir}) in batches of {@code batchSize}:
   * each gets {@code <stem>.answer} or {@code <stem>.error} in {@code outDir}; {@code skipped} is
   * reported in the summary as is.
   */
  static Summary answerFiles(DistributedPirServer server, Params p, Storage queryDir,
      List<String> todo, int skipped, Storage outDir, int batchSize, Compact compact,
      DistributedPirServer.ExpandMode classicMode) {
    return answerFiles(server, p, queryDir, todo, skipped, outDir, batchSize, compact,
        classicMode, Progress.Mode.QUIET);
  }

  /** As above, showing queries done of total, queries per second and time left. */
  static Summary answerFiles(DistributedPirServer server, Params p, Storage queryDir,
      List<String> todo, int skipped, Storage outDir, int batchSize, Compact compact,
      DistributedPirServer.ExpandMode classicMode, Progress.Mode progress) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size " + batchSize + " must be at least 1");
    }
    Geometry g = server.geometry();
    long maxQuery = Wire.maxQueryBytes(p, g);
    long maxCompact = compact == null ? 0 : Wire.maxCompactQueryBytes(compact.params(), g);
    long start = System.nanoTime();
    Totals tot = new Totals();
    int batches = (todo.size() + batchSize - 1) / batchSize;
    try (Progress bar = Progress.start("answer", todo.size(), "queries", 1, progress,
        System.err)) {
      for (int bi = 0; bi < batches; bi++) {
        List<String> batch = todo.subList(bi * batchSize, Math.min(todo.size(), (bi + 1)
            * batchSize));
        long t0 = System.nanoTime();
        List<Item> good = new ArrayList<>();
        for (String f : batch) {
          String name = stem(f);
          try {
            if (f.endsWith(".cquery")) {
              if (compact == null) {
                throw new IllegalArgumentException("compact query, but the job has no evaluation"
                    + " keys (--keys DIR) or the preset " + p.id() + " is not a compact one");
              }
              CompactQuery q = Wire.readCompactQuery(queryDir.read(f, maxCompact,
                  "compact query"), compact.params(), g);
              checkCompact(q, compact);
              good.add(new Item(name, null, q));
            } else {
              // the decoder validates the query and checks it against the geometry
              ClientQuery q = Wire.readQuery(queryDir.read(f, maxQuery, "query"), p, g);
              good.add(new Item(name, q, null));
            }
          } catch (IllegalArgumentException | UncheckedIOException e) {
            reject(outDir, name, "query " + f + " rejected: " + e.getMessage(), tot);
          }
        }
        if (good.isEmpty()) {
          bar.stepTo(Math.min(todo.size(), (bi + 1) * batchSize));
          continue;
        }
        int before = tot.answered;
        answerIsolated(server, p, good, compact, classicMode, outDir, tot);
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
  private static void answerIsolated(DistributedPirServer server, Params p, List<Item> items,
      Compact compact, DistributedPirServer.ExpandMode classicMode, Storage outDir, Totals tot) {
    tot.lastP1 = 0;
    tot.lastP2 = 0;
    tot.lastSpark = SparkBatchMetrics.NONE;
    java.util.ArrayDeque<List<Item>> work = new java.util.ArrayDeque<>();
    work.add(items);
    while (!work.isEmpty()) {
      List<Item> part = work.poll();
      try {
        answerOnce(server, p, part, compact, classicMode, outDir, tot);
      } catch (Exception e) {
        String reason = firstLine(e);
        // the classic half of a mixed part may have been answered before the compact half failed
        part = part.stream().filter(it -> !outDir.exists(it.name() + ".answer")).toList();
        if (part.isEmpty()) {
          continue;
        }
        if (part.size() == 1) {
          reject(outDir, part.get(0).name(), "query " + part.get(0).name() + " failed on the"
              + " executors: " + reason, tot);
        } else {
          LOG.warn("{} queries failed together on the executors ({}); answering them in halves",
              part.size(), reason);
          work.addFirst(part.subList(part.size() / 2, part.size()));
          work.addFirst(part.subList(0, part.size() / 2));
        }
      }
    }
  }

  /** One pass over the classic and the compact queries of {@code part}; writes their answers. */
  private static void answerOnce(DistributedPirServer server, Params p, List<Item> part,
      Compact compact, DistributedPirServer.ExpandMode classicMode, Storage outDir, Totals tot) {
    List<ClientQuery> classic = new ArrayList<>();
    List<String> classicNames = new ArrayList<>();
    List<CompactQuery> compactQs = new ArrayList<>();
    List<String> compactNames = new ArrayList<>();
    for (Item it : part) {
      if (it.classic() != null) {
        classic.add(it.classic());
        classicNames.add(it.name());
      } else {
        compactQs.add(it.compact());
        compactNames.add(it.name());
      }
    }
    if (!classic.isEmpty()) {
      DistributedPirServer.BatchStats[] st = new DistributedPirServer.BatchStats[1];
      Answer[] a = server.answerClientBatch(classic, classicMode, st);
      for (int i = 0; i < a.length; i++) {
        answered(outDir, classicNames.get(i), Wire.writeAnswer(a[i]), tot);
      }
      stats(st[0], tot);
    }
    if (!compactQs.isEmpty()) {
      DistributedPirServer.BatchStats[] st = new DistributedPirServer.BatchStats[1];
      Answer[] a = server.answerCompactBatch(compact.params(), compactQs, compact.keys(),
          compact.mode(), st);
      for (int i = 0; i < a.length; i++) {
        answered(outDir, compactNames.get(i), Wire.writeAnswer(a[i]), tot);
      }
      stats(st[0], tot);
    }
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

  private static void answered(Storage outDir, String name, byte[] answer, Totals tot) {
    outDir.write(name + ".answer", answer);
    outDir.delete(name + ".error");
    tot.answered++;
  }

  private static void reject(Storage outDir, String name, String msg, Totals tot) {
    tot.rejected++;
    LOG.warn(msg);
    outDir.write(name + ".error", (msg + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** The first line of an exception's message (Spark's carry the executor's stack trace). */
  static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    m = nl < 0 ? m : m.substring(0, nl);
    return m.length() > 600 ? m.substring(0, 600) + "..." : m;
  }

  /**
   * The driver-side check of a compact query beyond what its decoder checks (validity and the
   * geometry): the server holds the keys it was made for, so a bad one gets its own error file.
   */
  private static void checkCompact(CompactQuery q, Compact c) {
    org.jpir.core.PreparedEvaluationKeys k = c.keys().get(q.clientId());
    if (k.fingerprint() != q.keysFingerprint()) {
      throw new IllegalArgumentException("compact query of client '" + q.clientId()
          + "' was made for other evaluation keys than the server holds: upload the current"
          + " keys");
    }
  }

  static String stem(Path f) {
    return stem(f.getFileName().toString());
  }

  static String stem(String n) {
    int dot = n.lastIndexOf('.');
    return dot < 0 ? n : n.substring(0, dot);
  }

  /** Writes atomically: a temporary file in the same directory, then a rename. */
  static void write(Path target, byte[] bytes) {
    try {
      Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
      try {
        Files.write(tmp, bytes);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }
}
