package org.jpir.bench;

import java.util.Arrays;
import java.util.Locale;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;
import org.jpir.vmp.CpuInfo;

/**
 * What the per-row matrix-panel traffic of the phase-1 kernels costs one thread's database
 * stream. One array of {@code gb} GB of doubles is read as rows of 6 vectors (48 doubles, the 6
 * database columns of a four-product call) in five loops, each timed in turn in every round:
 * {@code add} (loads and adds only), {@code fma12} (2 FMAs per loaded vector against two
 * vectors held in registers), {@code four} (4 FMAs per loaded vector against a panel row of 2
 * columns loaded per row and its halves swapped, as {@code Four512.f6x2} does; panel of 448
 * rows, 56 KiB, read from L2 as the pass's is), {@code fourL1} (the same with a panel of 128
 * rows, 16 KiB, that stays in L1), {@code fourRegs} (the same 24 FMAs per row with the panel row held in
 * registers) and {@code fourLoads} (the swapped halves loaded from a 112 KiB panel instead of
 * shuffled: 4 panel loads per row). 512-bit vectors. Prints one markdown table of the median
 * rates with the CPU, JDK and revision. Each loop is its own straight-line method, as the
 * kernels are: a shared loop with the panel's source as a parameter, and the accumulators summed
 * through an array, were each compiled with boxed vectors and ran 6-17x slower (tried while
 * writing this class, not kept).
 *
 * <p>Usage: {@code PanelTraffic [gb] [rounds]} (default 4 GB, 7 rounds; give the JVM the heap).
 */
public final class PanelTraffic {
  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_512;
  private static final VectorShuffle<Double> SWAP =
      VectorShuffle.fromValues(S, 4, 5, 6, 7, 0, 1, 2, 3);
  private static final int ROWS = 448;
  private static final String[] MODES =
      {"add", "fma12", "four", "fourL1", "fourRegs", "fourLoads"};
  private static final String[] WHAT = {
      "loads and adds only",
      "2 FMAs per loaded vector, operands in registers",
      "4 FMAs per loaded vector, 2 panel loads + 2 swaps per row (the kernel's mix)",
      "as four, a panel of 128 rows (16 KiB, stays in L1)",
      "4 FMAs per loaded vector, panel row in registers",
      "4 FMAs per loaded vector, 4 panel loads per row, no swaps"};
  private static volatile double sink;

  private PanelTraffic() {}

  /** Entry point. */
  public static void main(String[] args) {
    double gbArg = args.length > 0 ? Double.parseDouble(args[0]) : 4;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    if (gbArg < 0.1 || gbArg > 15 || rounds < 1) {
      throw new IllegalArgumentException("need 0.1 <= gb <= 15 and at least 1 round");
    }
    int n = (int) (gbArg * 1e9 / 8 / 48) * 48;
    double[] all = new double[n];
    Arrays.fill(all, 0.5);
    double[] v = new double[ROWS * 32];
    for (int i = 0; i < v.length; i++) {
      v[i] = 1e-3 * (i % 7);
    }
    double gb = n * 8.0 / 1e9;
    double[][] ms = new double[MODES.length][rounds];
    for (int r = -2; r < rounds; r++) {
      for (int m = 0; m < MODES.length; m++) {
        long t0 = System.nanoTime();
        sink += run(m, all, v);
        if (r >= 0) {
          ms[m][r] = (System.nanoTime() - t0) / 1e6;
        }
      }
    }
    CpuInfo cpu = CpuInfo.get();
    System.out.printf(Locale.ROOT, "PanelTraffic: %.2f GB, rows of 6 x 512-bit vectors, %d rounds;"
        + " %s; L1d %d KiB, L2 %d KiB; %s; revision %s%n%n", gb, rounds, Environment.cpuModel(),
        cpu.l1dBytes() >> 10, cpu.l2Bytes() >> 10, Environment.jdk(), Environment.gitRevision());
    System.out.println("| loop | what | median ms | GB/s read (min-max) | time / add |");
    System.out.println("|---|---|---:|---:|---:|");
    double add = Stats.median(ms[0]);
    for (int m = 0; m < MODES.length; m++) {
      double t = Stats.median(ms[m]);
      double slowest = Arrays.stream(ms[m]).max().getAsDouble();
      double fastest = Arrays.stream(ms[m]).min().getAsDouble();
      System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f (%.1f-%.1f) | %.2f |%n", MODES[m],
          WHAT[m], t, gb / (t / 1e3), gb / (slowest / 1e3), gb / (fastest / 1e3), t / add);
    }
  }

  private static double run(int mode, double[] all, double[] v) {
    switch (mode) {
      case 0:
        return add(all);
      case 1:
        return fma12(all, v);
      case 2:
        return four(all, v, ROWS);
      case 3:
        return four(all, v, 128);
      case 4:
        return fourRegs(all, v);
      default:
        return fourLoads(all, v);
    }
  }

  private static double add(double[] all) {
    DoubleVector a0 = DoubleVector.zero(S);
    DoubleVector a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
    for (int o = 0; o + 48 <= all.length; o += 48) {
      a0 = a0.add(DoubleVector.fromArray(S, all, o));
      a1 = a1.add(DoubleVector.fromArray(S, all, o + 8));
      a2 = a2.add(DoubleVector.fromArray(S, all, o + 16));
      a3 = a3.add(DoubleVector.fromArray(S, all, o + 24));
      a4 = a4.add(DoubleVector.fromArray(S, all, o + 32));
      a5 = a5.add(DoubleVector.fromArray(S, all, o + 40));
    }
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).reduceLanes(VectorOperators.ADD);
  }

  private static double fma12(double[] all, double[] v) {
    DoubleVector a0 = DoubleVector.zero(S);
    DoubleVector a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
    DoubleVector b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0;
    DoubleVector p = DoubleVector.fromArray(S, v, 0);
    DoubleVector q = DoubleVector.fromArray(S, v, 8);
    for (int o = 0; o + 48 <= all.length; o += 48) {
      DoubleVector x0 = DoubleVector.fromArray(S, all, o);
      DoubleVector x1 = DoubleVector.fromArray(S, all, o + 8);
      DoubleVector x2 = DoubleVector.fromArray(S, all, o + 16);
      DoubleVector x3 = DoubleVector.fromArray(S, all, o + 24);
      DoubleVector x4 = DoubleVector.fromArray(S, all, o + 32);
      DoubleVector x5 = DoubleVector.fromArray(S, all, o + 40);
      a0 = x0.fma(p, a0);
      b0 = x0.fma(q, b0);
      a1 = x1.fma(p, a1);
      b1 = x1.fma(q, b1);
      a2 = x2.fma(p, a2);
      b2 = x2.fma(q, b2);
      a3 = x3.fma(p, a3);
      b3 = x3.fma(q, b3);
      a4 = x4.fma(p, a4);
      b4 = x4.fma(q, b4);
      a5 = x5.fma(p, a5);
      b5 = x5.fma(q, b5);
    }
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(b0).add(b1).add(b2).add(b3).add(b4)
        .add(b5).reduceLanes(VectorOperators.ADD);
  }

  private static double four(double[] all, double[] v, int panelRows) {
    DoubleVector a0 = DoubleVector.zero(S);
    DoubleVector a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
    DoubleVector b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0;
    DoubleVector c0 = a0, c1 = a0, c2 = a0, c3 = a0, c4 = a0, c5 = a0;
    DoubleVector d0 = a0, d1 = a0, d2 = a0, d3 = a0, d4 = a0, d5 = a0;
    int r = 0;
    for (int o = 0; o + 48 <= all.length; o += 48) {
      int vr = 16 * r;
      if (++r == panelRows) {
        r = 0;
      }
      DoubleVector p0 = DoubleVector.fromArray(S, v, vr);
      DoubleVector q0 = p0.rearrange(SWAP);
      DoubleVector p1 = DoubleVector.fromArray(S, v, vr + 8);
      DoubleVector q1 = p1.rearrange(SWAP);
      DoubleVector x = DoubleVector.fromArray(S, all, o);
      a0 = x.fma(p0, a0); b0 = x.fma(q0, b0); c0 = x.fma(p1, c0); d0 = x.fma(q1, d0);
      x = DoubleVector.fromArray(S, all, o + 8);
      a1 = x.fma(p0, a1); b1 = x.fma(q0, b1); c1 = x.fma(p1, c1); d1 = x.fma(q1, d1);
      x = DoubleVector.fromArray(S, all, o + 16);
      a2 = x.fma(p0, a2); b2 = x.fma(q0, b2); c2 = x.fma(p1, c2); d2 = x.fma(q1, d2);
      x = DoubleVector.fromArray(S, all, o + 24);
      a3 = x.fma(p0, a3); b3 = x.fma(q0, b3); c3 = x.fma(p1, c3); d3 = x.fma(q1, d3);
      x = DoubleVector.fromArray(S, all, o + 32);
      a4 = x.fma(p0, a4); b4 = x.fma(q0, b4); c4 = x.fma(p1, c4); d4 = x.fma(q1, d4);
      x = DoubleVector.fromArray(S, all, o + 40);
      a5 = x.fma(p0, a5); b5 = x.fma(q0, b5); c5 = x.fma(p1, c5); d5 = x.fma(q1, d5);
    }
    // explicit adds: passing the accumulators as an array would box them in the loop
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(b0).add(b1).add(b2).add(b3).add(b4)
        .add(b5).add(c0).add(c1).add(c2).add(c3).add(c4).add(c5).add(d0).add(d1).add(d2)
        .add(d3).add(d4).add(d5).reduceLanes(VectorOperators.ADD);
  }

  private static double fourRegs(double[] all, double[] v) {
    DoubleVector a0 = DoubleVector.zero(S);
    DoubleVector a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
    DoubleVector b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0;
    DoubleVector c0 = a0, c1 = a0, c2 = a0, c3 = a0, c4 = a0, c5 = a0;
    DoubleVector d0 = a0, d1 = a0, d2 = a0, d3 = a0, d4 = a0, d5 = a0;
    DoubleVector p0 = DoubleVector.fromArray(S, v, 0);
    DoubleVector q0 = p0.rearrange(SWAP);
    DoubleVector p1 = DoubleVector.fromArray(S, v, 8);
    DoubleVector q1 = p1.rearrange(SWAP);
    for (int o = 0; o + 48 <= all.length; o += 48) {
      DoubleVector x = DoubleVector.fromArray(S, all, o);
      a0 = x.fma(p0, a0); b0 = x.fma(q0, b0); c0 = x.fma(p1, c0); d0 = x.fma(q1, d0);
      x = DoubleVector.fromArray(S, all, o + 8);
      a1 = x.fma(p0, a1); b1 = x.fma(q0, b1); c1 = x.fma(p1, c1); d1 = x.fma(q1, d1);
      x = DoubleVector.fromArray(S, all, o + 16);
      a2 = x.fma(p0, a2); b2 = x.fma(q0, b2); c2 = x.fma(p1, c2); d2 = x.fma(q1, d2);
      x = DoubleVector.fromArray(S, all, o + 24);
      a3 = x.fma(p0, a3); b3 = x.fma(q0, b3); c3 = x.fma(p1, c3); d3 = x.fma(q1, d3);
      x = DoubleVector.fromArray(S, all, o + 32);
      a4 = x.fma(p0, a4); b4 = x.fma(q0, b4); c4 = x.fma(p1, c4); d4 = x.fma(q1, d4);
      x = DoubleVector.fromArray(S, all, o + 40);
      a5 = x.fma(p0, a5); b5 = x.fma(q0, b5); c5 = x.fma(p1, c5); d5 = x.fma(q1, d5);
    }
    // explicit adds: passing the accumulators as an array would box them in the loop
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(b0).add(b1).add(b2).add(b3).add(b4)
        .add(b5).add(c0).add(c1).add(c2).add(c3).add(c4).add(c5).add(d0).add(d1).add(d2)
        .add(d3).add(d4).add(d5).reduceLanes(VectorOperators.ADD);
  }

  private static double fourLoads(double[] all, double[] v) {
    DoubleVector a0 = DoubleVector.zero(S);
    DoubleVector a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
    DoubleVector b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0;
    DoubleVector c0 = a0, c1 = a0, c2 = a0, c3 = a0, c4 = a0, c5 = a0;
    DoubleVector d0 = a0, d1 = a0, d2 = a0, d3 = a0, d4 = a0, d5 = a0;
    int r = 0;
    for (int o = 0; o + 48 <= all.length; o += 48) {
      int vr = 32 * r;
      if (++r == ROWS) {
        r = 0;
      }
      DoubleVector p0 = DoubleVector.fromArray(S, v, vr);
      DoubleVector q0 = DoubleVector.fromArray(S, v, vr + 8);
      DoubleVector p1 = DoubleVector.fromArray(S, v, vr + 16);
      DoubleVector q1 = DoubleVector.fromArray(S, v, vr + 24);
      DoubleVector x = DoubleVector.fromArray(S, all, o);
      a0 = x.fma(p0, a0); b0 = x.fma(q0, b0); c0 = x.fma(p1, c0); d0 = x.fma(q1, d0);
      x = DoubleVector.fromArray(S, all, o + 8);
      a1 = x.fma(p0, a1); b1 = x.fma(q0, b1); c1 = x.fma(p1, c1); d1 = x.fma(q1, d1);
      x = DoubleVector.fromArray(S, all, o + 16);
      a2 = x.fma(p0, a2); b2 = x.fma(q0, b2); c2 = x.fma(p1, c2); d2 = x.fma(q1, d2);
      x = DoubleVector.fromArray(S, all, o + 24);
      a3 = x.fma(p0, a3); b3 = x.fma(q0, b3); c3 = x.fma(p1, c3); d3 = x.fma(q1, d3);
      x = DoubleVector.fromArray(S, all, o + 32);
      a4 = x.fma(p0, a4); b4 = x.fma(q0, b4); c4 = x.fma(p1, c4); d4 = x.fma(q1, d4);
      x = DoubleVector.fromArray(S, all, o + 40);
      a5 = x.fma(p0, a5); b5 = x.fma(q0, b5); c5 = x.fma(p1, c5); d5 = x.fma(q1, d5);
    }
    // explicit adds: passing the accumulators as an array would box them in the loop
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(b0).add(b1).add(b2).add(b3).add(b4)
        .add(b5).add(c0).add(c1).add(c2).add(c3).add(c4).add(c5).add(d0).add(d1).add(d2)
        .add(d3).add(d4).add(d5).reduceLanes(VectorOperators.ADD);
  }
}
