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
import org.jpir.core.Params;
import org.jpir.core.PreparedQuery;
import org.jpir.core.QueryExpander;
import org.jpir.core.Wire;

/**
 * Answers every {@code *.query} (classic) and {@code *.cquery} (compact) file of a directory in
 * batches: each query is parsed and checked on the driver (a bad one gets {@code <name>.error}
 * naming the problem; the rest of its batch is still answered); classic queries are expanded on
 * the driver, compact ones where {@link Compact#mode} says; the batch is answered on the cluster
 * and each answer is written atomically as {@code <name>.answer}.
 */
public final class AnswerJob {
  private static final Logger LOG = LogManager.getLogger(AnswerJob.class);

  private AnswerJob() {}

  /** Totals of a run. */
  public record Summary(int answered, int rejected, double seconds, double serverSeconds,
      double phase1Seconds, double phase2Seconds, long rawBytes) {
    /** Raw database bytes answered per second of wall time (bytes x queries / s). */
    public double bytesPerSecond() {
      return rawBytes * (double) answered / serverSeconds;
    }
  }

  /** What compact queries need: the preset, the clients' evaluation keys, the expansion mode. */
  public record Compact(org.jpir.core.CompactParams params, org.jpir.core.EvaluationKeyStore keys,
      DistributedPirServer.ExpandMode mode) {}

  /** Runs over {@code queryDir}, writing into {@code outDir} (classic queries only). */
  public static Summary run(DistributedPirServer server, Params p, Path queryDir, Path outDir,
      int batchSize) {
    return run(server, p, queryDir, outDir, batchSize, null, DistributedPirServer.ExpandMode.DRIVER);
  }

  /** Runs over {@code queryDir}; {@code compact} may be null (then *.cquery files are errors). */
  public static Summary run(DistributedPirServer server, Params p, Path queryDir, Path outDir,
      int batchSize, Compact compact, DistributedPirServer.ExpandMode classicMode) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size " + batchSize + " must be at least 1");
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(queryDir)) {
      files = s.filter(f -> f.getFileName().toString().endsWith(".query")
          || f.getFileName().toString().endsWith(".cquery")).sorted().toList();
      Files.createDirectories(outDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read query directory " + queryDir, e);
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no *.query or *.cquery files in " + queryDir);
    }
    QueryExpander expander = new QueryExpander(p);
    long start = System.nanoTime();
    int answered = 0;
    int rejected = 0;
    double serverS = 0;
    double p1 = 0;
    double p2 = 0;
    int batches = (files.size() + batchSize - 1) / batchSize;
    for (int bi = 0; bi < batches; bi++) {
      List<Path> batch = files.subList(bi * batchSize, Math.min(files.size(), (bi + 1)
          * batchSize));
      long t0 = System.nanoTime();
      List<ClientQuery> good = new ArrayList<>();
      List<String> names = new ArrayList<>();
      List<org.jpir.core.CompactQuery> goodCompact = new ArrayList<>();
      List<String> compactNames = new ArrayList<>();
      for (Path f : batch) {
        String name = stem(f);
        try {
          if (f.getFileName().toString().endsWith(".cquery")) {
            if (compact == null) {
              throw new IllegalArgumentException("compact query, but the job has no evaluation"
                  + " keys (--keys DIR) or the preset " + p.id() + " is not a compact one");
            }
            org.jpir.core.CompactQuery q = Wire.readCompactQuery(Files.readAllBytes(f),
                compact.params());
            checkCompact(q, compact, server);
            goodCompact.add(q);
            compactNames.add(name);
          } else {
            ClientQuery q = Wire.readQuery(Files.readAllBytes(f), p);
            expander.check(q, server.geometry());
            good.add(q);
            names.add(name);
          }
        } catch (IllegalArgumentException | IOException | java.io.UncheckedIOException e) {
          rejected++;
          String msg = "query " + f.getFileName() + " rejected: " + e.getMessage();
          LOG.warn(msg);
          write(outDir.resolve(name + ".error"), (msg + "\n").getBytes(StandardCharsets.UTF_8));
        }
      }
      if (good.isEmpty() && goodCompact.isEmpty()) {
        continue;
      }
      DistributedPirServer.BatchStats[] st = new DistributedPirServer.BatchStats[1];
      Answer[] answers = new Answer[0];
      if (!good.isEmpty()) {
        answers = server.answerClientBatch(good, classicMode, st);
        for (int i = 0; i < answers.length; i++) {
          write(outDir.resolve(names.get(i) + ".answer"), Wire.writeAnswer(answers[i]));
        }
      }
      if (!goodCompact.isEmpty()) {
        DistributedPirServer.BatchStats[] sc = new DistributedPirServer.BatchStats[1];
        Answer[] ca = server.answerCompactBatch(compact.params(), goodCompact, compact.keys(),
            compact.mode(), sc);
        for (int i = 0; i < ca.length; i++) {
          write(outDir.resolve(compactNames.get(i) + ".answer"), Wire.writeAnswer(ca[i]));
        }
        st[0] = st[0] == null ? sc[0] : new DistributedPirServer.BatchStats(
            st[0].queries() + sc[0].queries(), st[0].wallNanos() + sc[0].wallNanos(),
            st[0].phase1Nanos() + sc[0].phase1Nanos(), st[0].phase2Nanos() + sc[0].phase2Nanos(),
            st[0].foldNanos() + sc[0].foldNanos(), st[0].expandNanos() + sc[0].expandNanos());
        Answer[] all = java.util.Arrays.copyOf(answers, answers.length + ca.length);
        System.arraycopy(ca, 0, all, answers.length, ca.length);
        answers = all;
      }
      answered += answers.length;
      double s = (System.nanoTime() - t0) / 1e9;
      serverS += s;
      p1 += st[0].phase1Nanos() / 1e9;
      p2 += st[0].phase2Nanos() / 1e9;
      LOG.info(String.format(Locale.ROOT, "batch %d/%d: %d queries answered in %.2f s (phase 1"
          + " %.2f s, phase 2 %.2f s summed over tasks; driver fold %.3f s); %.2f GB/s of raw"
          + " database", bi + 1, batches, answers.length, s, st[0].phase1Nanos() / 1e9,
          st[0].phase2Nanos() / 1e9, st[0].foldNanos() / 1e9,
          server.geometry().rawBytes() * (double) answers.length / s / 1e9));
    }
    return new Summary(answered, rejected, (System.nanoTime() - start) / 1e9, serverS, p1, p2,
        server.geometry().rawBytes());
  }

  /** The driver-side checks of a compact query (so a bad one gets its own error file). */
  private static void checkCompact(org.jpir.core.CompactQuery q, Compact c,
      DistributedPirServer server) {
    q.validate(c.params());
    if (q.rows() != server.geometry().rows() || q.cols() != server.geometry().cols()) {
      throw new IllegalArgumentException("compact query was made for " + q.rows() + " rows x "
          + q.cols() + " columns, the database has " + server.geometry().rows() + " x "
          + server.geometry().cols());
    }
    org.jpir.core.PreparedEvaluationKeys k = c.keys().get(q.clientId());
    if (k.fingerprint() != q.keysFingerprint()) {
      throw new IllegalArgumentException("compact query of client '" + q.clientId()
          + "' was made for other evaluation keys than the server holds: upload the current"
          + " keys");
    }
  }

  static String stem(Path f) {
    String n = f.getFileName().toString();
    int dot = n.lastIndexOf('.');
    return dot < 0 ? n : n.substring(0, dot);
  }

  /** Writes atomically: a temporary file in the same directory, then a rename. */
  static void write(Path target, byte[] bytes) {
    try {
      Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
      Files.write(tmp, bytes);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }
}
