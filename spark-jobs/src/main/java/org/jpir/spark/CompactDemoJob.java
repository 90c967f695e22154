package org.jpir.spark;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.client.CompactClient;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.Wire;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.source.SyntheticSourceFactory;

/**
 * Compact queries end to end on Spark: a client uploads its evaluation keys, sends compact
 * queries (about 0.1 MiB each), and the batches are answered (each executor expands each query
 * once); every record is checked; sizes and per-batch times are printed.
 */
public final class CompactDemoJob {
  private CompactDemoJob() {}

  static boolean run(JavaSparkContext sc, CompactParams cp, long mib, int queries, int batch,
      int partitions, int reps) {
    int recordSize = cp.server().bytesPerPolynomial();
    long count = Math.max(2, (mib << 20) / recordSize);
    SyntheticSourceFactory src = new SyntheticSourceFactory(count, recordSize, 17);
    Geometry g = cp.chooseGeometry(count, recordSize);
    DemoJob.out("compact demo: preset %s, %d records x %d bytes = %.1f MiB, grid %d x %d, Spark"
        + " %s", cp.id(), count, recordSize, g.rawBytes() / 1048576.0, g.rows(), g.cols(),
        sc.master());
    DistributedPirServer server = DistributedPirServer.prepare(sc, cp.server(), g, src,
        partitions);
    SecureRandom random = new SecureRandom();
    CompactClient client = new CompactClient(cp, g, CompactClient.generateSecret(cp, random),
        "demo-client", random);
    byte[] keys = Wire.writeEvaluationKeys(client.evaluationKeys());
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register("demo-client", keys);
    SyntheticRecords truth = (SyntheticRecords) src.open();
    List<CompactQuery> qs = new ArrayList<>();
    long[] idx = new long[queries];
    for (int i = 0; i < queries; i++) {
      idx[i] = i == 0 ? 0 : i == 1 ? count - 1 : (i * 104729L) % count;
      qs.add(client.query(idx[i]));
    }
    DemoJob.out("compact demo: evaluation keys %.2f MiB (uploaded once), query %.1f KiB",
        keys.length / 1048576.0, Wire.writeCompactQuery(qs.get(0)).length / 1024.0);
    boolean ok = true;
    double[] secs = new double[reps];
    double expand = 0;
    double phase1 = 0;
    for (int r = 0; r < reps; r++) {
      long t0 = System.nanoTime();
      for (int b0 = 0; b0 < queries; b0 += batch) {
        List<CompactQuery> part = qs.subList(b0, Math.min(queries, b0 + batch));
        CompactQueries kind = new CompactQueries(store);
        DistributedPirServer.BatchResult res = server.answer(part.stream()
            .map(q -> kind.accept(q, server.geometry())).toList());
        Answer[] as = res.answers();
        expand += res.stats().expandNanos() / 1e9;
        phase1 += res.stats().phase1Nanos() / 1e9;
        for (int i = 0; i < as.length; i++) {
          boolean good = Arrays.equals(client.decode(as[i], idx[b0 + i]),
              truth.record(idx[b0 + i]));
          ok &= good;
          if (r == 0 && b0 == 0 && i == 0) {
            DemoJob.out("compact demo: answer %.1f KiB", Wire.writeAnswer(as[i]).length
                / 1024.0);
          }
        }
      }
      secs[r] = (System.nanoTime() - t0) / 1e9;
    }
    Arrays.sort(secs);
    double med = secs[reps / 2];
    DemoJob.out("compact demo: expansion on %s: %d queries in batches of %d: median %.2f s"
        + " (min %.2f, max %.2f) = %.3f GB/s raw, %.2f queries/s; expansion %.2f s and phase 1"
        + " %.2f s of task time per run", "executor", queries, batch,
        med, secs[0], secs[reps - 1], g.rawBytes() * (double) queries / med / 1e9,
        queries / med, expand / reps, phase1 / reps);
    DemoJob.out("compact demo: %s", ok ? "ALL RECORDS CORRECT" : "SOME RECORDS WRONG");
    return ok;
  }
}
