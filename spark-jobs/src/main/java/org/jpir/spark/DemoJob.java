package org.jpir.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.client.PirQueryClients;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.datasets.cli.DefaultPreset;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.source.SyntheticSourceFactory;
import org.jpir.vmp.KernelProvider;

/**
 * The README's first command: on Spark (local mode unless a master is given), generate a seeded
 * synthetic database, prepare it as cached PVEC partitions, write query files named by random
 * ids for several records (first and last included; the id -> index map stays on the client's
 * side) plus one corrupted file, compact queries with their evaluation keys unless the preset is
 * classic, answer them with {@link AnswerJob},
 * decode every answer, check each record against the generator and print the throughput.
 */
public final class DemoJob {
  private DemoJob() {}

  /** Returns true when every record decoded exactly and the corrupted query was rejected. */
  public static boolean run(JavaSparkContext sc, Params p, long mib, int recordSize,
      int queries, int batch, int partitions, int maxRows, long seed) throws IOException {
    long count = Math.max(2, (mib << 20) / recordSize);
    SyntheticSourceFactory src = new SyntheticSourceFactory(count, recordSize, seed);
    CompactParams cp = Presets.compactFor(p);
    Geometry g = Presets.geometry(p, count, recordSize, maxRows);
    out("demo: Spark %s, %d default parallelism; preset %s (%s, %s queries); driver kernels %s",
        sc.master(), sc.defaultParallelism(), p.id(),
        p.secure() ? p.securityBits() + "-bit" : "INSECURE", cp != null ? "compact" : "classic",
        KernelProvider.get().name());
    out("demo: database %d records x %d bytes = %.1f MiB, grid %d rows x %d columns x %d"
        + " plane(s)", count, recordSize, g.rawBytes() / 1048576.0, g.rows(), g.cols(),
        g.planes());
    long t0 = System.nanoTime();
    DistributedPirServer server = DistributedPirServer.prepare(sc, p, g, src, partitions,
        new DistributedPirServer.Workload(batch, cp));
    out("demo: prepared %d partitions of %d columns in %.1f s", server.partitioning().count(),
        server.partitioning().width(), (System.nanoTime() - t0) / 1e9);

    Path dir = Files.createTempDirectory("jpir-demo");
    Path qdir = Files.createDirectories(dir.resolve("queries"));
    Path adir = dir.resolve("answers");
    // the client's side: its secret key and the private map from random query ids to indices
    SecureRandom random = new SecureRandom();
    PirQueryClient client = PirQueryClients.generate(p, g, "demo", random);
    AnswerJob.Compact serverSide = null;
    if (cp != null) {
      byte[] evk = client.evaluationKeysMessage().orElseThrow();
      Path keys = Files.createDirectories(dir.resolve("keys"));
      Files.write(keys.resolve("demo.evk"), evk);
      out("demo: the client's evaluation keys (%.2f MiB) uploaded once as keys/demo.evk",
          evk.length / 1048576.0);
      serverSide = new AnswerJob.Compact(cp, new EvaluationKeyStore(cp, keys));
    }
    QueryIdMap ids = new QueryIdMap();
    SplittableRandom pick = new SplittableRandom(seed);
    String corrupted = null;
    for (int i = 0; i < queries; i++) {
      long index = i == 0 ? 0 : i == 1 ? count - 1 : pick.nextLong(count);
      byte[] q = client.queryMessage(index);
      Files.write(qdir.resolve(client.queryFileName(ids.add(index, random)).fileName()), q);
      if (i == 0) {
        byte[] bad = Arrays.copyOf(q, q.length / 2);
        corrupted = QueryIdMap.newId(random);
        Files.write(qdir.resolve(client.queryFileName(corrupted).fileName()), bad);
        out("demo: each query is %.1f KiB, named by a random id (the index stays in the"
            + " client's id map); also wrote a truncated query to show rejection",
            q.length / 1024.0);
      }
    }
    ids.save(dir.resolve("client-ids.map"));
    AnswerJob.Summary s = AnswerJob.run(server, p, qdir, adir, batch, serverSide);
    boolean ok = s.rejected() == 1 && Files.exists(adir.resolve(corrupted + ".error"));
    SyntheticRecords truth = (SyntheticRecords) src.open();
    QueryIdMap mine = QueryIdMap.load(dir.resolve("client-ids.map"), false);
    for (Map.Entry<String, Long> e : mine.entries().entrySet()) {
      long index = e.getValue();
      byte[] a = Files.readAllBytes(adir.resolve(e.getKey() + ".answer"));
      boolean good = Arrays.equals(client.decodeMessage(a, index),
          truth.record(index));
      ok &= good;
      out("demo: record %d: %s (answer %.1f KiB)", index, good ? "OK" : "WRONG",
          a.length / 1024.0);
    }
    double log2Failure = Noise.log2FailureProbability(p, cp != null
        ? Noise.compactAnswer(cp, g.rows(), g.cols()) : Noise.answer(p, g.rows(), g.cols()));
    out("demo: %s; %d answered, %d rejected; %.2f s for all batches (phase 1 %.2f s, phase 2 %.2f"
        + " s summed over tasks); %.3f GB/s of raw database, %.2f queries/s; failure probability"
        + " per coefficient 2^%.0f", ok ? "ALL RECORDS CORRECT" : "FAILED", s.answered(),
        s.rejected(), s.serverSeconds(), s.phase1Seconds(), s.phase2Seconds(),
        s.bytesPerSecond() / 1e9, s.answered() / s.serverSeconds(), log2Failure);
    try (Stream<Path> w = Files.walk(dir)) {
      w.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
    return ok;
  }

  static void out(String fmt, Object... args) {
    System.out.println(String.format(Locale.ROOT, fmt, args));
  }

  /**
   * The demo's preset for records of {@code recordSize} bytes when none is given: the record
   * size's default ({@link DefaultPreset#forRecordSize}, logged once with the reason).
   */
  static Params defaultPreset(int recordSize) {
    return DefaultPreset.forRecordSize(recordSize);
  }
}
