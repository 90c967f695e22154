package org.jpir.vmp;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API implementation of {@link FftKernel}. Radix-4 stages ({@code R4Passes}, generated)
 * work on 8 butterflies at once with 512-bit vectors (the wide path) or on 4 with 256-bit vectors
 * (the narrow path, which also serves nodes of 16, whose quarters hold only 4 values); nodes of
 * one or two trips run without an inner loop. The narrow leaf works on 256-bit vectors: the top
 * level of the 3-level leaf is one 4-lane butterfly with a broadcast twiddle, and the last two
 * levels run inside one vector of 4 complex values with constant lane shuffles and per-lane
 * twiddle vectors from the table, each level two fused multiply-adds per part. The wide path's
 * 3-level leaf holds one node per 512-bit vector, all three levels with lane shuffles (on Zen 4,
 * whose 512-bit units are double-pumped, it was no faster; on Zen 5 it is 1.3-1.6x). Complex products use fused multiply-adds, so results differ from {@code RefFft} by
 * rounding only (tolerance in {@code FftPlan}). No allocation on JDK 17 or 25 (checked with JMH
 * {@code -prof gc}).
 *
 * <p>Width: {@link KernelProvider} decides (the wide path where the JVM compiles 512-bit vectors,
 * from JDK 25 on: JDK 17's C2 boxed the 512-bit vectors of these loops, 256 KB allocated per
 * N=4096 transform, 10x slower); {@link Narrow} and {@link Wide} force it per instance (tests,
 * benchmarks).
 */
class PanamaFft implements FftKernel {
  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_256;
  private static final int L = 4;
  private static final int LW = 8;
  private static final VectorShuffle<Double> LO_A = VectorShuffle.fromValues(S, 0, 1, 0, 1);
  private static final VectorShuffle<Double> HI_A = VectorShuffle.fromValues(S, 2, 3, 2, 3);
  private static final VectorShuffle<Double> LO_B = VectorShuffle.fromValues(S, 0, 0, 2, 2);
  private static final VectorShuffle<Double> HI_B = VectorShuffle.fromValues(S, 1, 1, 3, 3);
  private static final DoubleVector SIGN_A =
      DoubleVector.fromArray(S, new double[] {1, 1, -1, -1}, 0);
  private static final DoubleVector SIGN_B =
      DoubleVector.fromArray(S, new double[] {1, -1, 1, -1}, 0);

  private static final VectorSpecies<Double> W = DoubleVector.SPECIES_512;
  // wide leaf: level v pairs lanes at distance 8 >> v (L*: the left values spread, H*: the right)
  private static final VectorShuffle<Double> L1 = VectorShuffle.fromValues(W, 0, 1, 2, 3, 0, 1, 2, 3);
  private static final VectorShuffle<Double> H1 = VectorShuffle.fromValues(W, 4, 5, 6, 7, 4, 5, 6, 7);
  private static final VectorShuffle<Double> L2 = VectorShuffle.fromValues(W, 0, 1, 0, 1, 4, 5, 4, 5);
  private static final VectorShuffle<Double> H2 = VectorShuffle.fromValues(W, 2, 3, 2, 3, 6, 7, 6, 7);
  private static final VectorShuffle<Double> L3 = VectorShuffle.fromValues(W, 0, 0, 2, 2, 4, 4, 6, 6);
  private static final VectorShuffle<Double> H3 = VectorShuffle.fromValues(W, 1, 1, 3, 3, 5, 5, 7, 7);
  // inverse wide leaf: each value swapped with its partner at distance 4, 2, 1
  private static final VectorShuffle<Double> X1 = VectorShuffle.fromValues(W, 4, 5, 6, 7, 0, 1, 2, 3);
  private static final VectorShuffle<Double> X2 = VectorShuffle.fromValues(W, 2, 3, 0, 1, 6, 7, 4, 5);
  private static final VectorShuffle<Double> X3 = VectorShuffle.fromValues(W, 1, 0, 3, 2, 5, 4, 7, 6);
  private static final DoubleVector SIGN1 =
      DoubleVector.fromArray(W, new double[] {1, 1, 1, 1, -1, -1, -1, -1}, 0);
  private static final DoubleVector SIGN2 =
      DoubleVector.fromArray(W, new double[] {1, 1, -1, -1, 1, 1, -1, -1}, 0);
  private static final DoubleVector SIGN3 =
      DoubleVector.fromArray(W, new double[] {1, -1, 1, -1, 1, -1, 1, -1}, 0);

  /**
   * True when radix-4 stages with quarters of at least 8 use 512-bit vectors, and the size-8
   * leaf works on one node per 512-bit vector ({@link #wideLeaf3}).
   */
  private final boolean wide;

  /** The wide (512-bit) or the narrow (256-bit) radix-4 path. */
  PanamaFft(boolean wide) {
    this.wide = wide;
  }

  /** Always the 256-bit path. */
  static final class Narrow extends PanamaFft {
    Narrow() {
      super(false);
    }
  }

  /** Always the 512-bit radix-4 path (correct everywhere; slow where 512 bits are emulated). */
  static final class Wide extends PanamaFft {
    Wide() {
      super(true);
    }
  }

  /** Radix-4 width in bits this instance uses. */
  final int bits() {
    return wide ? 512 : 256;
  }

  @Override
  public final void fwdR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    if (wide && size >= 4 * LW) {
      R4Passes.fwd512(buf, ro, io, size, k0, count, tw, t0);
    } else {
      R4Passes.fwd256(buf, ro, io, size, k0, count, tw, t0);
    }
  }

  @Override
  public final void fwdLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int i = 0; i < count; i++) {
      int p = (k0 + i) * 4;
      int t = t0 + i * LEAF_ENTRY;
      DoubleVector vr = DoubleVector.fromArray(S, buf, ro + p);
      DoubleVector vi = DoubleVector.fromArray(S, buf, io + p);
      // level A: lanes [lo + W hi], W = [s, s, -s, -s]; re = lo_r + h_r w_r - h_i w_i
      DoubleVector lr = vr.rearrange(LO_A);
      DoubleVector li = vi.rearrange(LO_A);
      DoubleVector hr = vr.rearrange(HI_A);
      DoubleVector hi = vi.rearrange(HI_A);
      DoubleVector xr = hr.fma(DoubleVector.fromArray(S, tw, t),
          hi.fma(DoubleVector.fromArray(S, tw, t + 16), lr));
      DoubleVector xi = hr.fma(DoubleVector.fromArray(S, tw, t + 4),
          hi.fma(DoubleVector.fromArray(S, tw, t), li));
      // level B: W = [s0, -s0, i s0, -i s0]
      lr = xr.rearrange(LO_B);
      li = xi.rearrange(LO_B);
      hr = xr.rearrange(HI_B);
      hi = xi.rearrange(HI_B);
      hr.fma(DoubleVector.fromArray(S, tw, t + 8),
          hi.fma(DoubleVector.fromArray(S, tw, t + 20), lr)).intoArray(buf, ro + p);
      hr.fma(DoubleVector.fromArray(S, tw, t + 12),
          hi.fma(DoubleVector.fromArray(S, tw, t + 8), li)).intoArray(buf, io + p);
    }
  }

  @Override
  public final boolean wideLeaf3() {
    return wide;
  }

  @Override
  public final void fwdLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    if (wide) {
      fwdLeaf3Wide(buf, ro, io, k0, count, tw, t0);
      return;
    }
    // one induction variable, so that C2 hoists the range checks of buf and tw out of the loop
    for (int i = 0; i < count; i++) {
      int p = (k0 + i) * 8;
      int t = t0 + i * LEAF3_ENTRY;
      // written out in full: helpers taking vectors made JDK 17 box them. Each size-4 half
      // runs to its end before the other starts, so that 16 registers hold one half.
      DoubleVector c = DoubleVector.broadcast(S, tw[t]);
      DoubleVector s = DoubleVector.broadcast(S, tw[t + 1]);
      DoubleVector ns = DoubleVector.broadcast(S, tw[t + 2]);
      DoubleVector br = DoubleVector.fromArray(S, buf, ro + p + L);
      DoubleVector bi = DoubleVector.fromArray(S, buf, io + p + L);
      DoubleVector tr = br.fma(c, bi.mul(ns));
      DoubleVector ti = br.fma(s, bi.mul(c));
      DoubleVector ar = DoubleVector.fromArray(S, buf, ro + p);
      DoubleVector ai = DoubleVector.fromArray(S, buf, io + p);
      br = ar.sub(tr);
      bi = ai.sub(ti);
      ar = ar.add(tr);
      ai = ai.add(ti);
      int ta = t + 4;
      // first half: level A, W = [s, s, -s, -s]; then level B, W = [s0, -s0, i s0, -i s0]
      DoubleVector lr = ar.rearrange(LO_A);
      DoubleVector li = ai.rearrange(LO_A);
      DoubleVector hr = ar.rearrange(HI_A);
      DoubleVector hi = ai.rearrange(HI_A);
      DoubleVector xr = hr.fma(DoubleVector.fromArray(S, tw, ta),
          hi.fma(DoubleVector.fromArray(S, tw, ta + 16), lr));
      DoubleVector xi = hr.fma(DoubleVector.fromArray(S, tw, ta + 4),
          hi.fma(DoubleVector.fromArray(S, tw, ta), li));
      lr = xr.rearrange(LO_B);
      li = xi.rearrange(LO_B);
      hr = xr.rearrange(HI_B);
      hi = xi.rearrange(HI_B);
      hr.fma(DoubleVector.fromArray(S, tw, ta + 8),
          hi.fma(DoubleVector.fromArray(S, tw, ta + 20), lr)).intoArray(buf, ro + p);
      hr.fma(DoubleVector.fromArray(S, tw, ta + 12),
          hi.fma(DoubleVector.fromArray(S, tw, ta + 8), li)).intoArray(buf, io + p);
      // second half
      int tb = ta + LEAF_ENTRY;
      lr = br.rearrange(LO_A);
      li = bi.rearrange(LO_A);
      hr = br.rearrange(HI_A);
      hi = bi.rearrange(HI_A);
      xr = hr.fma(DoubleVector.fromArray(S, tw, tb),
          hi.fma(DoubleVector.fromArray(S, tw, tb + 16), lr));
      xi = hr.fma(DoubleVector.fromArray(S, tw, tb + 4),
          hi.fma(DoubleVector.fromArray(S, tw, tb), li));
      lr = xr.rearrange(LO_B);
      li = xi.rearrange(LO_B);
      hr = xr.rearrange(HI_B);
      hi = xi.rearrange(HI_B);
      hr.fma(DoubleVector.fromArray(S, tw, tb + 8),
          hi.fma(DoubleVector.fromArray(S, tw, tb + 20), lr)).intoArray(buf, ro + p + L);
      hr.fma(DoubleVector.fromArray(S, tw, tb + 12),
          hi.fma(DoubleVector.fromArray(S, tw, tb + 8), li)).intoArray(buf, io + p + L);
    }
  }

  @Override
  public final void invR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    if (wide && size >= 4 * LW) {
      R4Passes.inv512(buf, ro, io, size, k0, count, tw, t0);
    } else {
      R4Passes.inv256(buf, ro, io, size, k0, count, tw, t0);
    }
  }

  @Override
  public final void invLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int i = 0; i < count; i++) {
      int p = (k0 + i) * 4;
      int t = t0 + i * LEAF_ENTRY;
      DoubleVector vr = DoubleVector.fromArray(S, buf, ro + p);
      DoubleVector vi = DoubleVector.fromArray(S, buf, io + p);
      // level B: d = [x0 + x1, x0 - x1, y0 + y1, y0 - y1], times W = [1, conj s0, 1, conj i s0]
      DoubleVector dr = vr.rearrange(HI_B).fma(SIGN_B, vr.rearrange(LO_B));
      DoubleVector di = vi.rearrange(HI_B).fma(SIGN_B, vi.rearrange(LO_B));
      vr = dr.fma(DoubleVector.fromArray(S, tw, t + 8),
          di.mul(DoubleVector.fromArray(S, tw, t + 20)));
      vi = dr.fma(DoubleVector.fromArray(S, tw, t + 12),
          di.mul(DoubleVector.fromArray(S, tw, t + 8)));
      // level A: d = [x0 + y0, x1 + y1, x0 - y0, x1 - y1], times W = [1, 1, conj s, conj s]
      dr = vr.rearrange(HI_A).fma(SIGN_A, vr.rearrange(LO_A));
      di = vi.rearrange(HI_A).fma(SIGN_A, vi.rearrange(LO_A));
      dr.fma(DoubleVector.fromArray(S, tw, t), di.mul(DoubleVector.fromArray(S, tw, t + 16)))
          .intoArray(buf, ro + p);
      dr.fma(DoubleVector.fromArray(S, tw, t + 4), di.mul(DoubleVector.fromArray(S, tw, t)))
          .intoArray(buf, io + p);
    }
  }

  @Override
  public final void invLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    if (wide) {
      invLeaf3Wide(buf, ro, io, k0, count, tw, t0);
      return;
    }
    // one induction variable, so that C2 hoists the range checks of buf and tw out of the loop
    for (int i = 0; i < count; i++) {
      int p = (k0 + i) * 8;
      int t = t0 + i * LEAF3_ENTRY;
      int ta = t + 4;
      int tb = t + 4 + LEAF_ENTRY;
      // first half: level B, d = [x0 + x1, x0 - x1, y0 + y1, y0 - y1] times W; then level A,
      // d = [x0 + y0, x1 + y1, x0 - y0, x1 - y1] times W
      DoubleVector vr = DoubleVector.fromArray(S, buf, ro + p);
      DoubleVector vi = DoubleVector.fromArray(S, buf, io + p);
      DoubleVector dr = vr.rearrange(HI_B).fma(SIGN_B, vr.rearrange(LO_B));
      DoubleVector di = vi.rearrange(HI_B).fma(SIGN_B, vi.rearrange(LO_B));
      vr = dr.fma(DoubleVector.fromArray(S, tw, ta + 8),
          di.mul(DoubleVector.fromArray(S, tw, ta + 20)));
      vi = dr.fma(DoubleVector.fromArray(S, tw, ta + 12),
          di.mul(DoubleVector.fromArray(S, tw, ta + 8)));
      dr = vr.rearrange(HI_A).fma(SIGN_A, vr.rearrange(LO_A));
      di = vi.rearrange(HI_A).fma(SIGN_A, vi.rearrange(LO_A));
      DoubleVector ar = dr.fma(DoubleVector.fromArray(S, tw, ta),
          di.mul(DoubleVector.fromArray(S, tw, ta + 16)));
      DoubleVector ai = dr.fma(DoubleVector.fromArray(S, tw, ta + 4),
          di.mul(DoubleVector.fromArray(S, tw, ta)));
      // second half
      vr = DoubleVector.fromArray(S, buf, ro + p + L);
      vi = DoubleVector.fromArray(S, buf, io + p + L);
      dr = vr.rearrange(HI_B).fma(SIGN_B, vr.rearrange(LO_B));
      di = vi.rearrange(HI_B).fma(SIGN_B, vi.rearrange(LO_B));
      vr = dr.fma(DoubleVector.fromArray(S, tw, tb + 8),
          di.mul(DoubleVector.fromArray(S, tw, tb + 20)));
      vi = dr.fma(DoubleVector.fromArray(S, tw, tb + 12),
          di.mul(DoubleVector.fromArray(S, tw, tb + 8)));
      dr = vr.rearrange(HI_A).fma(SIGN_A, vr.rearrange(LO_A));
      di = vi.rearrange(HI_A).fma(SIGN_A, vi.rearrange(LO_A));
      DoubleVector br = dr.fma(DoubleVector.fromArray(S, tw, tb),
          di.mul(DoubleVector.fromArray(S, tw, tb + 16)));
      DoubleVector bi = dr.fma(DoubleVector.fromArray(S, tw, tb + 4),
          di.mul(DoubleVector.fromArray(S, tw, tb)));
      // top level of the node: (a, b) -> (a + b, (a - b) conj(s))
      DoubleVector c = DoubleVector.broadcast(S, tw[t]);
      DoubleVector s = DoubleVector.broadcast(S, tw[t + 1]);
      DoubleVector ns = DoubleVector.broadcast(S, tw[t + 2]);
      dr = ar.sub(br);
      di = ai.sub(bi);
      ar.add(br).intoArray(buf, ro + p);
      ai.add(bi).intoArray(buf, io + p);
      dr.fma(c, di.mul(s)).intoArray(buf, ro + p + L);
      di.fma(c, dr.mul(ns)).intoArray(buf, io + p + L);
    }
  }

  /**
   * Wide leaf, one size-8 node per 512-bit vector, entries {@link #LEAF3_WIDE_ENTRY}: per level,
   * {@code x = lo + W hi} with lo/hi the level's pairs spread over the lanes (1.3-1.6x faster
   * than the narrow leaf on Zen 5, whose 512-bit shuffles cost what 256-bit ones do).
   */
  private static void fwdLeaf3Wide(double[] buf, int ro, int io, int k0, int count, double[] tw,
      int t0) {
    for (int i = 0; i < count; i++) {
      int p = (k0 + i) * 8;
      int t = t0 + i * LEAF3_WIDE_ENTRY;
      DoubleVector vr = DoubleVector.fromArray(W, buf, ro + p);
      DoubleVector vi = DoubleVector.fromArray(W, buf, io + p);
      DoubleVector lr = vr.rearrange(L1);
      DoubleVector li = vi.rearrange(L1);
      DoubleVector hr = vr.rearrange(H1);
      DoubleVector hi = vi.rearrange(H1);
      vr = hr.fma(DoubleVector.fromArray(W, tw, t),
          hi.fma(DoubleVector.fromArray(W, tw, t + 16), lr));
      vi = hr.fma(DoubleVector.fromArray(W, tw, t + 8),
          hi.fma(DoubleVector.fromArray(W, tw, t), li));
      lr = vr.rearrange(L2);
      li = vi.rearrange(L2);
      hr = vr.rearrange(H2);
      hi = vi.rearrange(H2);
      vr = hr.fma(DoubleVector.fromArray(W, tw, t + 24),
          hi.fma(DoubleVector.fromArray(W, tw, t + 40), lr));
      vi = hr.fma(DoubleVector.fromArray(W, tw, t + 32),
          hi.fma(DoubleVector.fromArray(W, tw, t + 24), li));
      lr = vr.rearrange(L3);
      li = vi.rearrange(L3);
      hr = vr.rearrange(H3);
      hi = vi.rearrange(H3);
      hr.fma(DoubleVector.fromArray(W, tw, t + 48),
          hi.fma(DoubleVector.fromArray(W, tw, t + 64), lr)).intoArray(buf, ro + p);
      hr.fma(DoubleVector.fromArray(W, tw, t + 56),
          hi.fma(DoubleVector.fromArray(W, tw, t + 48), li)).intoArray(buf, io + p);
    }
  }

  /**
   * Inverse of {@link #fwdLeaf3Wide} up to the factor 8: per level, from the last, {@code d = [a
   * + b, b - a]} from one swap of partners, then {@code d W} (the table's W negated where {@code b -
   * a} stands: half the shuffles of a spread of both, 1.5x faster on Zen 5).
   */
  private static void invLeaf3Wide(double[] buf, int ro, int io, int k0, int count, double[] tw,
      int t0) {
    for (int i = 0; i < count; i++) {
      int p = (k0 + i) * 8;
      int t = t0 + i * LEAF3_WIDE_ENTRY;
      DoubleVector vr = DoubleVector.fromArray(W, buf, ro + p);
      DoubleVector vi = DoubleVector.fromArray(W, buf, io + p);
      DoubleVector dr = vr.rearrange(X3).fma(SIGN3, vr);
      DoubleVector di = vi.rearrange(X3).fma(SIGN3, vi);
      vr = dr.fma(DoubleVector.fromArray(W, tw, t + 48),
          di.mul(DoubleVector.fromArray(W, tw, t + 64)));
      vi = dr.fma(DoubleVector.fromArray(W, tw, t + 56),
          di.mul(DoubleVector.fromArray(W, tw, t + 48)));
      dr = vr.rearrange(X2).fma(SIGN2, vr);
      di = vi.rearrange(X2).fma(SIGN2, vi);
      vr = dr.fma(DoubleVector.fromArray(W, tw, t + 24),
          di.mul(DoubleVector.fromArray(W, tw, t + 40)));
      vi = dr.fma(DoubleVector.fromArray(W, tw, t + 32),
          di.mul(DoubleVector.fromArray(W, tw, t + 24)));
      dr = vr.rearrange(X1).fma(SIGN1, vr);
      di = vi.rearrange(X1).fma(SIGN1, vi);
      dr.fma(DoubleVector.fromArray(W, tw, t), di.mul(DoubleVector.fromArray(W, tw, t + 16)))
          .intoArray(buf, ro + p);
      dr.fma(DoubleVector.fromArray(W, tw, t + 8), di.mul(DoubleVector.fromArray(W, tw, t)))
          .intoArray(buf, io + p);
    }
  }
}
