package org.jpir.core.demo;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PlaintextCodec;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.params.Security;
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
import org.jpir.core.wire.Sizes;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.vmp.KernelProvider;
import org.jpir.vmp.Pmat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The parameter table of every preset, from one command: parameters, noise budget, estimated
 * security and message sizes from the code ({@link Sizes}, {@link Noise}, {@link Security}),
 * plus measured noise and server time for one query on one core at a stated database size. With
 * {@code --write docs/parameters.md} the markdown replaces the text between {@value #BEGIN} and {@value
 * #END}. Options: {@code --mib M} (measured database, default 256), {@code --record-size B}
 * (default 3072), {@code --queries Q} (timed queries after one warm-up, default 2), {@code
 * --large-mib L} (database of 30 KiB records answered with shared-mask answers, default 64; 0:
 * none), {@code --write FILE}, {@code --no-measure} (model columns only). Exits 1 when a record
 * decodes wrong.
 */
@Command(name = "ParamTable", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "The parameter table: every production preset's N,"
    + " moduli, noise, security and sizes, with the server time measured.")
public final class ParamTable implements Callable<Integer> {
  ParamTable() {}

  /** Marker line before the generated table. */
  public static final String BEGIN = "<!-- params:begin -->";
  /** Marker line after the generated table. */
  public static final String END = "<!-- params:end -->";
  /** Size geometry of the table: 1 GiB of 3 KiB records. */
  public static final long SIZE_BYTES = 1L << 30;
  /** Record size of the size geometry. */
  public static final int SIZE_RECORD = 3072;
  /** Record size of the large-record rate column: 30 KiB. */
  public static final int LARGE_RECORD = 30 * 1024;

  /**
   * What the code says about one production preset (no measurement).
   *
   * @param params the server parameters
   * @param compact the compact scheme, or null for a classic preset
   * @param maxRows rows of the largest geometry (the budget's)
   * @param maxCols columns of the largest geometry
   * @param log2Std log2 of the estimated answer noise std at the largest geometry
   * @param log2Failure log2 failure probability per coefficient there
   * @param security the server parameters' estimate
   * @param keySecurity the compact key parameters' estimate (null for classic)
   * @param sizeGeometry the geometry of 1 GiB of 3 KiB records
   * @param queryBytes wire bytes of a query there ({@link Sizes})
   * @param answerBytes wire bytes of an answer there
   * @param keyBytes wire bytes of the evaluation keys there (0 for classic)
   * @param largeGeometry the geometry of 1 GiB of 30 KiB records
   * @param largeAnswerBytes wire bytes of a per-plane answer there
   * @param largeSharedBytes wire bytes of a shared-mask answer there ({@link
   *     org.jpir.core.lwe.PlanePacking})
   * @param packingKeyBytes wire bytes of the client's packing key for that geometry
   * @param log2FailureShared log2 failure per coefficient at the largest geometry with the
   *     packing's noise added
   * @param sharedBytes wire bytes of a shared-mask answer at the 3 KiB geometry when its records
   *     span 2 to MAX_PLANES planes (else answerBytes)
   * @param sharedKeyBytes wire bytes of the packing key for that geometry (0 when none)
   */
  public record Row(Params params, CompactParams compact, int maxRows, int maxCols,
      double log2Std, double log2Failure, Security.Estimate security,
      Security.Estimate keySecurity, Geometry sizeGeometry, long queryBytes, long answerBytes,
      long keyBytes, Geometry largeGeometry, long largeAnswerBytes, long largeSharedBytes,
      long packingKeyBytes, double log2FailureShared, long sharedBytes, long sharedKeyBytes) {

    /** Record bytes per answer byte at 30 KiB records, per-plane answers. */
    public double largeRate() {
      return (double) LARGE_RECORD / largeAnswerBytes;
    }

    /** Record bytes per answer byte at 30 KiB records, shared-mask answers. */
    public double largeSharedRate() {
      return (double) LARGE_RECORD / largeSharedBytes;
    }

    /** The smaller classical estimate of the server and (compact) key parameters. */
    public double classicalBits() {
      return keySecurity == null ? security.classicalBits()
          : Math.min(security.classicalBits(), keySecurity.classicalBits());
    }

    /** The smaller quantum estimate of the server and (compact) key parameters. */
    public double quantumBits() {
      return keySecurity == null ? security.quantumBits()
          : Math.min(security.quantumBits(), keySecurity.quantumBits());
    }
  }

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

  /** The production presets, classic then compact (insecure test presets excluded). */
  public static List<Params> productionPresets() {
    List<Params> out = new ArrayList<>();
    for (Params p : Presets.all()) {
      if (p.secure()) {
        out.add(p);
      }
    }
    return out;
  }

  /** The insecure test presets (listed in the table as refused outside tests). */
  public static List<Params> testPresets() {
    List<Params> out = new ArrayList<>();
    for (Params p : Presets.all()) {
      if (!p.secure()) {
        out.add(p);
      }
    }
    return out;
  }

  /** The geometry preset {@code p} chooses for {@code bytes} of records of {@code size}. */
  public static Geometry geometry(Params p, long bytes, int size) {
    return Presets.geometry(p, Math.max(1, bytes / size), size, 1024);
  }

  /** The row of preset {@code p}, from the code alone. */
  public static Row row(Params p) {
    CompactParams cp = Presets.compactFor(p);
    int rows;
    int cols;
    double v;
    if (cp != null) {
      rows = cp.maxRows();
      cols = CompactParams.BUDGET_COLS;
      v = Noise.compactAnswer(cp, rows, cols);
    } else {
      rows = Geometry.maxRows(p);
      cols = Presets.BUDGET_COLS;
      v = Noise.answer(p, rows, cols);
    }
    Geometry g = geometry(p, SIZE_BYTES, SIZE_RECORD);
    Geometry large = geometry(p, SIZE_BYTES, LARGE_RECORD);
    long query = cp != null ? Sizes.compactQuery(cp, g).total() : Sizes.query(p, g).total();
    long keys = cp != null ? Sizes.evaluationKeys(cp, g).total() : 0;
    // beyond PlanePacking.MAX_PLANES planes answers stay per plane: no packing key, no shared mask
    boolean packs = packs(large);
    double vShared = packs ? v + PlanePacking.variance(p, large.planes()) : v;
    long perPlane = Sizes.answer(p, large).total();
    return new Row(p, cp, rows, cols, Math.log(v) / Math.log(4),
        Noise.log2FailureProbability(p, v), p.estimatedSecurity(),
        cp != null ? cp.keys().estimatedSecurity() : null, g, query, Sizes.answer(p, g).total(),
        keys, large, perPlane, packs ? Sizes.sharedAnswer(p, large).total() : perPlane,
        packs ? Sizes.packingKey(p, large.planes()).total() : 0,
        Noise.log2FailureProbability(p, vShared),
        packs(g) ? Sizes.sharedAnswer(p, g).total() : Sizes.answer(p, g).total(),
        packs(g) ? Sizes.packingKey(p, g.planes()).total() : 0);
  }

  /** Whether answers at g can share one mask ({@link PlanePacking}: 2 to MAX_PLANES planes). */
  public static boolean packs(Geometry g) {
    return g.planes() >= 2 && g.planes() <= PlanePacking.MAX_PLANES;
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
    Geometry g = geometry(p, mib << 20, recordSize);
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
        ok, largeMib > 0 && packs(geometry(p, largeMib << 20, LARGE_RECORD))
            ? measureLarge(p, largeMib, queries + 1) : null);
  }

  /**
   * Shared-mask answers ({@link PlanePacking}) to {@code queries} queries on {@code mib} MiB of
   * 30 KiB records: the client's packing key and every answer through the wire, each record
   * compared and its noise measured.
   */
  public static Large measureLarge(Params p, long mib, int queries) {
    CompactParams cp = Presets.compactFor(p);
    Geometry g = geometry(p, mib << 20, LARGE_RECORD);
    SyntheticRecords src = new SyntheticRecords(g.recordCount(), LARGE_RECORD, 2027);
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
      Glwe[] roots = server.answerRange(db, new PreparedQuery[] {pq}, null)[0];
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

  /** The cells of a row that come from the code alone (sizes, rate), as the table prints them. */
  public static String sizeCells(Row r) {
    Geometry g = r.sizeGeometry();
    Geometry l = r.largeGeometry();
    String shared = packs(l) ? String.format(Locale.ROOT, "shared mask %,d B (**%.3f**), packing"
        + " key %,d B", r.largeSharedBytes(), r.largeSharedRate(), r.packingKeyBytes())
        : String.format(Locale.ROOT, "no shared mask (%d planes > %d)", l.planes(),
            PlanePacking.MAX_PLANES);
    String answer = packs(g) ? String.format(Locale.ROOT, "%,d (%d planes); shared mask **%,d**,"
        + " packing key %,d", r.answerBytes(), g.planes(), r.sharedBytes(), r.sharedKeyBytes())
        : String.format(Locale.ROOT, "%,d", r.answerBytes());
    return String.format(Locale.ROOT, "%d x %d | %,d | %s | %s | %d x %d x %d: per-plane %,d B"
        + " (%.3f); %s", g.rows(), g.cols(), r.queryBytes(), answer,
        r.keyBytes() > 0 ? String.format(Locale.ROOT, "%,d", r.keyBytes()) : "none", l.rows(),
        l.cols(), l.planes(), r.largeAnswerBytes(), r.largeRate(), shared);
  }

  /** The markdown table (measurements may be null: those cells say "not measured"). */
  public static String markdown(List<Row> rows, List<Measurement> ms, long mib, int recordSize,
      String header) {
    StringBuilder sb = new StringBuilder();
    sb.append(header).append("\n\n");
    sb.append("| preset | N | q (log2) | plaintext | gadgets (levels x digit bits) | answer modulus"
        + " b / a | largest geometry | noise std, estimated there | failure per coefficient"
        + " there | noise std measured / estimated (measured geometry) | security classical /"
        + " quantum | parameter revision |\n");
    sb.append("|---|---:|---|---|---|---|---|---:|---:|---|---|---|\n");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      Params p = r.params();
      CompactParams cp = r.compact();
      Measurement m = ms == null ? null : ms.get(i);
      String q = cp == null ? "2^" + p.logQ() : String.format(Locale.ROOT,
          "server 2^%d, client ciphertexts and keys 2^%d (noise 2^%.0f/q)", p.logQ(),
          cp.keys().logQ(), Math.log(cp.keys().sigma() / 3.2) / Math.log(2));
      String gadgets = cp == null
          ? String.format(Locale.ROOT, "GGSW %d x %d; limbs of K = %d", p.ggswLevels(),
              p.ggswBits(), p.base2k())
          : String.format(Locale.ROOT, "GGSW %d x %d, key switching %d x %d, GGSW(s) %d x %d;"
              + " limbs of K = %d; query b %d bits, key b %d bits; phase-1 rows in %s",
              p.ggswLevels(), p.ggswBits(), cp.ksLevels(), cp.ksBits(), cp.keys().ggswLevels(),
              cp.keys().ggswBits(), p.base2k(), cp.queryBits(), cp.keyBits(), cp.phase1());
      String sec = cp == null
          ? String.format(Locale.ROOT, "%.0f / %.0f", r.security().classicalBits(),
              r.security().quantumBits())
          : String.format(Locale.ROOT, "%.0f / %.0f (keys; server %.0f / %.0f)",
              r.keySecurity().classicalBits(), r.keySecurity().quantumBits(),
              r.security().classicalBits(), r.security().quantumBits());
      String meas = m == null ? "not measured" : String.format(Locale.ROOT,
          "2^%.2f / 2^%.2f (%d x %d)", m.log2MeasuredStd(), m.log2EstimatedStd(),
          m.geometry().rows(), m.geometry().cols());
      sb.append(String.format(Locale.ROOT, "| `%s` | %d | %s | %d bits in %d limbs%s | %s |"
          + " %d / %d bits | %d x %d | 2^%.1f | 2^%.0f | %s | %s | `%s` |\n", p.id(), p.n(), q,
          p.plaintextBits(), p.plaintextLimbs(), p.scaledPlaintext()
              ? " (scaled: the digit is the byte, the query row 2^-" + p.plaintextBits() + ")"
              : "", gadgets, p.answerBitsB(), p.answerBitsA(),
          r.maxRows(), r.maxCols(), r.log2Std(), r.log2Failure(), meas, sec,
          ParameterRevision.hex(ParameterRevision.of(p))));
    }
    List<String> tests = new ArrayList<>();
    for (Params t : testPresets()) {
      tests.add("`" + t.id() + "`");
    }
    sb.append("| ").append(String.join(", ", tests)).append(" | 256, 1024 | as above |"
        + " | | | | | | | insecure: tests only, refused elsewhere | each its own |\n\n");
    sb.append(String.format(Locale.ROOT, "| preset | geometry at 1 GiB / 3 KiB | query (B) |"
        + " answer (B) | evaluation keys (B) | 30 KiB records at 1 GiB (geometry): answer"
        + " bytes (rate = record / answer)"
        + " | server time, one query, one core, %d MiB / %d B records (geometry): expansion +"
        + " phase 1 + phase 2 = total | records exact |\n", mib, recordSize));
    sb.append("|---|---|---:|---:|---:|---|---|---|\n");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      Measurement m = ms == null ? null : ms.get(i);
      String t = m == null ? "not measured" : String.format(Locale.ROOT,
          "%.3f + %.3f + %.3f = %.3f s (%d x %d), %.2f GB/s", m.expandSeconds(),
          m.phase1Seconds(), m.phase2Seconds(), m.totalSeconds(), m.geometry().rows(),
          m.geometry().cols(), m.geometry().rawBytes() / m.totalSeconds() / 1e9);
      sb.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s |\n", r.params().id(),
          sizeCells(r), t, m == null ? "" : m.correct() ? "yes" : "NO"));
    }
    if (ms != null) {
      sb.append("\nShared-mask answers to 30 KiB records, measured in the same run (packing key"
          + " and answers through the wire):\n\n");
      sb.append("| preset | database (geometry) | answer (B) | rate | noise std measured /"
          + " estimated | forming the answer from the plane GLWEs: shared mask / per plane |"
          + " records exact |\n|---|---|---:|---:|---|---|---|\n");
      for (int i = 0; i < rows.size(); i++) {
        Large l = ms.get(i).large();
        if (l == null) {
          continue;
        }
        Geometry lg = l.geometry();
        sb.append(String.format(Locale.ROOT, "| `%s` | %,d x 30 KiB (%d x %d x %d) | %,d |"
            + " %.3f | 2^%.2f / 2^%.2f | %.1f / %.1f ms | %s |\n", rows.get(i).params().id(),
            lg.recordCount(), lg.rows(), lg.cols(), lg.planes(), l.answerBytes(), l.rate(),
            l.log2MeasuredStd(), l.log2EstimatedStd(), l.sharedMs(), l.perPlaneMs(),
            l.correct() ? "yes" : "NO"));
      }
    }
    return sb.toString();
  }

  /** The header: date, command, git revision, JDK, kernels and the CPU (model, flags, caches). */
  public static String environment(String command) {
    String rev = run("git", "rev-parse", "--short", "HEAD");
    String dirty = run("git", "status", "--porcelain", "--untracked-files=no");
    return String.format(Locale.ROOT, "Generated %s by `%s`; revision %s%s; %s %s; kernels %s;"
        + " CPU %s, %d cores; %s; caches %s; load average at the end %s. Server times are the"
        + " answering thread's CPU time (medians of the timed queries).",
        Instant.now().truncatedTo(ChronoUnit.SECONDS), command,
        rev.isEmpty() ? "unknown" : rev, dirty.isEmpty() ? "" : " (with local changes)",
        System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
        kernels(), cpuField("model name"), Runtime.getRuntime().availableProcessors(),
        cpuFlags(), caches(), loadAverage());
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " / " + f[1] + " / " + f[2] + " (1 / 5 / 15 min)";
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      return "unknown";
    }
  }

  private static String kernels() {
    return String.valueOf(KernelProvider.get());
  }

  private static String run(String... cmd) {
    try {
      Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return pr.waitFor() == 0 ? out : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private static String cpuField(String name) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith(name)) {
          return line.substring(line.indexOf(':') + 1).trim()
              + (name.equals("model name") ? " (family " + cpuRaw("cpu family") + ", model "
                  + cpuRaw("model\t") + ")" : "");
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }

  private static String cpuRaw(String name) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith(name)) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return "?";
  }

  private static String cpuFlags() {
    String flags = " " + cpuRaw("flags") + " ";
    List<String> have = new ArrayList<>();
    for (String f : new String[] {"avx2", "fma", "avx512f", "avx512dq", "avx512bw", "avx512vl",
        "avx512_fp16"}) {
      if (flags.contains(" " + f + " ")) {
        have.add(f);
      }
    }
    return "flags " + (have.isEmpty() ? "none of avx2/fma/avx512" : String.join(" ", have));
  }

  private static String caches() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Path d = Path.of("/sys/devices/system/cpu/cpu0/cache/index" + i);
      if (!Files.isDirectory(d)) {
        break;
      }
      try {
        String type = Files.readString(d.resolve("type")).trim();
        if (type.equals("Instruction")) {
          continue;
        }
        out.add("L" + Files.readString(d.resolve("level")).trim()
            + (type.equals("Data") ? "d" : "") + " " + Files.readString(d.resolve("size")).trim());
      } catch (IOException e) {
        break;
      }
    }
    return out.isEmpty() ? "unknown" : String.join(", ", out) + " (per core: cpu0's)";
  }

  /**
   * {@code text} with the lines between {@link #BEGIN} and {@link #END} replaced by {@code
   * table}.
   *
   * @throws IllegalArgumentException when the markers are missing or out of order
   */
  public static String replaceBetweenMarkers(String text, String table) {
    int b = text.indexOf(BEGIN);
    int e = text.indexOf(END);
    if (b < 0 || e < b) {
      throw new IllegalArgumentException("the file needs a line " + BEGIN + " before a line "
          + END);
    }
    return text.substring(0, b + BEGIN.length()) + "\n" + table + text.substring(e);
  }

  @Option(names = "--mib", description = "database size measured (default: ${DEFAULT-VALUE})")
  long mib = 256;

  @Option(names = "--record-size", description = "record size measured (default:"
      + " ${DEFAULT-VALUE})")
  int recordSize = SIZE_RECORD;

  @Option(names = "--queries", description = "queries timed per preset (default:"
      + " ${DEFAULT-VALUE})")
  int queries = 2;

  @Option(names = "--large-mib", description = "database of 30 KiB records measured (default:"
      + " ${DEFAULT-VALUE})")
  long largeMib = 64;

  @Option(names = "--write", description = "a file whose table between the markers is"
      + " replaced")
  Path write;

  @Option(names = "--no-measure", negatable = false, description = "sizes and estimates only")
  boolean noMeasure;

  /** The command line as given (echoed into the table). */
  private String[] args = new String[0];

  public static void main(String[] args) {
    ParamTable t = new ParamTable();
    t.args = args.clone();
    System.exit(new CommandLine(t).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    boolean measure = !noMeasure;
    List<Row> rows = new ArrayList<>();
    List<Measurement> ms = measure ? new ArrayList<>() : null;
    boolean ok = true;
    for (Params p : productionPresets()) {
      rows.add(row(p));
      if (measure) {
        System.err.printf(Locale.ROOT, "measuring %s at %d MiB ...%n", p.id(), mib);
        Measurement m = measure(p, mib, recordSize, queries, largeMib);
        ms.add(m);
        ok &= m.correct() && (m.large() == null || m.large().correct());
        System.gc();
      }
    }
    StringBuilder cmd = new StringBuilder("./pir java " + ParamTable.class.getName());
    for (String a : args) {
      cmd.append(' ').append(a);
    }
    String table = markdown(rows, ms, mib, recordSize, environment(cmd.toString()));
    System.out.print(table);
    if (write != null) {
      String text = Files.readString(write);
      Files.writeString(write, replaceBetweenMarkers(text, table));
      System.err.println("wrote the table into " + write);
    }
    return ok ? 0 : 1;
  }
}
