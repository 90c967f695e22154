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
 * <pre>./pir java org.jpir.bench.ExpansionProbe [MIB [RECORD [REPS [PROPERTY=VALUE]]]]   (1024 3072 60)</pre>
 *
 * <p>With PROPERTY=VALUE, a second expander is made after setting that system property (one the
 * expander reads when it is made, e.g. {@code jpir.expand.imageDigits=false}) and the two expand
 * in turn, rep by rep, in this one JVM: an A/B on the same machine state, free of the JVM-to-JVM
 * spread; it prints both medians and the median of the per-rep ratios B / A.
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
    String ab = args.length > 3 ? args[3] : null;
    if (ab != null && (ab.indexOf('=') < 1)) {
      throw new IllegalArgumentException("the fourth argument is PROPERTY=VALUE, not " + ab);
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
    if (ab != null) {
      System.setProperty(ab.substring(0, ab.indexOf('=')), ab.substring(ab.indexOf('=') + 1));
      alternate(cp, g, store, queries, ex, new CompactExpander(cp), reps, ab);
      return;
    }
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

  /** Expander a and b in turn, rep by rep; prints their medians and that of the ratios b / a. */
  private static void alternate(CompactParams cp, Geometry g, EvaluationKeyStore store,
      byte[][] queries, CompactExpander a, CompactExpander b, int reps, String ab) {
    double[] ta = new double[reps];
    double[] tb = new double[reps];
    double[] ratio = new double[reps];
    long check = 0;
    for (int r = 0; r < reps; r++) {
      for (int side = 0; side < 2; side++) {
        // the first of each pair alternates, so neither side always follows the other
        boolean first = ((r + side) & 1) == 0;
        CompactQuery q = Wire.readCompactQuery(queries[r % queries.length], cp);
        long t0 = System.nanoTime();
        PreparedQuery pq = (first ? a : b).expand(q, g, store, null);
        double ms = (System.nanoTime() - t0) / 1e6;
        check += pq.phase1().nrows();
        if (first) {
          ta[r] = ms;
        } else {
          tb[r] = ms;
        }
      }
      ratio[r] = tb[r] / ta[r];
    }
    Arrays.sort(ta);
    Arrays.sort(tb);
    Arrays.sort(ratio);
    System.out.printf(Locale.ROOT, "%s %d x %d: expansion median A %.2f ms, B (%s) %.2f ms;"
        + " median of B / A per rep %.3f (quartiles %.3f .. %.3f); %s%n", cp.id(), g.rows(),
        g.cols(), ta[reps / 2], ab, tb[reps / 2], ratio[reps / 2], ratio[reps / 4],
        ratio[3 * reps / 4], check > 0 ? Environment.jdk() : "");
  }
}
