package org.jpir.vmp;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link FftKernel} on 128-bit vectors (NEON's width; SSE on x86), for JVMs whose preferred
 * species is 128 bits, where the 256- and 512-bit kernels of {@link PanamaFft} would not be
 * compiled to vector instructions at all. Radix-4 stages work on 2 butterflies at once (the
 * quarter of a node of 16 or more holds at least 4 values), with the same operations and
 * fused multiply-adds as {@link PanamaFft}'s 256-bit path; in the leaves (nodes of 4 and 8) the
 * pairs two apart and four apart are two lanes of a vector; the last level, whose pairs are the
 * two lanes of one vector, is scalar (lane broadcasts, a sign vector and blends were 3-5x slower
 * than scalar code on x86 at 128 bits, measured with {@code KernelAb}). Results differ from {@code RefFft} by rounding only (tolerance in {@code FftPlan}).
 */
final class Panama128Fft implements FftKernel {
  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_128;
  private static final int L = 2;

  Panama128Fft() {}

  @Override
  public void fwdR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    R4Passes.fwd128(buf, ro, io, size, k0, count, tw, t0);
  }

  @Override
  public void invR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    R4Passes.inv128(buf, ro, io, size, k0, count, tw, t0);
  }

  @Override
  public void fwdLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      fwdNode4(buf, ro, io, (k0 + k) * 4, tw, t0 + k * LEAF_ENTRY);
    }
  }

  @Override
  public void fwdLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      int t = t0 + k * LEAF3_ENTRY;
      int base = (k0 + k) * 8;
      DoubleVector c = DoubleVector.broadcast(S, tw[t]);
      DoubleVector s = DoubleVector.broadcast(S, tw[t + 1]);
      for (int j = base; j < base + 4; j += L) {
        fwdPairs(buf, ro, io, j, j + 4, c, s);
      }
      fwdNode4(buf, ro, io, base, tw, t + 4);
      fwdNode4(buf, ro, io, base + 4, tw, t + 4 + LEAF_ENTRY);
    }
  }

  @Override
  public void invLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      invNode4(buf, ro, io, (k0 + k) * 4, tw, t0 + k * LEAF_ENTRY);
    }
  }

  @Override
  public void invLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      int t = t0 + k * LEAF3_ENTRY;
      int base = (k0 + k) * 8;
      invNode4(buf, ro, io, base, tw, t + 4);
      invNode4(buf, ro, io, base + 4, tw, t + 4 + LEAF_ENTRY);
      DoubleVector c = DoubleVector.broadcast(S, tw[t]);
      DoubleVector s = DoubleVector.broadcast(S, tw[t + 1]);
      for (int j = base; j < base + 4; j += L) {
        invPairs(buf, ro, io, j, j + 4, c, s);
      }
    }
  }

  /** {@code (a, b) -> (a + wb, a - wb)} on the 2 pairs {@code (j + l, p + l)}, w = c + i s. */
  private static void fwdPairs(double[] buf, int ro, int io, int j, int p, DoubleVector c,
      DoubleVector s) {
    DoubleVector ar = DoubleVector.fromArray(S, buf, ro + j);
    DoubleVector ai = DoubleVector.fromArray(S, buf, io + j);
    DoubleVector br = DoubleVector.fromArray(S, buf, ro + p);
    DoubleVector bi = DoubleVector.fromArray(S, buf, io + p);
    DoubleVector tr = br.fma(c, bi.mul(s).neg());
    DoubleVector ti = br.fma(s, bi.mul(c));
    ar.add(tr).intoArray(buf, ro + j);
    ai.add(ti).intoArray(buf, io + j);
    ar.sub(tr).intoArray(buf, ro + p);
    ai.sub(ti).intoArray(buf, io + p);
  }

  /** {@code (a, b) -> (a + b, (a - b) conj(w))} on the 2 pairs {@code (j + l, p + l)}. */
  private static void invPairs(double[] buf, int ro, int io, int j, int p, DoubleVector c,
      DoubleVector s) {
    DoubleVector ar = DoubleVector.fromArray(S, buf, ro + j);
    DoubleVector ai = DoubleVector.fromArray(S, buf, io + j);
    DoubleVector br = DoubleVector.fromArray(S, buf, ro + p);
    DoubleVector bi = DoubleVector.fromArray(S, buf, io + p);
    DoubleVector dr = ar.sub(br);
    DoubleVector di = ai.sub(bi);
    ar.add(br).intoArray(buf, ro + j);
    ai.add(bi).intoArray(buf, io + j);
    dr.fma(c, di.mul(s)).intoArray(buf, ro + p);
    di.fma(c, dr.mul(s).neg()).intoArray(buf, io + p);
  }

  /**
   * The last two forward levels on the node of 4 at {@code base} (table entry at {@code e}, as
   * {@code RefFft.fwdLeaf}): pairs (0, 2), (1, 3) as two lanes, then (0, 1) and (2, 3) inside
   * one vector each, with lane broadcasts and a lane sign.
   */
  private static void fwdNode4(double[] buf, int ro, int io, int base, double[] tw, int e) {
    DoubleVector xr = DoubleVector.fromArray(S, buf, ro + base);
    DoubleVector xi = DoubleVector.fromArray(S, buf, io + base);
    DoubleVector yr = DoubleVector.fromArray(S, buf, ro + base + 2);
    DoubleVector yi = DoubleVector.fromArray(S, buf, io + base + 2);
    DoubleVector c = DoubleVector.broadcast(S, tw[e]);
    DoubleVector s = DoubleVector.broadcast(S, tw[e + 4]);
    DoubleVector tr = yr.fma(c, yi.mul(s).neg());
    DoubleVector ti = yr.fma(s, yi.mul(c));
    double c0 = tw[e + 8];
    double s0 = tw[e + 12];
    fwdInLane(xr.add(tr), xi.add(ti), c0, s0, buf, ro + base, io + base);
    fwdInLane(xr.sub(tr), xi.sub(ti), -s0, c0, buf, ro + base + 2, io + base + 2);
  }

  /** {@code [a, b] -> [a + wb, a - wb]} on the pair at {@code re, im}: scalar, after a store. */
  private static void fwdInLane(DoubleVector r, DoubleVector i, double c, double s,
      double[] buf, int re, int im) {
    r.intoArray(buf, re);
    i.intoArray(buf, im);
    double ar = buf[re];
    double ai = buf[im];
    double br = buf[re + 1];
    double bi = buf[im + 1];
    double tr = Math.fma(br, c, -bi * s);
    double ti = Math.fma(br, s, bi * c);
    buf[re] = ar + tr;
    buf[im] = ai + ti;
    buf[re + 1] = ar - tr;
    buf[im + 1] = ai - ti;
  }

  /** The inverse of {@link #fwdNode4} up to the factor 4 (as {@code RefFft.invLeaf}). */
  private static void invNode4(double[] buf, int ro, int io, int base, double[] tw, int e) {
    // the inverse table holds conjugates: lane 1 of B is conj(s0), lane 2 of A is conj(s)
    double c0 = tw[e + 9];
    double s0 = -tw[e + 13];
    invInLane(buf, ro + base, io + base, c0, s0);
    invInLane(buf, ro + base + 2, io + base + 2, -s0, c0);
    invPairs(buf, ro, io, base, base + 2, DoubleVector.broadcast(S, tw[e + 2]),
        DoubleVector.broadcast(S, -tw[e + 6]));
  }

  /** {@code [a, b] -> [a + b, (a - b) conj(w)]} on the pair at {@code re, im}: scalar. */
  private static void invInLane(double[] buf, int re, int im, double c, double s) {
    double ar = buf[re];
    double ai = buf[im];
    double br = buf[re + 1];
    double bi = buf[im + 1];
    double dr = ar - br;
    double di = ai - bi;
    buf[re] = ar + br;
    buf[im] = ai + bi;
    buf[re + 1] = Math.fma(dr, c, di * s);
    buf[im + 1] = Math.fma(di, c, -dr * s);
  }
}
