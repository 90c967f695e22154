package org.jpir.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jpir.bench.SimdData.Cell;

/**
 * What the SIMD study's report concludes from its {@link SimdData}, as numbers: speedups with
 * bootstrap intervals, Cliff's delta and Mann-Whitney p per comparison of two variants, the
 * sample-size bar, the fork-to-fork spread, the layout ratios, the machine ceilings and the
 * memory-or-compute classification of a bytes-and-flops model. No Markdown here.
 */
final class SimdComparisons {
  /** Two variants compared; speedup = median(baseline) / median(candidate). */
  record Comparison(String name, String baseline, String candidate, String meaning) {}

  /** The decomposition of the speedup, compiler by compiler. */
  static final List<Comparison> DECOMPOSITION = List.of(
      new Comparison("C2 over interpreter", "interp", "c2", "what the JIT compilers give at all"),
      new Comparison("C2 over C1", "c1", "c2",
          "what C2's optimizations give over the quick compiler"),
      new Comparison("auto-vectorization (C2 over C2 -SuperWord)", "c2-nosw", "c2",
          "what C2's auto-vectorizer adds to the scalar reference"),
      new Comparison("Vector API over C2 scalar", "c2", "panama",
          "what hand-written SIMD adds over the best scalar code"),
      new Comparison("Vector API over C2 -SuperWord", "c2-nosw", "panama",
          "hand-written SIMD against scalar code with no vectorization at all"));
  /** Java 17 against Java 25. */
  static final List<Comparison> JDK = List.of(
      new Comparison("Java 25 over 17, scalar reference (C2)", "c2-jdk17", "c2", ""),
      new Comparison("Java 25 over 17, Vector API", "panama-jdk17", "panama", ""),
      new Comparison("Vector API over C2 scalar on Java 17", "c2-jdk17", "panama-jdk17", ""));

  /** The study's bar, per comparison: at least 2000 observations from at least 10 forks. */
  static final int BAR_OBS = 2000;
  static final int BAR_FORKS = 10;
  /**
   * Cells whose per-fork medians differ by more than 1.5x: the JIT state of a fork (what was
   * compiled, when, with which profile) or the machine changed the result of whole forks.
   */
  static final double SPREAD = 1.5;
  /** L3 size assumed when a raw directory does not record one. */
  static final long DEFAULT_L3 = 32L << 20;

  /** One comparison at one benchmark point. */
  record Speedup(Comparison cmp, String key, Cell base, Cell cand, double ratio, double lo,
      double hi, double delta, double p) {}

  /** The sample-size bar: comparisons meeting it, all comparisons, the keys below it. */
  record SampleSizes(int met, int total, Map<String, String> below) {}

  /** A machine ceiling: its value (GB/s or GFLOP/s) with the 95% CI. */
  record Ceiling(String method, double value, double lo, double hi) {}

  /** A cell whose slowest fork's median is more than {@link #SPREAD} times its fastest's. */
  record Spread(Cell cell, double fastest, double slowest, int slowForks) {}

  /** The three layouts of one (variant, shape); a ratio is {ratio, lo, hi} or null. */
  record LayoutRow(String variant, String shape, Cell dft, Cell pvec, Cell multi,
      double[] dftOverPvec, double[] pvecOverMulti) {}

  /**
   * The bytes-and-flops model of one cell against the ceilings: rates, their percentages of the
   * streaming read and of the peak FMA, and the class.
   */
  record Bound(Cell cell, String variant, String key, double[] model, double gbs,
      double gflops, double pctStream, double pctPeak, String bound) {}

  final SimdData data;
  /** Comparison name -> its speedups, for the comparisons with at least one point. */
  final Map<String, List<Speedup>> speedups = new LinkedHashMap<>();
  final SampleSizes sampleSizes;
  final List<Ceiling> ceilings = new ArrayList<>();
  /** The chains of the run's {@code peakFma} loop ({@link SimdData#fmaChains}). */
  final int fmaChains;
  final double streamGbs;
  final double peakGflops;
  /** Cells with 3 or more forks (those the spread is judged on). */
  final int spreadCells;
  final List<Spread> spreads = new ArrayList<>();
  final List<LayoutRow> layout = new ArrayList<>();
  /** The L3 size in bytes, and whether the run recorded it. */
  final long l3;
  final boolean l3Recorded;
  /** Peak FMA over streaming read, flop/byte; NaN without ceilings. */
  final double balance;
  final List<Bound> bounds = new ArrayList<>();

  SimdComparisons(SimdData data) {
    this.data = data;
    fmaChains = SimdData.fmaChains(data.env);
    for (List<Comparison> group : List.of(DECOMPOSITION, JDK)) {
      for (Comparison c : group) {
        List<Speedup> s = compare(c);
        if (!s.isEmpty()) {
          speedups.put(c.name(), s);
        }
      }
    }
    sampleSizes = sampleSizes();
    double stream = Double.NaN;
    double peak = Double.NaN;
    for (Map<String, Cell> m : data.table.values()) {
      Cell c = m.get("machine");
      if (c == null) {
        continue;
      }
      double amount = c.o.method().equals("streamRead") ? MachineBench.STREAM_BYTES
          : c.o.method().equals("peakFma") ? MachineBench.peakFmaFlops(fmaChains) : 0;
      if (amount > 0) {
        Ceiling k = new Ceiling(c.o.method(), amount / c.median, amount / c.ci[1],
            amount / c.ci[0]);
        ceilings.add(k);
        if (c.o.method().equals("streamRead")) {
          stream = k.value();
        } else {
          peak = k.value();
        }
      }
    }
    streamGbs = stream;
    peakGflops = peak;
    spreadCells = forkSpread();
    layout();
    l3Recorded = data.env.has("l3Bytes");
    l3 = l3Recorded ? data.env.get("l3Bytes").getAsLong() : DEFAULT_L3;
    balance = peakGflops / streamGbs;
    if (!Double.isNaN(balance)) {
      bounds();
    }
  }

  private List<Speedup> compare(Comparison cmp) {
    List<Speedup> out = new ArrayList<>();
    for (Map.Entry<String, Map<String, Cell>> e : data.table.entrySet()) {
      Cell b = e.getValue().get(cmp.baseline());
      Cell c = e.getValue().get(cmp.candidate());
      if (b == null || c == null) {
        continue;
      }
      double[] ci = Stats.bootstrapRatioCi(b.ns, c.ns, 0.95, SimdData.RESAMPLES, 7);
      NonParametric.MannWhitney mw = NonParametric.mannWhitney(b.ns, c.ns);
      out.add(new Speedup(cmp, e.getKey(), b, c, b.median / c.median, ci[0], ci[1], mw.delta(),
          mw.p()));
    }
    return out;
  }

  private SampleSizes sampleSizes() {
    int total = 0;
    int met = 0;
    Map<String, String> below = new LinkedHashMap<>();
    List<Comparison> all = new ArrayList<>(DECOMPOSITION);
    all.addAll(JDK);
    for (Map.Entry<String, Map<String, Cell>> e : data.table.entrySet()) {
      for (Comparison cmp : all) {
        Cell b = e.getValue().get(cmp.baseline());
        Cell c = e.getValue().get(cmp.candidate());
        if (b == null || c == null) {
          continue;
        }
        total++;
        int n = Math.min(b.ns.length, c.ns.length);
        int f = Math.min(b.o.forks().length, c.o.forks().length);
        if (n >= BAR_OBS && f >= BAR_FORKS) {
          met++;
        } else {
          below.putIfAbsent(e.getKey(), n + " obs from " + f + " forks");
        }
      }
    }
    return new SampleSizes(met, total, below);
  }

  private int forkSpread() {
    int cells = 0;
    for (Map<String, Cell> m : data.table.values()) {
      for (Cell c : m.values()) {
        if (c.o.variant().equals("machine") || c.o.forks().length < 3) {
          continue;
        }
        cells++;
        double f = JmhResults.secondsPerUnit(c.o.unit()) * 1e9;
        double[] meds = new double[c.o.forks().length];
        for (int i = 0; i < meds.length; i++) {
          meds[i] = Stats.median(c.o.forks()[i]) * f;
        }
        double fastest = Arrays.stream(meds).min().getAsDouble();
        double slowest = Arrays.stream(meds).max().getAsDouble();
        if (slowest / fastest > SPREAD) {
          int slow = (int) Arrays.stream(meds).filter(x -> x > SPREAD * fastest).count();
          spreads.add(new Spread(c, fastest, slowest, slow));
        }
      }
    }
    return cells;
  }

  private void layout() {
    Set<String> shapes = new LinkedHashSet<>();
    for (Map<String, Cell> m : data.table.values()) {
      for (Cell c : m.values()) {
        if (c.o.method().equals("applyDftToDft")) {
          shapes.add(c.o.params());
        }
      }
    }
    for (String v : SimdData.TIME_VARIANTS) {
      for (String s : shapes) {
        Cell d = data.get("applyDftToDft " + s, v);
        Cell p = data.get("applyPvecToDft " + s, v);
        Cell m = data.get("multiColumn " + s, v);
        if (d != null || p != null || m != null) {
          layout.add(new LayoutRow(v, s, d, p, m, ratio(d, p), ratio(p, m)));
        }
      }
    }
  }

  private static double[] ratio(Cell a, Cell b) {
    if (a == null || b == null) {
      return null;
    }
    double[] ci = Stats.bootstrapRatioCi(a.ns, b.ns, 0.95, SimdData.RESAMPLES, 11);
    return new double[] {a.median / b.median, ci[0], ci[1]};
  }

  private void bounds() {
    for (Map.Entry<String, Map<String, Cell>> e : data.table.entrySet()) {
      for (String v : List.of("c2", "panama")) {
        Cell c = e.getValue().get(v);
        double[] mdl = c == null ? null : model(c.o.method(), c.o.params());
        if (mdl == null) {
          continue;
        }
        double gbs = mdl[0] / c.median;
        double gfl = mdl[1] / c.median;
        String bound;
        if (mdl[2] <= l3 / 2) {
          bound = mdl[1] == 0 ? "in cache: data movement" : "in cache: compute / latency";
        } else if (mdl[1] / mdl[0] < balance) {
          bound = gbs / streamGbs >= 0.5 ? "memory (near the ceiling)" : "memory (below ceiling)";
        } else {
          bound = gfl / peakGflops >= 0.5 ? "compute (near peak)" : "compute (below peak)";
        }
        bounds.add(new Bound(c, v, e.getKey(), mdl, gbs, gfl, gbs / streamGbs * 100,
            gfl / peakGflops * 100, bound));
      }
    }
  }

  /**
   * The speedups of comparison {@code name} whose CI's lower end lies above {@code threshold}
   * ({@code above}) or at or below it; null when the comparison was not measured.
   */
  List<Speedup> beyond(String name, double threshold, boolean above) {
    List<Speedup> s = speedups.get(name);
    return s == null ? null
        : s.stream().filter(r -> above ? r.lo() > threshold : r.lo() <= threshold).toList();
  }

  /**
   * Bytes moved and flops per call of an operation, from its parameters: {bytes, flops,
   * working-set bytes}; null for composite operations.
   */
  static double[] model(String method, String params) {
    Map<String, String> p = new HashMap<>();
    for (String kv : params.split(" ")) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        p.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    if (p.containsKey("n")) {
      double n = Double.parseDouble(p.get("n"));
      double fftFlops = fftFlops(n);
      switch (method) {
        case "fft":
        case "ifft":
          return new double[] {16 * n, fftFlops, 8 * n};
        case "fromZnx":
          return new double[] {16 * n, 0, 16 * n};
        case "toZnx":
          return new double[] {16 * n, n, 16 * n};
        case "reim4Extract":
          return new double[] {8 * 8 * n, 0, 8 * 8 * n};
        case "normalize":
          return new double[] {2 * SimdPolyBench.LIMBS * 8 * n, 0,
              2 * SimdPolyBench.LIMBS * 8 * n};
        default:
          return null;
      }
    }
    if (p.containsKey("shape")) {
      String[] s = p.get("shape").split(":");
      double n = Double.parseDouble(s[0]);
      double nrows = Double.parseDouble(s[1]);
      double ncols = Double.parseDouble(s[2]);
      double pmat = 8 * n * nrows * ncols;
      double macFlops = 4 * n * nrows * ncols; // 8 flops per complex MAC, N/2 slots
      double fftFlops = fftFlops(n);
      switch (method) {
        case "applyDftToDft":
        case "applyPvecToDft":
          return new double[] {pmat + 8 * n * nrows, macFlops, pmat};
        case "multiColumn":
          return new double[] {pmat / SimdVmpBench.COLUMNS + 8 * n * nrows, macFlops,
              pmat + SimdVmpBench.COLUMNS * 8 * n * nrows};
        case "pmatPrepare": // per row
          return new double[] {pmat / nrows, ncols * fftFlops, pmat};
        case "pvecPrepare":
          return new double[] {2 * 8 * n * nrows, nrows * fftFlops, 2 * 8 * n * nrows};
        default:
          return null;
      }
    }
    return null;
  }

  /** The conventional 5 m log2 m flops of an FFT of m = N/2 complex points. */
  private static double fftFlops(double n) {
    double m = n / 2;
    return 5 * m * (Math.log(m) / Math.log(2));
  }
}
