package org.jpir.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.List;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.jpir.vmp.CpuInfo;

/**
 * How far one thread can run arithmetic under a database stream: the phase-1 pass's access
 * order (database columns of {@code 448 x 256} 64-byte rows, block b of column c at doubles
 * {@code [8 * 448 b, 8 * 448 (b + 1))}; per block, groups of 6 columns read row by row) timed
 * with nothing but the loads, with FMAs that use no loaded data, and with the pass's own
 * arithmetic (4 FMAs per loaded vector against 2 panel columns). If the core overlapped them,
 * each would take the time of the loads alone. Prints one markdown table; every mode is timed
 * {@code rounds} times over the same arrays, after a warm-up on a few columns.
 *
 * <p>Two more modes time layouts the pass does not have, with the same arithmetic: {@code
 * kernelGroup} keeps the 6 columns of a group interleaved row by row in one array (column c of
 * the group, block b, row r at doubles {@code ((448 b + r) 6 + c) 8}: one stream instead of six),
 * and {@code kernel40} stores each double as a 40-bit fixed-point integer, its high 32 bits in an
 * int array and its low 8 in a byte array (5 bytes instead of 8, decoded as {@code 256 hi + lo}
 * before the FMAs). They allocate their own copies, so name only the modes that fit the heap.
 *
 * <p>Usage: {@code StreamOverlap [columns] [rounds] [modes]} (default 1172 columns = 8.6 GB, the
 * prepared database of 1 GiB of 3 KiB records at N = 2048; give the JVM that much heap; modes
 * comma-separated, default the first five).
 */
public final class StreamOverlap {
  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
  private static final int ROWS = 448;
  private static final int BLOCKS = 256;
  private static final int LEN = ROWS * BLOCKS * 8;
  private static final int GROUP = 6;
  private static final String[] MODES = {"read", "read6", "read6+12fma", "read6+24fma",
      "kernel", "kernelGroup", "kernel40"};
  private static final String[] WHAT = {
      "one column after another, loads and adds only (the streaming ceiling)",
      "the pass's order (6 columns row by row), loads and adds only",
      "as read6, plus 12 FMAs per row on registers (independent of the loads)",
      "as read6, plus 24 FMAs per row on registers (independent of the loads)",
      "the pass's arithmetic: 4 FMAs per loaded vector, 2 panel columns (24 per row)",
      "as kernel, the 6 columns of a group interleaved row by row in one array",
      "as kernel, 40-bit fixed point: int high and byte low parts, 5 bytes per value"};
  /** kernel40's species: 8 lanes of 512-bit doubles from 256-bit ints and 64-bit bytes. */
  private static final VectorSpecies<Integer> SI = IntVector.SPECIES_256;
  private static final VectorSpecies<Byte> SB = ByteVector.SPECIES_64;

  private final double[][] cols;
  private final double[][] groups;
  private final int[][] hi;
  private final byte[][] lo;
  private final double[] panel = new double[4 * 64 * 8];
  private final DoubleVector scale = DoubleVector.broadcast(S, 256);
  private int ncols;

  private StreamOverlap(int ncols, boolean[] on) {
    boolean plain = false;
    for (int m = 0; m <= 4; m++) {
      plain |= on[m];
    }
    cols = new double[plain ? ncols : 0][];
    for (int c = 0; c < cols.length; c++) {
      cols[c] = new double[LEN];
      for (int i = 0; i < LEN; i += 512) {
        cols[c][i] = c + i; // touch every page
      }
    }
    groups = new double[on[5] ? ncols / GROUP : 0][];
    for (int g = 0; g < groups.length; g++) {
      groups[g] = new double[GROUP * LEN];
      for (int i = 0; i < groups[g].length; i += 512) {
        groups[g][i] = g + i;
      }
    }
    hi = new int[on[6] ? ncols : 0][];
    lo = new byte[on[6] ? ncols : 0][];
    for (int c = 0; c < hi.length; c++) {
      hi[c] = new int[LEN];
      lo[c] = new byte[LEN];
      for (int i = 0; i < LEN; i += 1024) {
        hi[c][i] = c + i;
        lo[c][i] = (byte) i;
      }
    }
    for (int i = 0; i < panel.length; i++) {
      panel[i] = 1 + i * 1e-9;
    }
  }

  /** Entry point. */
  public static void main(String[] args) {
    int ncols = args.length > 0 ? Integer.parseInt(args[0]) : 1172;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    if (ncols < 12 || rounds < 1) {
      throw new IllegalArgumentException("need at least 12 columns and 1 round");
    }
    List<String> names = Arrays.asList(MODES);
    boolean[] on = new boolean[MODES.length];
    for (String m : (args.length > 2 ? args[2] : String.join(",", names.subList(0, 5)))
        .split(",")) {
      int i = names.indexOf(m.trim());
      if (i < 0) {
        throw new IllegalArgumentException("unknown mode '" + m + "': one of " + names);
      }
      on[i] = true;
    }
    if (on[6] && S.length() != SI.length()) {
      throw new IllegalArgumentException("kernel40 needs 512-bit vectors (8 double lanes)");
    }
    StreamOverlap p = new StreamOverlap(ncols, on);
    p.ncols = 12;
    for (int w = 0; w < 150; w++) {
      for (int m = 0; m < MODES.length; m++) {
        if (on[m]) {
          p.run(m);
        }
      }
    }
    p.ncols = ncols;
    double[][] ms = new double[MODES.length][rounds];
    for (int r = 0; r < rounds; r++) {
      for (int m = 0; m < MODES.length; m++) {
        if (!on[m]) {
          continue;
        }
        long t0 = System.nanoTime();
        double s = p.run(m);
        ms[m][r] = (System.nanoTime() - t0) / 1e6 + (s == 42 ? 1e-9 : 0);
      }
    }
    double gb = (double) ncols / GROUP * GROUP * LEN * 8 / 1e9;
    CpuInfo cpu = CpuInfo.get();
    System.out.printf(Locale.ROOT, "StreamOverlap: %d columns (%.2f GB), %d-bit vectors, %d rounds;"
        + " %s; L1d %d KiB, L2 %d KiB; %s; revision %s%n%n", ncols, gb, S.vectorBitSize(), rounds,
        Environment.cpuModel(), cpu.l1dBytes() >> 10, cpu.l2Bytes() >> 10, Environment.jdk(),
        Environment.gitRevision());
    int ref = on[1] ? 1 : on[4] ? 4 : -1;
    String refName = ref < 0 ? "-" : MODES[ref];
    System.out.println("| mode | what | median ms | GB/s read | time / " + refName + " |");
    System.out.println("|---|---|---:|---:|---:|");
    for (int m = 0; m < MODES.length; m++) {
      if (!on[m]) {
        continue;
      }
      double t = median(ms[m]);
      double bytes = m == 6 ? gb * 5 / 8 : gb;
      System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.2f | %s |%n", MODES[m], WHAT[m], t,
          bytes / (t / 1e3), ref < 0 ? "-" : String.format(Locale.ROOT, "%.2f",
          t / median(ms[ref])));
    }
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  private double run(int mode) {
    switch (mode) {
      case 0:
        return read();
      case 1:
        return read6(0);
      case 2:
        return read6(12);
      case 3:
        return read6(24);
      case 4:
        return kernel();
      case 5:
        return kernelGroup();
      default:
        return kernel40();
    }
  }

  private double read() {
    DoubleVector a = DoubleVector.zero(S);
    DoubleVector b = a;
    int step = 2 * S.length();
    for (int c = 0; c < ncols / GROUP * GROUP; c++) {
      double[] x = cols[c];
      for (int i = 0; i < LEN; i += step) {
        a = a.add(DoubleVector.fromArray(S, x, i));
        b = b.add(DoubleVector.fromArray(S, x, i + S.length()));
      }
    }
    return a.add(b).reduceLanes(VectorOperators.ADD);
  }

  private double read6(int fmas) {
    DoubleVector z = DoubleVector.zero(S);
    DoubleVector p = DoubleVector.broadcast(S, 1.0000001);
    DoubleVector q = DoubleVector.broadcast(S, 0.9999999);
    DoubleVector a0 = z, a1 = z, a2 = z, a3 = z, a4 = z, a5 = z;
    DoubleVector f0 = z, f1 = z, f2 = z, f3 = z, f4 = z, f5 = z;
    DoubleVector f6 = z, f7 = z, f8 = z, f9 = z, f10 = z, f11 = z;
    int l = S.length();
    for (int b = 0; b < BLOCKS; b++) {
      for (int c0 = 0; c0 + GROUP <= ncols; c0 += GROUP) {
        double[] k0 = cols[c0], k1 = cols[c0 + 1], k2 = cols[c0 + 2];
        double[] k3 = cols[c0 + 3], k4 = cols[c0 + 4], k5 = cols[c0 + 5];
        int end = (b + 1) * 8 * ROWS;
        for (int i = b * 8 * ROWS; i < end; i += l) {
          a0 = a0.add(DoubleVector.fromArray(S, k0, i));
          a1 = a1.add(DoubleVector.fromArray(S, k1, i));
          a2 = a2.add(DoubleVector.fromArray(S, k2, i));
          a3 = a3.add(DoubleVector.fromArray(S, k3, i));
          a4 = a4.add(DoubleVector.fromArray(S, k4, i));
          a5 = a5.add(DoubleVector.fromArray(S, k5, i));
          if (fmas > 0) {
            f0 = f0.fma(p, q); f1 = f1.fma(p, q); f2 = f2.fma(p, q); f3 = f3.fma(p, q);
            f4 = f4.fma(p, q); f5 = f5.fma(p, q); f6 = f6.fma(p, q); f7 = f7.fma(p, q);
            f8 = f8.fma(p, q); f9 = f9.fma(p, q); f10 = f10.fma(p, q); f11 = f11.fma(p, q);
          }
          if (fmas > 12) {
            f0 = f0.fma(q, p); f1 = f1.fma(q, p); f2 = f2.fma(q, p); f3 = f3.fma(q, p);
            f4 = f4.fma(q, p); f5 = f5.fma(q, p); f6 = f6.fma(q, p); f7 = f7.fma(q, p);
            f8 = f8.fma(q, p); f9 = f9.fma(q, p); f10 = f10.fma(q, p); f11 = f11.fma(q, p);
          }
        }
      }
    }
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(f0).add(f1).add(f2).add(f3).add(f4)
        .add(f5).add(f6).add(f7).add(f8).add(f9).add(f10).add(f11)
        .reduceLanes(VectorOperators.ADD);
  }

  private double kernel() {
    DoubleVector z = DoubleVector.zero(S);
    DoubleVector a0 = z, a1 = z, a2 = z, a3 = z, a4 = z, a5 = z;
    DoubleVector b0 = z, b1 = z, b2 = z, b3 = z, b4 = z, b5 = z;
    DoubleVector c0 = z, c1 = z, c2 = z, c3 = z, c4 = z, c5 = z;
    DoubleVector d0 = z, d1 = z, d2 = z, d3 = z, d4 = z, d5 = z;
    double[] pan = panel;
    int l = S.length();
    for (int b = 0; b < BLOCKS; b++) {
      for (int g = 0; g + GROUP <= ncols; g += GROUP) {
        double[] k0 = cols[g], k1 = cols[g + 1], k2 = cols[g + 2];
        double[] k3 = cols[g + 3], k4 = cols[g + 4], k5 = cols[g + 5];
        int start = b * 8 * ROWS;
        int end = start + 8 * ROWS;
        for (int i = start; i < end; i += l) {
          int o = ((i - start) & 511) * 3; // a 12 KiB panel, read from L1 as the pass's is
          DoubleVector p = DoubleVector.fromArray(S, pan, o);
          DoubleVector q = DoubleVector.fromArray(S, pan, o + l);
          DoubleVector r = DoubleVector.fromArray(S, pan, o + 2 * l);
          DoubleVector s = DoubleVector.fromArray(S, pan, o + 3 * l);
          DoubleVector v = DoubleVector.fromArray(S, k0, i);
          a0 = v.fma(p, a0); b0 = v.fma(q, b0); c0 = v.fma(r, c0); d0 = v.fma(s, d0);
          v = DoubleVector.fromArray(S, k1, i);
          a1 = v.fma(p, a1); b1 = v.fma(q, b1); c1 = v.fma(r, c1); d1 = v.fma(s, d1);
          v = DoubleVector.fromArray(S, k2, i);
          a2 = v.fma(p, a2); b2 = v.fma(q, b2); c2 = v.fma(r, c2); d2 = v.fma(s, d2);
          v = DoubleVector.fromArray(S, k3, i);
          a3 = v.fma(p, a3); b3 = v.fma(q, b3); c3 = v.fma(r, c3); d3 = v.fma(s, d3);
          v = DoubleVector.fromArray(S, k4, i);
          a4 = v.fma(p, a4); b4 = v.fma(q, b4); c4 = v.fma(r, c4); d4 = v.fma(s, d4);
          v = DoubleVector.fromArray(S, k5, i);
          a5 = v.fma(p, a5); b5 = v.fma(q, b5); c5 = v.fma(r, c5); d5 = v.fma(s, d5);
        }
      }
    }
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(b0).add(b1).add(b2).add(b3).add(b4)
        .add(b5).add(c0).add(c1).add(c2).add(c3).add(c4).add(c5).add(d0).add(d1).add(d2)
        .add(d3).add(d4).add(d5).reduceLanes(VectorOperators.ADD);
  }

  private double kernelGroup() {
    DoubleVector z = DoubleVector.zero(S);
    DoubleVector a0 = z, a1 = z, a2 = z, a3 = z, a4 = z, a5 = z;
    DoubleVector b0 = z, b1 = z, b2 = z, b3 = z, b4 = z, b5 = z;
    DoubleVector c0 = z, c1 = z, c2 = z, c3 = z, c4 = z, c5 = z;
    DoubleVector d0 = z, d1 = z, d2 = z, d3 = z, d4 = z, d5 = z;
    double[] pan = panel;
    int l = S.length();
    for (int b = 0; b < BLOCKS; b++) {
      for (int g = 0; g + GROUP <= ncols; g += GROUP) {
        double[] k = groups[g / GROUP];
        int start = b * 8 * ROWS;
        int end = start + 8 * ROWS;
        for (int i = start; i < end; i += l) {
          int o = ((i - start) & 511) * 3;
          DoubleVector p = DoubleVector.fromArray(S, pan, o);
          DoubleVector q = DoubleVector.fromArray(S, pan, o + l);
          DoubleVector r = DoubleVector.fromArray(S, pan, o + 2 * l);
          DoubleVector s = DoubleVector.fromArray(S, pan, o + 3 * l);
          // row i / 8 of the group: its 6 columns' 8 doubles one after another
          int at = (i >> 3) * 8 * GROUP + (i & 7);
          DoubleVector v = DoubleVector.fromArray(S, k, at);
          a0 = v.fma(p, a0); b0 = v.fma(q, b0); c0 = v.fma(r, c0); d0 = v.fma(s, d0);
          v = DoubleVector.fromArray(S, k, at + 8);
          a1 = v.fma(p, a1); b1 = v.fma(q, b1); c1 = v.fma(r, c1); d1 = v.fma(s, d1);
          v = DoubleVector.fromArray(S, k, at + 16);
          a2 = v.fma(p, a2); b2 = v.fma(q, b2); c2 = v.fma(r, c2); d2 = v.fma(s, d2);
          v = DoubleVector.fromArray(S, k, at + 24);
          a3 = v.fma(p, a3); b3 = v.fma(q, b3); c3 = v.fma(r, c3); d3 = v.fma(s, d3);
          v = DoubleVector.fromArray(S, k, at + 32);
          a4 = v.fma(p, a4); b4 = v.fma(q, b4); c4 = v.fma(r, c4); d4 = v.fma(s, d4);
          v = DoubleVector.fromArray(S, k, at + 40);
          a5 = v.fma(p, a5); b5 = v.fma(q, b5); c5 = v.fma(r, c5); d5 = v.fma(s, d5);
        }
      }
    }
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(b0).add(b1).add(b2).add(b3).add(b4)
        .add(b5).add(c0).add(c1).add(c2).add(c3).add(c4).add(c5).add(d0).add(d1).add(d2)
        .add(d3).add(d4).add(d5).reduceLanes(VectorOperators.ADD);
  }

  private double kernel40() {
    DoubleVector z = DoubleVector.zero(S);
    DoubleVector a0 = z, a1 = z, a2 = z, a3 = z, a4 = z, a5 = z;
    DoubleVector b0 = z, b1 = z, b2 = z, b3 = z, b4 = z, b5 = z;
    DoubleVector c0 = z, c1 = z, c2 = z, c3 = z, c4 = z, c5 = z;
    DoubleVector d0 = z, d1 = z, d2 = z, d3 = z, d4 = z, d5 = z;
    double[] pan = panel;
    int l = S.length();
    for (int b = 0; b < BLOCKS; b++) {
      for (int g = 0; g + GROUP <= ncols; g += GROUP) {
        int[] h0 = hi[g], h1 = hi[g + 1], h2 = hi[g + 2], h3 = hi[g + 3], h4 = hi[g + 4];
        int[] h5 = hi[g + 5];
        byte[] l0 = lo[g], l1 = lo[g + 1], l2 = lo[g + 2], l3 = lo[g + 3], l4 = lo[g + 4];
        byte[] l5 = lo[g + 5];
        int start = b * 8 * ROWS;
        int end = start + 8 * ROWS;
        for (int i = start; i < end; i += l) {
          int o = ((i - start) & 511) * 3;
          DoubleVector p = DoubleVector.fromArray(S, pan, o);
          DoubleVector q = DoubleVector.fromArray(S, pan, o + l);
          DoubleVector r = DoubleVector.fromArray(S, pan, o + 2 * l);
          DoubleVector s = DoubleVector.fromArray(S, pan, o + 3 * l);
          DoubleVector v = ((DoubleVector) IntVector.fromArray(SI, h0, i)
              .convertShape(VectorOperators.I2D, S, 0)).fma(scale, (DoubleVector) ByteVector
              .fromArray(SB, l0, i).convertShape(VectorOperators.B2D, S, 0));
          a0 = v.fma(p, a0); b0 = v.fma(q, b0); c0 = v.fma(r, c0); d0 = v.fma(s, d0);
          v = ((DoubleVector) IntVector.fromArray(SI, h1, i)
              .convertShape(VectorOperators.I2D, S, 0)).fma(scale, (DoubleVector) ByteVector
              .fromArray(SB, l1, i).convertShape(VectorOperators.B2D, S, 0));
          a1 = v.fma(p, a1); b1 = v.fma(q, b1); c1 = v.fma(r, c1); d1 = v.fma(s, d1);
          v = ((DoubleVector) IntVector.fromArray(SI, h2, i)
              .convertShape(VectorOperators.I2D, S, 0)).fma(scale, (DoubleVector) ByteVector
              .fromArray(SB, l2, i).convertShape(VectorOperators.B2D, S, 0));
          a2 = v.fma(p, a2); b2 = v.fma(q, b2); c2 = v.fma(r, c2); d2 = v.fma(s, d2);
          v = ((DoubleVector) IntVector.fromArray(SI, h3, i)
              .convertShape(VectorOperators.I2D, S, 0)).fma(scale, (DoubleVector) ByteVector
              .fromArray(SB, l3, i).convertShape(VectorOperators.B2D, S, 0));
          a3 = v.fma(p, a3); b3 = v.fma(q, b3); c3 = v.fma(r, c3); d3 = v.fma(s, d3);
          v = ((DoubleVector) IntVector.fromArray(SI, h4, i)
              .convertShape(VectorOperators.I2D, S, 0)).fma(scale, (DoubleVector) ByteVector
              .fromArray(SB, l4, i).convertShape(VectorOperators.B2D, S, 0));
          a4 = v.fma(p, a4); b4 = v.fma(q, b4); c4 = v.fma(r, c4); d4 = v.fma(s, d4);
          v = ((DoubleVector) IntVector.fromArray(SI, h5, i)
              .convertShape(VectorOperators.I2D, S, 0)).fma(scale, (DoubleVector) ByteVector
              .fromArray(SB, l5, i).convertShape(VectorOperators.B2D, S, 0));
          a5 = v.fma(p, a5); b5 = v.fma(q, b5); c5 = v.fma(r, c5); d5 = v.fma(s, d5);
        }
      }
    }
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(b0).add(b1).add(b2).add(b3).add(b4)
        .add(b5).add(c0).add(c1).add(c2).add(c3).add(c4).add(c5).add(d0).add(d1).add(d2)
        .add(d3).add(d4).add(d5).reduceLanes(VectorOperators.ADD);
  }
}
