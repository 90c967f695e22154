package org.jpir.core.demo;

import java.lang.management.ManagementFactory;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpir.core.client.CompactClient;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.cli.PresetOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Compact queries on one core: keygen, key upload, compact queries through the wire format,
 * expansion, phase 1 and phase 2, decoding checked against the generator. Prints sizes, the
 * noise budget and the time of each step. With {@code --geometry-mib G} it also times the
 * expansion alone at the default geometry of a G MiB database (expansion depends only on rows
 * and columns, not on the data) and extrapolates phase 1 linearly in columns from the measured
 * database. Exits 1 if any record is wrong.

 */
@Command(name = "CompactDemo", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Compact queries in one JVM: expansion, phase 1"
    + " and phase 2 timed, every record checked; exit 1 if any is wrong.")
public final class CompactDemo implements Callable<Integer> {
  @Mixin
  PresetOption preset = new PresetOption(CompactParams.ONIONPIR_4096_COMPACT);

  @Option(names = "--mib", description = "database measured, MiB (default: ${DEFAULT-VALUE})")
  long mib = 16;

  @Option(names = "--record-size", description = "bytes per record (default: ${DEFAULT-VALUE})")
  int recordSize = 1024;

  @Option(names = "--rows", description = "rows of the measured database (default: those the"
      + " preset chooses for --geometry-mib)")
  int rowsOpt = -1;

  @Option(names = "--queries", description = "queries; the first is warm-up and not timed"
      + " (default: ${DEFAULT-VALUE})")
  int queries = 4;

  @Option(names = "--batch", description = "also time phase 1 for this many queries in one"
      + " pass over the database, per query (0: not; default: ${DEFAULT-VALUE})")
  int batch = 0;

  @Option(names = "--share-slots", description = "let two records spanning 1 to 1.5"
      + " polynomials share a slot of one plane more (less database, larger answer)")
  boolean shareSlots = false;

  @Option(names = "--pair-tails", negatable = true, description = "pair the half-used last"
      + " planes of rows 2k and 2k + 1 (less database, same answer; records of 1-1.5"
      + " polynomials; default: ${DEFAULT-VALUE})")
  boolean pairTails = Geometry.PAIR_TAILS_BY_DEFAULT;

  @Option(names = "--geometry-mib", description = "database whose geometry is timed, MiB"
      + " (default: ${DEFAULT-VALUE})")
  long geometryMib = 1024;

  public static void main(String[] args) {
    System.exit(new CommandLine(new CompactDemo()).execute(args));
  }

  @Override
  public Integer call() {
    CompactParams cp = preset.compact();
    Params p = cp.server();
    CompactParams.GeometryChoice choice = cp.chooseGeometryWithReason(
        (Math.max(geometryMib, mib) << 20) / recordSize, recordSize, shareSlots);
    Geometry chosen = choice.geometry();
    Geometry big = pairTails ? chosen : chosen.withoutPairedTail();
    int rows = rowsOpt > 0 ? rowsOpt : big.rows();
    Geometry g = Geometry.of(p, (mib << 20) / recordSize, recordSize, rows, shareSlots);
    if (pairTails && g.canPairTail()) {
      g = g.withPairedTail();
    }
    SecureRandom random = new SecureRandom();
    out("preset %s (keys %s), N=%d; database %d MiB as %d rows x %d cols x %d planes", cp.id(),
        cp.keys().id(), p.n(), mib, g.rows(), g.cols(), g.planes());
    out("geometry of %d MiB: %s", Math.max(geometryMib, mib), choice.reason());
    long t0 = System.nanoTime();
    CompactClient client = new CompactClient(cp, g, CompactClient.generateSecret(cp, random),
        "demo", random);
    byte[] keyBytes = Wire.writeEvaluationKeys(client.evaluationKeys());
    long t1 = System.nanoTime();
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register("demo", keyBytes);
    long t2 = System.nanoTime();
    out("evaluation keys: %d bytes (%.2f MiB), keygen %.0f ms, server preparation %.0f ms,"
        + " prepared %.1f MiB", keyBytes.length, keyBytes.length / 1048576.0, (t1 - t0) / 1e6,
        (t2 - t1) / 1e6, store.get("demo").sizeBytes() / 1048576.0);
    double v = Noise.compactAnswer(cp, g.rows(), g.cols());
    out("noise estimate: std 2^%.1f, margin 2^%.0f, failure 2^%.0f per coefficient",
        Math.log(v) / Math.log(4), Math.log(Noise.margin(p)) / Math.log(2),
        Noise.log2FailureProbability(p, v));
    SyntheticRecords src = new SyntheticRecords(g.recordCount(), recordSize, 2026);
    long t3 = System.nanoTime();
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    out("database prepared in %.1f s", (System.nanoTime() - t3) / 1e9);
    PirServer server = new PirServer(p);
    CompactExpander ex = new CompactExpander(cp);
    boolean ok = true;
    long expandNanos = 0;
    PirServer.Timings st = new PirServer.Timings();
    long[] idx = new long[queries];
    for (int i = 0; i < queries; i++) {
      idx[i] = i == 0 ? 0 : i == 1 ? g.recordCount() - 1 : (long) (random.nextDouble()
          * g.recordCount());
    }
    java.lang.management.ThreadMXBean mx =
        ManagementFactory.getThreadMXBean();
    long cpuExpand = 0;
    long cpuAnswer = 0;
    long userExpand = 0;
    long allocExpand = 0;
    for (int qi = 0; qi < idx.length; qi++) {
      long i = idx[qi];
      if (qi == 1) {
        // the first query warms the JIT up: time the others
        expandNanos = 0;
        cpuExpand = 0;
        cpuAnswer = 0;
        userExpand = 0;
        allocExpand = 0;
        st = new PirServer.Timings();
      }
      CompactQuery q = client.query(i);
      byte[] qb = Wire.writeCompactQuery(q);
      CompactExpander.Timings et = new CompactExpander.Timings();
      long c0 = mx.getCurrentThreadCpuTime();
      long u0 = mx.getCurrentThreadUserTime();
      long b0 = allocatedBytes(mx);
      PreparedQuery pq = ex.expand(Wire.readCompactQuery(qb, cp), g, store, et);
      long c1 = mx.getCurrentThreadCpuTime();
      userExpand += mx.getCurrentThreadUserTime() - u0;
      allocExpand += allocatedBytes(mx) - b0;
      expandNanos += et.expandNanos;
      Answer a = server.answer(db, pq, st);
      long c2 = mx.getCurrentThreadCpuTime();
      cpuExpand += c1 - c0;
      cpuAnswer += c2 - c1;
      byte[] ab = Wire.writeAnswer(a);
      boolean good = Arrays.equals(src.record(i), client.decode(Wire.readAnswer(ab, p), i));
      ok &= good;
      out("record %d: %s; query %d B, answer %d B; expansion %.0f ms (%d key switches, %d"
          + " external products)", i, good ? "ok" : "WRONG", qb.length, ab.length,
          et.expandNanos / 1e6, et.keySwitches, et.externalProducts);
    }
    int timed = Math.max(1, queries - 1);
    double e = expandNanos / 1e9 / timed;
    double ph1 = st.phase1Nanos / 1e9 / timed;
    double ph2 = st.phase2Nanos / 1e9 / timed;
    out("per query (measured, %d MiB, first query excluded as warm-up): expansion %.3f s, phase 1 %.3f s, phase 2 %.3f s;"
        + " expansion share %.1f%%", mib, e, ph1, ph2, 100 * e / (e + ph1 + ph2));
    double ce = cpuExpand / 1e9 / timed;
    double ca = cpuAnswer / 1e9 / timed;
    out("per query CPU time (thread): expansion %.3f s, phases 1+2 %.3f s; share %.1f%%", ce, ca,
        100 * ce / (ce + ca));
    // system time is mostly first-touch page faults (fresh heap pages); allocation drives them
    out("per query expansion: user %.3f s, system %.3f s; allocated %.1f MB", userExpand / 1e9
        / timed, Math.max(0, cpuExpand - userExpand) / 1e9 / timed, allocExpand / 1e6 / timed);
    if (batch > 0) {
      PreparedQuery[] qs = new PreparedQuery[batch];
      for (int i = 0; i < batch; i++) {
        qs[i] = ex.expand(Wire.readCompactQuery(Wire.writeCompactQuery(client.query(idx[i
            % idx.length])), cp), g, store, null);
      }
      server.phase1Only(db, qs); // warm-up
      long c0 = mx.getCurrentThreadCpuTime();
      server.phase1Only(db, qs);
      double per = (mx.getCurrentThreadCpuTime() - c0) / 1e9 / batch;
      out("phase 1 of plane 0 for %d queries in one pass: %.3f s CPU per query (one query alone"
          + " per plane: %.3f s)", batch, per, ph1 / g.planes());
    }
    if (geometryMib > 0) {
      CompactClient bc = new CompactClient(cp, big, CompactClient.generateSecret(cp, random),
          "big", random);
      store.register("big", Wire.writeEvaluationKeys(bc.evaluationKeys()));
      CompactExpander.Timings bt = new CompactExpander.Timings();
      long bc0 = 0;
      for (int i = 0; i < queries; i++) {
        CompactQuery q = bc.query(i);
        long c0 = mx.getCurrentThreadCpuTime();
        ex.expand(q, big, store, bt);
        bc0 += mx.getCurrentThreadCpuTime() - c0;
      }
      double be = bt.expandNanos / 1e9 / queries;
      double bce = bc0 / 1e9 / queries;
      double scale = (double) big.cols() * big.planes() / (g.cols() * g.planes());
      double bph1 = ph1 * scale * big.rows() / g.rows();
      double bph2 = ph2 * scale;
      out("%d MiB geometry %d rows x %d cols: expansion %.3f s measured (%d key switches);"
          + " phase 1 %.3f s and phase 2 %.3f s extrapolated from %d MiB; expansion share"
          + " %.1f%%", geometryMib, big.rows(), big.cols(), be, bt.keySwitches / queries, bph1,
          bph2, mib, 100 * be / (be + bph1 + bph2));
      double bca = ca * scale;
      out("%d MiB geometry, CPU time: expansion %.3f s measured, phases 1+2 %.3f s extrapolated;"
          + " expansion share %.1f%%", geometryMib, bce, bca, 100 * bce / (bce + bca));
    }
    return ok ? 0 : 1;
  }

  private static void out(String f, Object... a) {
    System.out.println(String.format(Locale.ROOT, f, a));
  }

  /** Bytes the current thread allocated so far (HotSpot's ThreadMXBean), or 0 if unsupported. */
  private static long allocatedBytes(java.lang.management.ThreadMXBean mx) {
    return mx instanceof com.sun.management.ThreadMXBean h ? h.getCurrentThreadAllocatedBytes() : 0;
  }
}
