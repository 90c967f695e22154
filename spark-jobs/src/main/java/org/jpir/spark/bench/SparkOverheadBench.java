package org.jpir.spark.bench;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.Answer;
import org.jpir.core.Geometry;
import org.jpir.core.Glwe;
import org.jpir.core.Noise;
import org.jpir.core.Params;
import org.jpir.core.PirClient;
import org.jpir.core.PirServer;
import org.jpir.core.PreparedDatabase;
import org.jpir.core.PreparedQuery;
import org.jpir.core.Presets;
import org.jpir.core.QueryExpander;
import org.jpir.core.SecretKey;
import org.jpir.core.SyntheticRecords;
import org.jpir.spark.ColumnPartitioning;
import org.jpir.vmp.Pmat;
import org.jpir.spark.ColumnTree;
import org.jpir.spark.FoldSpan;
import org.jpir.spark.DistributedPirServer;
import org.jpir.spark.SparkSetup;
import org.jpir.spark.SyntheticSourceFactory;

/**
 * The Spark overhead benchmark (a documented harness, not JMH: each point is a whole batch of
 * seconds): for batches of B queries, the wall time of {@link DistributedPirServer#answerBatch}
 * in Spark local mode with T threads and T partitions, against the same work done in one JVM by
 * T plain threads, each running {@link PirServer#answerRange} on the same column range, followed by
 * the same driver fold. Prepared queries are made once per batch size (expansion is not timed in
 * either). Every answer of both is checked against the generator. Prints one line per point and
 * the median and min-max of {@code reps} repetitions.
 *
 * <p>Usage: {@code SparkOverheadBench [--mib 512] [--batches 1,4,16] [--threads 2] [--reps 5]}.
 */
public final class SparkOverheadBench {
  private SparkOverheadBench() {}

  public static void main(String[] args) throws Exception {
    long mib = 512;
    int[] batches = {1, 4, 16};
    int threads = 2;
    int reps = 5;
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--mib": mib = Long.parseLong(args[i + 1]); break;
        case "--batches": batches = Arrays.stream(args[i + 1].split(",")).mapToInt(
            Integer::parseInt).toArray(); break;
        case "--threads": threads = Integer.parseInt(args[i + 1]); break;
        case "--reps": reps = Integer.parseInt(args[i + 1]); break;
        default: throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Params p = Presets.ONIONPIR_4096;
    int recordSize = p.bytesPerPolynomial();
    long count = (mib << 20) / recordSize;
    SyntheticSourceFactory src = new SyntheticSourceFactory(count, recordSize, 99);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    Geometry g = Geometry.choose(p, count, recordSize, 1024);
    System.out.printf(Locale.ROOT, "bench: %d MiB raw, %d rows x %d columns, %d threads/partitions,"
        + " %s%n", mib, g.rows(), g.cols(), threads, System.getProperty("java.runtime.version"));
    SecureRandom random = new SecureRandom();
    PirClient client = new PirClient(p, g, SecretKey.generate(p, random), random);
    QueryExpander ex = new QueryExpander(p);
    int maxB = Arrays.stream(batches).max().orElse(1);
    long[] idx = new long[maxB];
    List<PreparedQuery> all = new ArrayList<>();
    for (int i = 0; i < maxB; i++) {
      idx[i] = (i * 7919L) % count;
      all.add(ex.expand(client.query(idx[i]), g));
    }
    double[][] sparkS = new double[batches.length][];
    try (JavaSparkContext sc = new JavaSparkContext(
        SparkSetup.conf("jpir overhead bench", "local[" + threads + "]"))) {
      sc.setLogLevel("WARN");
      DistributedPirServer server = DistributedPirServer.prepare(sc, p, g, src, threads);
      for (int bi = 0; bi < batches.length; bi++) {
        List<PreparedQuery> qs = all.subList(0, batches[bi]);
        check(server.answerBatch(qs, null), client, truth, idx); // warm-up and correctness
        sparkS[bi] = new double[reps];
        for (int r = 0; r < reps; r++) {
          long t0 = System.nanoTime();
          server.answerBatch(qs, null);
          sparkS[bi][r] = (System.nanoTime() - t0) / 1e9;
        }
      }
    }
    ColumnPartitioning parts = ColumnPartitioning.plan(g.cols(), threads, 1);
    PreparedDatabase[] ranges = new PreparedDatabase[parts.count()];
    for (int i = 0; i < ranges.length; i++) {
      ranges[i] = PreparedDatabase.prepare(p, g, truth, parts.first(i), parts.size(i), null);
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    double[][] plainS = new double[batches.length][];
    for (int bi = 0; bi < batches.length; bi++) {
      PreparedQuery[] qs = all.subList(0, batches[bi]).toArray(new PreparedQuery[0]);
      check(plain(p, g, parts, ranges, qs, pool), client, truth, idx);
      plainS[bi] = new double[reps];
      for (int r = 0; r < reps; r++) {
        long t0 = System.nanoTime();
        plain(p, g, parts, ranges, qs, pool);
        plainS[bi][r] = (System.nanoTime() - t0) / 1e9;
      }
    }
    pool.shutdown();
    System.out.println("| batch | Spark s/batch (median, min..max) | plain JVM s/batch | Spark"
        + " overhead | Spark GB/s raw | Spark queries/s |");
    System.out.println("|---:|---:|---:|---:|---:|---:|");
    for (int bi = 0; bi < batches.length; bi++) {
      double s = median(sparkS[bi]);
      double pl = median(plainS[bi]);
      System.out.printf(Locale.ROOT, "| %d | %.3f (%.3f..%.3f) | %.3f (%.3f..%.3f) | %+.1f%% |"
          + " %.3f | %.2f |%n", batches[bi], s, min(sparkS[bi]), max(sparkS[bi]), pl,
          min(plainS[bi]), max(plainS[bi]), 100 * (s / pl - 1),
          g.rawBytes() * (double) batches[bi] / s / 1e9, batches[bi] / s);
    }
  }

  /** The same split of work as the Spark job, on plain threads. */
  static Answer[] plain(Params p, Geometry g, ColumnPartitioning parts, PreparedDatabase[] ranges,
      PreparedQuery[] qs, ExecutorService pool) throws Exception {
    ColumnTree tree = new ColumnTree(g.cols());
    List<Future<FoldSpan>> fs = new ArrayList<>();
    for (int i = 0; i < ranges.length; i++) {
      PreparedDatabase r = ranges[i];
      int index = i;
      fs.add(pool.submit(() -> tree.answer(new PirServer(p), r, qs, index,
          new PirServer.Timings(), 0, "plain")));
    }
    List<FoldSpan> spans = new ArrayList<>();
    for (Future<FoldSpan> f : fs) {
      spans.add(f.get());
    }
    PirServer driver = new PirServer(p);
    Pmat[][] ggsw = new Pmat[qs.length][];
    for (int qi = 0; qi < qs.length; qi++) {
      ggsw[qi] = qs[qi].ggsw();
    }
    FoldSpan root = tree.merge(driver, spans, 0, ggsw, "plain");
    Answer[] out = new Answer[qs.length];
    for (int qi = 0; qi < qs.length; qi++) {
      out[qi] = driver.toAnswer(column(root.nodes()[qi]));
    }
    return out;
  }

  /** The root of every plane. */
  private static Glwe[] column(Glwe[][] planeNodes) {
    Glwe[] roots = new Glwe[planeNodes.length];
    for (int pl = 0; pl < roots.length; pl++) {
      roots[pl] = planeNodes[pl][0];
    }
    return roots;
  }

  static void check(Answer[] as, PirClient client, SyntheticRecords truth, long[] idx) {
    for (int i = 0; i < as.length; i++) {
      if (!Arrays.equals(client.decode(as[i], idx[i]), truth.record(idx[i]))) {
        throw new IllegalStateException("wrong record " + idx[i]);
      }
    }
  }

  static double median(double[] a) {
    double[] s = a.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static double min(double[] a) {
    return Arrays.stream(a).min().orElse(Double.NaN);
  }

  static double max(double[] a) {
    return Arrays.stream(a).max().orElse(Double.NaN);
  }
}
