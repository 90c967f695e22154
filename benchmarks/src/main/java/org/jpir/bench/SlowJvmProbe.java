package org.jpir.bench;

import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Pvec;
import org.jpir.vmp.Vmp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;
import sun.misc.Unsafe;

/**
 * Diagnostic for the slow-JVM state (see {@code benchmarks/SLOW-JVM.md}): one JVM times phase 1
 * of a synthetic {@code mib} MiB database ({@link PirServer#phase1Only}) {@code rounds} times,
 * each round followed by a fixed scalar loop that measures the CPU share this process gets on a
 * shared machine, and prints one {@code RESULT} line: the median phase-1 time, the median
 * calibration time, their ratio, and where the large arrays start (address mod 64 and mod 4096,
 * read with {@code sun.misc.Unsafe}; the decoding is checked on two arrays allocated one after
 * the other), the bytes allocated and the page faults per call, and the same pass with its
 * scratch allocated once ({@code reused_*}).
 * Run one JVM per measurement ({@code benchmarks/slow-jvm.sh} starts ten).
 */
@Command(name = "SlowJvmProbe", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class,
    description = "Phase 1 in this JVM: times, allocation and page faults per call.")
public final class SlowJvmProbe implements Callable<Integer> {
  @Parameters(index = "0", arity = "0..1", description = "database MiB (default: ${DEFAULT-VALUE})")
  int mib = 64;

  @Parameters(index = "1", arity = "0..1", description = "timed calls (default: ${DEFAULT-VALUE})")
  int rounds = 40;

  SlowJvmProbe() {}

  /** Entry point; arguments above. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new SlowJvmProbe()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Params p = Presets.ONIONPIR_4096;
    int recordSize = p.bytesPerPolynomial();
    long count = ((long) mib << 20) / recordSize;
    SyntheticRecords src = new SyntheticRecords(count, recordSize, 11);
    Geometry g = Geometry.choose(p, count, recordSize, 1024);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    SecureRandom random = new SecureRandom();
    PirClient client = new PirClient(p, g, SecretKey.generate(p, random), random);
    PreparedQuery q = new QueryExpander(p).expand(client.query(count / 3), g);
    PirServer server = new PirServer(p);
    PreparedQuery[] qs = {q};
    Addresses addr = Addresses.create();
    ReusedPhase1 reuse = new ReusedPhase1(p, g, db, q);
    long sink = 0;
    // phase 1 first (as when it is the first benchmark of a JVM), then whole answers, then
    // phase 1 again; each round times PirServer.phase1Only (scratch allocated per call), the
    // same pass with scratch allocated once, and the calibration loop
    timePhase1(server, reuse, db, qs, rounds / 2); // warm-up, as a benchmark's warm-up
    double[] first = timePhase1(server, reuse, db, qs, rounds);
    double[] ans = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      sink += server.answer(db, q, null).hashCode();
      ans[r] = (System.nanoTime() - t0) / 1e6;
    }
    double[] after = timePhase1(server, reuse, db, qs, rounds);
    double mp = Stats.median(Arrays.copyOfRange(first, 0, rounds));
    double ma = Stats.median(Arrays.copyOfRange(after, 0, rounds));
    double mr = Stats.median(Arrays.copyOfRange(first, rounds, 2 * rounds));
    double mra = Stats.median(Arrays.copyOfRange(after, rounds, 2 * rounds));
    double mc = Stats.median(Arrays.copyOfRange(first, 2 * rounds, 3 * rounds));
    double ms = Stats.median(Arrays.copyOfRange(first, 3 * rounds, 4 * rounds));
    double lp = lowDecile(Arrays.copyOfRange(first, 0, rounds));
    double lr = lowDecile(Arrays.copyOfRange(first, rounds, 2 * rounds));
    Pvec[] cols = db.plane(0);
    StringBuilder pv = new StringBuilder();
    for (int c = 0; c < Math.min(cols.length, 8); c++) {
      pv.append(c == 0 ? "" : ",").append(addr.describe(backing(cols[c])));
    }
    System.out.printf(Locale.ROOT,
        "RESULT mib=%d rows=%d cols=%d phase1_ms=%.3f reused_ms=%.3f answer_ms=%.3f"
            + " phase1_after_ms=%.3f reused_after_ms=%.3f first/after=%.3f calib_ms=%.3f"
            + " ratio=%.3f reused_ratio=%.3f alloc_kb=%.0f reused_alloc_kb=%.0f faults_first=%.0f"
            + " faults_after=%.0f reused_faults=%.0f phase1_p10_ms=%.3f reused_p10_ms=%.3f"
            + " stream_ms=%.3f stream_ratio=%.3f pmat=%s pvec=%s sink=%d%n",
        mib, g.rows(), g.cols(), mp, mr, Stats.median(ans), ma, mra, mp / ma, mc, mp / mc, mr / mc,
        first[4 * rounds] / 1024, first[4 * rounds + 2] / 1024, first[4 * rounds + 1],
        after[4 * rounds + 1], first[4 * rounds + 3], lp, lr, ms, mp / ms,
        addr.describe(backing(q.phase1())), pv, sink & 1);
    return 0;
  }

  /**
   * Times {@code rounds} rounds of: {@link PirServer#phase1Only}, the reused-scratch pass, the
   * calibration loop, the memory calibration ({@link #stream}). Returns their times (ms, {@code
   * rounds} each, in that order), then bytes
   * allocated and page faults per phase1Only call, then the same two per reused call.
   */
  private static double[] timePhase1(PirServer server, ReusedPhase1 reuse, PreparedDatabase db,
      PreparedQuery[] qs, int rounds) {
    double[] t = new double[4 * rounds + 4];
    long sink = 0;
    long alloc = 0;
    long faults = 0;
    long ralloc = 0;
    long rfaults = 0;
    for (int r = 0; r < rounds; r++) {
      long a0 = allocated();
      long f0 = minorFaults();
      long t0 = System.nanoTime();
      sink += server.phase1Only(db, qs);
      long t1 = System.nanoTime();
      long a1 = allocated();
      long f1 = minorFaults();
      sink += reuse.run();
      long t2 = System.nanoTime();
      ralloc += allocated() - a1;
      rfaults += minorFaults() - f1;
      alloc += a1 - a0;
      faults += f1 - f0;
      sink += calibrate();
      long t3 = System.nanoTime();
      sink += (long) stream();
      t[3 * rounds + r] = (System.nanoTime() - t3) / 1e6;
      t[r] = (t1 - t0) / 1e6;
      t[rounds + r] = (t2 - t1) / 1e6;
      t[2 * rounds + r] = (t3 - t2) / 1e6 + (sink == 42 ? 1e-9 : 0);
    }
    t[4 * rounds] = alloc / (double) rounds;
    t[4 * rounds + 1] = faults / (double) rounds;
    t[4 * rounds + 2] = ralloc / (double) rounds;
    t[4 * rounds + 3] = rfaults / (double) rounds;
    return t;
  }

  /**
   * Phase 1 as {@link PirServer#phase1Only} computes it (the batched pass over chunks of
   * columns, then each column's GLWE from its transforms) with every scratch array and output
   * allocated once, in the constructor: the experiment for the fix described in SLOW-JVM.md.
   */
  static final class ReusedPhase1 {
    private final PreparedDatabase db;
    private final Pmat[] pm;
    private final int chunk;
    private final double[] tmp;
    private final double[][][] res;
    private final double[][][] last;
    private final Glwe[] out;
    private final GlweOps ops;
    private final Pvec[][] parts;

    ReusedPhase1(Params p, Geometry g, PreparedDatabase db, PreparedQuery q) {
      this.db = db;
      this.pm = new Pmat[] {q.phase1()};
      int cols = db.columnCount();
      int top = cols <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(cols - 1);
      chunk = Math.min(PirServer.CHUNK, 1 << top);
      int nrows = g.rows() * p.plaintextLimbs();
      tmp = new double[Vmp.applyPvecBatchTmpLength(1, p.n(), nrows, p.glweColumns(), chunk)];
      res = new double[1][chunk][p.glweColumns() * p.n()];
      int rest = cols % chunk;
      last = rest == 0 ? res : new double[][][] {Arrays.copyOf(res[0], rest)};
      out = new Glwe[chunk];
      for (int c = 0; c < chunk; c++) {
        out[c] = new Glwe(p.n(), p.glweLimbs());
      }
      ops = new GlweOps(p);
      parts = new Pvec[(cols + chunk - 1) / chunk][];
      for (int i = 0; i < parts.length; i++) {
        parts[i] = Arrays.copyOfRange(db.plane(0), i * chunk, Math.min(cols, (i + 1) * chunk));
      }
    }

    long run() {
      long produced = 0;
      for (Pvec[] part : parts) {
        double[][][] r = part.length == chunk ? res : last;
        Vmp.get().applyPvecBatch(pm, part, r, tmp);
        for (int c = 0; c < part.length; c++) {
          ops.fromTransforms(r[0][c], out[c]);
        }
        produced += part.length;
      }
      return produced + db.columnCount() * 0L;
    }
  }

  /** Minor page faults of this process so far (field 10 of /proc/self/stat), or -1. */
  private static long minorFaults() {
    try {
      String st = Files.readString(Path.of("/proc/self/stat"));
      String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[7]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Bytes allocated so far by this thread (HotSpot's ThreadMXBean extension). */
  private static long allocated() {
    return ((ThreadMXBean) ManagementFactory
        .getThreadMXBean()).getCurrentThreadAllocatedBytes();
  }

  /**
   * The 10th percentile: on a shared machine other processes only ever add time, so a low
   * percentile tracks this JVM's own speed more closely than the median.
   */
  private static double lowDecile(double[] x) {
    return Stats.quantile(x, 0.1);
  }

  /** A fixed scalar integer loop (no memory traffic), about 3 ms. */
  /** 256 MiB read by the memory calibration: well past any L3 of the machines here. */
  private static final double[] STREAM = new double[32 << 20];

  static {
    Arrays.fill(STREAM, 1.0);
  }

  /**
   * The memory calibration: one read of {@link #STREAM} (4 chains), so that a fork whose phase
   * 1 is slow because the host's memory bandwidth is (a noisy neighbour) is told apart from a
   * JVM in a slow state by the ratio of the two (phase 1 at these sizes streams its database).
   */
  private static double stream() {
    double a = 0;
    double b = 0;
    double c = 0;
    double d = 0;
    final double[] s = STREAM;
    for (int i = 0; i < s.length; i += 4) {
      a += s[i];
      b += s[i + 1];
      c += s[i + 2];
      d += s[i + 3];
    }
    return a + b + c + d;
  }

  private static long calibrate() {
    long h = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < 5_000_000; i++) {
      h ^= h >>> 29;
      h *= 0xBF58476D1CE4E5B9L;
      h += i;
    }
    return h;
  }

  /** Array start addresses via sun.misc.Unsafe (compressed or plain oops); diagnostic only. */
  /** The backing array of a PMAT or PVEC (read by reflection: its address is what is probed). */
  static double[] backing(Object layout) throws ReflectiveOperationException {
    Field f = layout.getClass().getDeclaredField("data");
    f.setAccessible(true);
    return (double[]) f.get(layout);
  }

  static final class Addresses {
    private final Unsafe u;
    private final int shift;
    private final boolean compressed;
    private final long base;

    private Addresses(Unsafe u, boolean compressed, int shift, long base) {
      this.u = u;
      this.compressed = compressed;
      this.shift = shift;
      this.base = base;
    }

    static Addresses create() throws ReflectiveOperationException {
      Field f = Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      Unsafe u = (Unsafe) f.get(null);
      boolean compressed = Unsafe.ARRAY_OBJECT_INDEX_SCALE == 4;
      // try the decodings HotSpot uses (unscaled, zero based with shift 3..6) and keep the one
      // under which two arrays allocated one after the other lie exactly one array apart (no
      // memory is read through a guessed address)
      for (int attempt = 0; attempt < 10; attempt++) {
        double[] first = new double[64];
        double[] second = new double[64];
        for (int shift : compressed ? new int[] {0, 3, 4, 5, 6} : new int[] {0}) {
          Addresses a = new Addresses(u, compressed, shift, 0);
          long gap = a.address(second) - a.address(first);
          long size = Unsafe.ARRAY_DOUBLE_BASE_OFFSET + 8L * first.length;
          if (gap >= size && gap < size + 64 && a.address(first) % 8 == 0) {
            return a;
          }
        }
      }
      throw new IllegalStateException("cannot decode object addresses in this JVM");
    }

    long address(Object o) {
      Object[] holder = {o};
      long raw = compressed
          ? u.getInt(holder, (long) Unsafe.ARRAY_OBJECT_BASE_OFFSET) & 0xFFFFFFFFL
          : u.getLong(holder, (long) Unsafe.ARRAY_OBJECT_BASE_OFFSET);
      return base + (raw << shift);
    }

    /** "data mod 64 / data mod 4096" of a double[]'s first element. */
    String describe(double[] a) {
      long d = address(a) + Unsafe.ARRAY_DOUBLE_BASE_OFFSET;
      return (d & 63) + "/" + (d & 4095);
    }
  }
}
