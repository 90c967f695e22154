package org.jpir.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PlaintextCodec;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.ColumnEncoder;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.Wire;
import org.jpir.vmp.Pmat;

/**
 * The parameter table's measured columns: one preset answered on a synthetic database on one
 * core (server time, noise against the estimate, every record decoded), and shared-mask answers
 * to large records.
 */
public final class PresetMeasurement {
  private PresetMeasurement() {}

  /**
   * One measured query.
   *
   * @param geometry the measured database's geometry
   * @param log2MeasuredStd log2 of the RMS noise over the answer's b coefficients (all planes)
   * @param log2EstimatedStd log2 of the estimated std at that geometry (worst-case digits)
   * @param expandSeconds median thread CPU time of the query expansion
   * @param phase1Seconds median phase 1
   * @param phase2Seconds median phase 2 (and the answer's modulus switch)
   * @param totalSeconds median thread CPU time of expansion + answer
   * @param correct every measured record decoded exactly
   * @param large the shared-mask answers to 30 KiB records (null when not measured)
   */
  public record Measurement(Geometry geometry, double log2MeasuredStd, double log2EstimatedStd,
      double expandSeconds, double phase1Seconds, double phase2Seconds, double totalSeconds,
      boolean correct, Large large) {}

  /**
   * Shared-mask answers to large records, measured.
   *
   * @param geometry the database's geometry
   * @param answerBytes the wire length of each answer (all equal)
   * @param log2MeasuredStd log2 RMS noise over every plane's b coefficients
   * @param log2EstimatedStd log2 of the estimate (answer + packing)
   * @param correct every record decoded exactly
   * @param sharedMs median thread CPU time of forming the shared-mask answer from the plane
   *     roots (key switch and modulus switch), milliseconds
   * @param perPlaneMs the same for the per-plane answer (modulus switch only)
   */
  public record Large(Geometry geometry, long answerBytes, double log2MeasuredStd,
      double log2EstimatedStd, boolean correct, double sharedMs, double perPlaneMs) {
    /** Record bytes per answer byte. */
    public double rate() {
      return (double) geometry.recordSize() / answerBytes;
    }
  }

  /**
   * Measures one preset on a synthetic database of {@code mib} MiB of {@code recordSize}-byte
   * records at the preset's geometry: one warm-up query, then {@code queries} timed ones (thread
   * CPU time of expansion and answer, on the calling thread: one core), each decoded and
   * compared, and the answer noise of each against its plaintext.
   */
  public static Measurement measure(Params p, long mib, int recordSize, int queries,
      long largeMib) {
    CompactParams cp = Presets.compactFor(p);
    Geometry g = PresetRows.geometry(p, mib << 20, recordSize);
    SyntheticRecords src = new SyntheticRecords(g.recordCount(), recordSize, 2026);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    SecureRandom random = new SecureRandom();
    PirServer server = new PirServer(p);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    CompactClient cc = null;
    PirClient pc = null;
    EvaluationKeyStore store = null;
    CompactExpander cex = null;
    QueryExpander qex = null;
    if (cp != null) {
      cc = new CompactClient(cp, g, CompactClient.generateSecret(cp, random), "table", random);
      store = new EvaluationKeyStore(cp);
      store.register("table", Wire.writeEvaluationKeys(cc.evaluationKeys()));
      cex = new CompactExpander(cp);
    } else {
      pc = new PirClient(p, g, SecretKey.generate(p, random), random);
      qex = new QueryExpander(p);
    }
    ColumnEncoder enc = new ColumnEncoder(p, g, src);
    PlaintextCodec codec = new PlaintextCodec(p);
    byte[] poly = new byte[codec.polynomialBytes()];
    double[] expand = new double[queries];
    double[] ph1 = new double[queries];
    double[] ph2 = new double[queries];
    double[] total = new double[queries];
    double sumSq = 0;
    long count = 0;
    boolean ok = true;
    SplittableRandom pick = new SplittableRandom(7);
    for (int qi = -1; qi < queries; qi++) {
      long index = qi < 0 ? 0 : qi == 0 ? g.recordCount() - 1 : pick.nextLong(g.recordCount());
      PirServer.Timings t = new PirServer.Timings();
      PreparedQuery pq;
      long c0;
      long c1;
      if (cp != null) {
        byte[] qb = Wire.writeCompactQuery(cc.query(index));
        c0 = mx.getCurrentThreadCpuTime();
        CompactQuery q = Wire.readCompactQuery(qb, cp);
        pq = cex.expand(q, g, store, null);
      } else {
        byte[] qb = Wire.writeQuery(pc.query(index));
        c0 = mx.getCurrentThreadCpuTime();
        ClientQuery q = Wire.readQuery(qb, p);
        pq = qex.expand(q, g);
      }
      c1 = mx.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      Answer a = server.answer(db, pq, t);
      long c2 = mx.getCurrentThreadCpuTime();
      long wall = System.nanoTime() - t0;
      byte[] ab = Wire.writeAnswer(a);
      Answer back = Wire.readAnswer(ab, p, g);
      byte[] got = cp != null ? cc.decode(back, index) : pc.decode(back, index);
      ok &= Arrays.equals(got, src.record(index));
      long polyIndex = g.polynomialOf(index);
      for (int pl = 0; pl < g.planes(); pl++) {
        enc.polynomialBytes(pl, polyIndex, poly);
        long[] digits = new long[p.plaintextLimbs() * p.n()];
        codec.encode(poly, 0, poly.length, digits, 0);
        double[] e = cp != null ? cc.noise(back, pl, digits) : pc.noise(back, pl, digits);
        int nb = back.bCoefficients(pl);
        for (int j = 0; j < nb; j++) {
          sumSq += e[j] * e[j];
          count++;
        }
      }
      if (qi >= 0) {
        // phases from the server's wall-clock split, scaled to the answer's CPU time
        double answerCpu = (c2 - c1) / 1e9;
        double scale = wall > 0 ? answerCpu / (wall / 1e9) : 1;
        expand[qi] = (c1 - c0) / 1e9;
        ph1[qi] = t.phase1Nanos / 1e9 * scale;
        ph2[qi] = answerCpu - ph1[qi];
        total[qi] = expand[qi] + answerCpu;
      }
    }
    double est = cp != null ? Noise.compactAnswer(cp, g.rows(), g.cols())
        : Noise.answer(p, g.rows(), g.cols());
    db = null;
    return new Measurement(g, Math.log(Math.sqrt(sumSq / count)) / Math.log(2),
        Math.log(est) / Math.log(4), median(expand), median(ph1), median(ph2), median(total),
        ok, largeMib > 0
            && PresetRows.packs(PresetRows.geometry(p, largeMib << 20, PresetRows.LARGE_RECORD))
            ? measureLarge(p, largeMib, queries + 1) : null);
  }

  /**
   * Shared-mask answers ({@link PlanePacking}) to {@code queries} queries on {@code mib} MiB of
   * 30 KiB records: the client's packing key and every answer through the wire, each record
   * compared and its noise measured.
   */
  public static Large measureLarge(Params p, long mib, int queries) {
    CompactParams cp = Presets.compactFor(p);
    Geometry g = PresetRows.geometry(p, mib << 20, PresetRows.LARGE_RECORD);
    SyntheticRecords src = new SyntheticRecords(g.recordCount(), PresetRows.LARGE_RECORD, 2027);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    SecureRandom random = new SecureRandom();
    PirServer server = new PirServer(p);
    ColumnEncoder enc = new ColumnEncoder(p, g, src);
    PlaintextCodec codec = new PlaintextCodec(p);
    byte[] poly = new byte[codec.polynomialBytes()];
    CompactClient cc = null;
    PirClient pc = null;
    EvaluationKeyStore store = null;
    byte[] keyBytes;
    if (cp != null) {
      cc = new CompactClient(cp, g, CompactClient.generateSecret(cp, random), "large", random);
      store = new EvaluationKeyStore(cp);
      store.register("large", Wire.writeEvaluationKeys(cc.evaluationKeys()));
      keyBytes = Wire.writePackingKey(p, cc.packingKey().upload());
    } else {
      pc = new PirClient(p, g, SecretKey.generate(p, random), random);
      keyBytes = Wire.writePackingKey(p, pc.packingKey().upload());
    }
    Pmat key = new PlanePacking(p, g.planes())
        .prepare(Wire.readPackingKey(keyBytes, p, g));
    SplittableRandom pick = new SplittableRandom(11);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[] sharedMs = new double[queries];
    double[] perPlaneMs = new double[queries];
    boolean ok = true;
    long bytes = 0;
    double sumSq = 0;
    long count = 0;
    for (int qi = 0; qi < queries; qi++) {
      long index = qi == 0 ? g.recordCount() - 1 : pick.nextLong(g.recordCount());
      PreparedQuery pq = cp != null
          ? new CompactExpander(cp).expand(Wire.readCompactQuery(Wire.writeCompactQuery(
              cc.query(index)), cp), g, store, null)
          : new QueryExpander(p).expand(Wire.readQuery(Wire.writeQuery(pc.query(index)), p), g);
      Glwe[] roots = server.answerRoots(db, new PreparedQuery[] {pq}, null)[0];
      long c0 = mx.getCurrentThreadCpuTime();
      Answer shared = server.toSharedAnswer(roots, g, key);
      long c1 = mx.getCurrentThreadCpuTime();
      server.toAnswer(roots, g);
      long c2 = mx.getCurrentThreadCpuTime();
      sharedMs[qi] = (c1 - c0) / 1e6;
      perPlaneMs[qi] = (c2 - c1) / 1e6;
      byte[] ab = Wire.writeAnswer(shared);
      bytes = ab.length;
      Answer a = Wire.readAnswer(ab, p, g);
      byte[] got = cp != null ? cc.decode(a, index) : pc.decode(a, index);
      ok &= a.sharedA() && Arrays.equals(got, src.record(index));
      for (int pl = 0; pl < g.planes(); pl++) {
        enc.polynomialBytes(pl, g.polynomialOf(index), poly);
        long[] digits = new long[p.plaintextLimbs() * p.n()];
        codec.encode(poly, 0, poly.length, digits, 0);
        double[] e = cp != null ? cc.noise(a, pl, digits) : pc.noise(a, pl, digits);
        for (int j = 0; j < a.bCoefficients(pl); j++) {
          sumSq += e[j] * e[j];
          count++;
        }
      }
    }
    double est = (cp != null ? Noise.compactAnswer(cp, g.rows(), g.cols())
        : Noise.answer(p, g.rows(), g.cols())) + PlanePacking.variance(p, g.planes());
    return new Large(g, bytes, Math.log(Math.sqrt(sumSq / count)) / Math.log(2),
        Math.log(est) / Math.log(4), ok, median(sharedMs), median(perPlaneMs));
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    return s.length == 0 ? Double.NaN : s.length % 2 == 1 ? s[s.length / 2]
        : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
