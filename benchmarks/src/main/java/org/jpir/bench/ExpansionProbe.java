package org.jpir.bench;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import org.jpir.core.client.CompactClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Presets;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.Wire;

/**
 * The server's query expansion alone, at the geometry of a database of MIB MiB of RECORD-byte
 * records with the default preset for that record size (no database is prepared): the median
 * and the fastest of REPS expansions of 8 fresh queries in turn, and of the trace tree alone (the
 * key switches of the phase-1 ciphertext over all its used slots, nothing kept). For A/B runs in
 * alternating fresh JVMs ({@code benchmarks/expansion-ab.sh}):
 *
 * <pre>./pir java org.jpir.bench.ExpansionProbe [MIB [RECORD [REPS]]]   (1024 3072 60)</pre>
 */
public final class ExpansionProbe {
  private ExpansionProbe() {}

  /** Entry point; prints one line of medians. */
  public static void main(String[] args) {
    long mib = args.length > 0 ? Long.parseLong(args[0]) : 1024;
    int recordSize = args.length > 1 ? Integer.parseInt(args[1]) : 3072;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 60;
    if (mib < 1 || recordSize < 1 || reps < 1) {
      throw new IllegalArgumentException("MIB, RECORD and REPS must be positive");
    }
    CompactParams cp = Presets.compactFor(Presets.forRecordSize(recordSize));
    Geometry g = cp.chooseGeometryWithReason((mib << 20) / recordSize, recordSize).geometry();
    SecureRandom random = new SecureRandom();
    CompactClient client = new CompactClient(cp, g, CompactClient.generateSecret(cp, random),
        "probe", random);
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register("probe", Wire.writeEvaluationKeys(client.evaluationKeys()));
    byte[][] queries = new byte[8][];
    for (int i = 0; i < queries.length; i++) {
      queries[i] = Wire.writeCompactQuery(client.query(random.nextLong(g.recordCount())));
    }
    CompactExpander ex = new CompactExpander(cp);
    CompactExpander.Timings t = new CompactExpander.Timings();
    double[] full = new double[reps];
    double[] tree = new double[reps];
    int slots = Math.min(cp.phase1Slots(g.rows()) + cp.phase2Slots(g.cols()), cp.keys().n());
    long check = 0;
    for (int r = 0; r < reps; r++) {
      CompactQuery q = Wire.readCompactQuery(queries[r % queries.length], cp);
      long t0 = System.nanoTime();
      PreparedQuery pq = ex.expand(q, g, store, t);
      full[r] = (System.nanoTime() - t0) / 1e6;
      check += pq.phase1().nrows();
    }
    for (int r = 0; r < reps; r++) {
      CompactQuery q = Wire.readCompactQuery(queries[r % queries.length], cp);
      Glwe c = q.phase1(cp).expand();
      long t0 = System.nanoTime();
      ex.expand(c, slots, store.keysFor(q).ksk(), (slot, x) -> { }, null);
      tree[r] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(full);
    Arrays.sort(tree);
    System.out.printf(Locale.ROOT, "%s %d x %d%s: expansion median %.2f ms (fastest"
        + " %.2f), %d key switches and %d external products per query; trace tree of %d slots"
        + " median %.2f ms (fastest %.2f); %s%n", cp.id(), g.rows(), g.cols(),
        g.pairedTail() ? " (paired tail)" : "", full[reps / 2], full[0], t.keySwitches / reps,
        t.externalProducts / reps, slots, tree[reps / 2],
        tree[0], check > 0 ? Environment.jdk() : "");
  }
}
