package org.jpir.vmp.panama;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;
import org.jpir.vmp.VmpKernel;

/**
 * Vector API implementation of {@link VmpKernel}; same FMA chains as the reference, so its
 * results are bitwise identical to it.
 *
 * <p>512-bit path (preferred species of at least 512 bits): a reim4 block of 8 doubles is one
 * vector; each vector row is duplicated once into {@code [re|re]} and {@code [im|im]} (two
 * constant rearranges) and multiplied by each matrix column's block {@code [vre|vim]} as loaded,
 * so the state halves {@code [re*vre|re*vim]}, {@code [im*vre|im*vim]} are two 512-bit
 * accumulators per (vector, column). The multi-column tile ({@link #mac2x6}: 2 database columns x
 * 6 matrix columns x 2 = 24 accumulators) reads a packed, row-major PMAT tile; the narrower
 * {@code mac2x4, mac2x2, mac2x1, mac1x4} take the remainders. (A 3 x 4 block on the unpacked
 * PMAT was tried: with the pair streams 16*nrows doubles apart, i.e. 4 KiB-aliased, it was not
 * faster; the kernel bodies are generated-style straight-line code on purpose.)
 *
 * <p>The memory-bound applies ({@link #mac1}, {@link #mac2}) use 256-bit vectors on both paths:
 * re and im halves are separate vectors, four accumulators per (vector, column), no rearranges.
 * Measured here (N=4096, 512x12 applyPvecToDft) that streams the PMAT at about 18 GB/s against
 * about 11 GB/s for the 512-bit rearrange form.
 *
 * <p>256-bit path (AVX2 machines, or forced): the register-blocked tiles are composed from
 * {@link #mac1} (AVX2 has 16 registers: the 24-accumulator blocks would spill).
 */
public final class PanamaVmp implements VmpKernel {
  private static final VectorSpecies<Double> S8 = DoubleVector.SPECIES_512;
  private static final VectorSpecies<Double> S4 = DoubleVector.SPECIES_256;
  private static final VectorShuffle<Double> LO =
      VectorShuffle.fromValues(S8, 0, 1, 2, 3, 0, 1, 2, 3);
  private static final VectorShuffle<Double> HI =
      VectorShuffle.fromValues(S8, 4, 5, 6, 7, 4, 5, 6, 7);

  private final boolean wide;

  /**
   * Uses the 512-bit path when the preferred species has at least 512 bits and the JDK is 25 or
   * later, else 256 bits: on JDK 17 the 512-bit multi-column pass measured 2.0 s against 0.26 s
   * for the 256-bit one and 0.93 s for the scalar reference (MultiColumnBench, 4096:512:12:32).
   */
  public PanamaVmp() {
    this(DoubleVector.SPECIES_PREFERRED.vectorBitSize() >= 512 && Runtime.version().feature() >= 25
        ? 512 : 256);
  }

  /**
   * Forces a path (for tests and benchmarks).
   *
   * @param bits 512 or 256
   */
  public PanamaVmp(int bits) {
    if (bits != 512 && bits != 256) {
      throw new IllegalArgumentException("PanamaVmp bits = " + bits + " must be 256 or 512");
    }
    this.wide = bits == 512;
  }

  @Override
  public String name() {
    return wide ? "panama512" : "panama256";
  }

  @Override
  public void extractBlock(
      int n, int block, int nrows, double[] src, int srcOff, double[] dst, int dstOff) {
    int re = srcOff + 4 * block;
    int im = re + (n >> 1);
    for (int r = 0, s = 0, d = dstOff; r < nrows; r++, s += n, d += 8) {
      DoubleVector.fromArray(S4, src, re + s).intoArray(dst, d);
      DoubleVector.fromArray(S4, src, im + s).intoArray(dst, d + 4);
    }
  }

  @Override
  public void extractBlocks(int n, int block0, int nblocks, int nrows, double[] src,
      int srcOff, double[] dst, int dstOff) {
    final int m = n >> 1;
    final int gs = 8 * nrows;
    for (int r = 0; r < nrows; r++) {
      int re = srcOff + r * n + 4 * block0;
      int im = re + m;
      int d = dstOff + 8 * r;
      for (int g = 0; g < nblocks; g++, re += 4, im += 4, d += gs) {
        DoubleVector.fromArray(S4, src, re).intoArray(dst, d);
        DoubleVector.fromArray(S4, src, im).intoArray(dst, d + 4);
      }
    }
  }

  @Override
  public void saveBlock(
      int n, int block, int ncols, double[] src, int srcOff, double[] dst, int dstOff) {
    int re = dstOff + 4 * block;
    int im = re + (n >> 1);
    for (int c = 0, d = 0, s = srcOff; c < ncols; c++, d += n, s += 8) {
      DoubleVector.fromArray(S4, src, s).intoArray(dst, re + d);
      DoubleVector.fromArray(S4, src, s + 4).intoArray(dst, im + d);
    }
  }

  @Override
  public void mac1(int rows, double[] u, int uOff, double[] v, int vOff, int vStride,
      double[] st, int stOff) {
    DoubleVector rr = DoubleVector.fromArray(S4, st, stOff);
    DoubleVector ri = DoubleVector.fromArray(S4, st, stOff + 4);
    DoubleVector ir = DoubleVector.fromArray(S4, st, stOff + 8);
    DoubleVector ii = DoubleVector.fromArray(S4, st, stOff + 12);
    for (int r = 0, uo = uOff, vo = vOff; r < rows; r++, uo += 8, vo += vStride) {
      DoubleVector ur = DoubleVector.fromArray(S4, u, uo);
      DoubleVector ui = DoubleVector.fromArray(S4, u, uo + 4);
      DoubleVector vr = DoubleVector.fromArray(S4, v, vo);
      DoubleVector vi = DoubleVector.fromArray(S4, v, vo + 4);
      rr = ur.fma(vr, rr);
      ri = ur.fma(vi, ri);
      ir = ui.fma(vr, ir);
      ii = ui.fma(vi, ii);
    }
    rr.intoArray(st, stOff);
    ri.intoArray(st, stOff + 4);
    ir.intoArray(st, stOff + 8);
    ii.intoArray(st, stOff + 12);
  }

  @Override
  public void mac2(int rows, double[] u, int uOff, double[] v, int vOff, double[] st,
      int stOff) {
    DoubleVector rr0 = DoubleVector.fromArray(S4, st, stOff);
    DoubleVector ri0 = DoubleVector.fromArray(S4, st, stOff + 4);
    DoubleVector ir0 = DoubleVector.fromArray(S4, st, stOff + 8);
    DoubleVector ii0 = DoubleVector.fromArray(S4, st, stOff + 12);
    DoubleVector rr1 = DoubleVector.fromArray(S4, st, stOff + 16);
    DoubleVector ri1 = DoubleVector.fromArray(S4, st, stOff + 20);
    DoubleVector ir1 = DoubleVector.fromArray(S4, st, stOff + 24);
    DoubleVector ii1 = DoubleVector.fromArray(S4, st, stOff + 28);
    for (int r = 0, uo = uOff, vo = vOff; r < rows; r++, uo += 8, vo += 16) {
      DoubleVector ur = DoubleVector.fromArray(S4, u, uo);
      DoubleVector ui = DoubleVector.fromArray(S4, u, uo + 4);
      DoubleVector vr = DoubleVector.fromArray(S4, v, vo);
      DoubleVector vi = DoubleVector.fromArray(S4, v, vo + 4);
      rr0 = ur.fma(vr, rr0);
      ri0 = ur.fma(vi, ri0);
      ir0 = ui.fma(vr, ir0);
      ii0 = ui.fma(vi, ii0);
      DoubleVector wr = DoubleVector.fromArray(S4, v, vo + 8);
      DoubleVector wi = DoubleVector.fromArray(S4, v, vo + 12);
      rr1 = ur.fma(wr, rr1);
      ri1 = ur.fma(wi, ri1);
      ir1 = ui.fma(wr, ir1);
      ii1 = ui.fma(wi, ii1);
    }
    rr0.intoArray(st, stOff);
    ri0.intoArray(st, stOff + 4);
    ir0.intoArray(st, stOff + 8);
    ii0.intoArray(st, stOff + 12);
    rr1.intoArray(st, stOff + 16);
    ri1.intoArray(st, stOff + 20);
    ir1.intoArray(st, stOff + 24);
    ii1.intoArray(st, stOff + 28);
  }

  @Override
  public void mac2x6(int rows, double[] u0, double[] u1, int uOff, double[] v, int vOff,
      int vStride, double[] st, int stOff, int stStride) {
    if (!wide) {
      VmpKernel.super.mac2x6(rows, u0, u1, uOff, v, vOff, vStride, st, stOff, stStride);
      return;
    }
    final int s0 = stOff + 0;
    final int s1 = stOff + stStride;
    DoubleVector a001 = DoubleVector.fromArray(S8, st, s0 + 0);
    DoubleVector a002 = DoubleVector.fromArray(S8, st, s0 + 8);
    DoubleVector a011 = DoubleVector.fromArray(S8, st, s0 + 16);
    DoubleVector a012 = DoubleVector.fromArray(S8, st, s0 + 24);
    DoubleVector a021 = DoubleVector.fromArray(S8, st, s0 + 32);
    DoubleVector a022 = DoubleVector.fromArray(S8, st, s0 + 40);
    DoubleVector a031 = DoubleVector.fromArray(S8, st, s0 + 48);
    DoubleVector a032 = DoubleVector.fromArray(S8, st, s0 + 56);
    DoubleVector a041 = DoubleVector.fromArray(S8, st, s0 + 64);
    DoubleVector a042 = DoubleVector.fromArray(S8, st, s0 + 72);
    DoubleVector a051 = DoubleVector.fromArray(S8, st, s0 + 80);
    DoubleVector a052 = DoubleVector.fromArray(S8, st, s0 + 88);
    DoubleVector a101 = DoubleVector.fromArray(S8, st, s1 + 0);
    DoubleVector a102 = DoubleVector.fromArray(S8, st, s1 + 8);
    DoubleVector a111 = DoubleVector.fromArray(S8, st, s1 + 16);
    DoubleVector a112 = DoubleVector.fromArray(S8, st, s1 + 24);
    DoubleVector a121 = DoubleVector.fromArray(S8, st, s1 + 32);
    DoubleVector a122 = DoubleVector.fromArray(S8, st, s1 + 40);
    DoubleVector a131 = DoubleVector.fromArray(S8, st, s1 + 48);
    DoubleVector a132 = DoubleVector.fromArray(S8, st, s1 + 56);
    DoubleVector a141 = DoubleVector.fromArray(S8, st, s1 + 64);
    DoubleVector a142 = DoubleVector.fromArray(S8, st, s1 + 72);
    DoubleVector a151 = DoubleVector.fromArray(S8, st, s1 + 80);
    DoubleVector a152 = DoubleVector.fromArray(S8, st, s1 + 88);
    for (int r = 0; r < rows; r++) {
      final int uo = uOff + 8 * r;
      final int vo = vOff + vStride * r;
      DoubleVector x;
      x = DoubleVector.fromArray(S8, u0, uo);
      final DoubleVector x0r = x.rearrange(LO);
      final DoubleVector x0i = x.rearrange(HI);
      x = DoubleVector.fromArray(S8, u1, uo);
      final DoubleVector x1r = x.rearrange(LO);
      final DoubleVector x1i = x.rearrange(HI);
      DoubleVector y;
      y = DoubleVector.fromArray(S8, v, vo);
      a001 = x0r.fma(y, a001);
      a002 = x0i.fma(y, a002);
      a101 = x1r.fma(y, a101);
      a102 = x1i.fma(y, a102);
      y = DoubleVector.fromArray(S8, v, vo + 8);
      a011 = x0r.fma(y, a011);
      a012 = x0i.fma(y, a012);
      a111 = x1r.fma(y, a111);
      a112 = x1i.fma(y, a112);
      y = DoubleVector.fromArray(S8, v, vo + 16);
      a021 = x0r.fma(y, a021);
      a022 = x0i.fma(y, a022);
      a121 = x1r.fma(y, a121);
      a122 = x1i.fma(y, a122);
      y = DoubleVector.fromArray(S8, v, vo + 24);
      a031 = x0r.fma(y, a031);
      a032 = x0i.fma(y, a032);
      a131 = x1r.fma(y, a131);
      a132 = x1i.fma(y, a132);
      y = DoubleVector.fromArray(S8, v, vo + 32);
      a041 = x0r.fma(y, a041);
      a042 = x0i.fma(y, a042);
      a141 = x1r.fma(y, a141);
      a142 = x1i.fma(y, a142);
      y = DoubleVector.fromArray(S8, v, vo + 40);
      a051 = x0r.fma(y, a051);
      a052 = x0i.fma(y, a052);
      a151 = x1r.fma(y, a151);
      a152 = x1i.fma(y, a152);
    }
    a001.intoArray(st, s0 + 0);
    a002.intoArray(st, s0 + 8);
    a011.intoArray(st, s0 + 16);
    a012.intoArray(st, s0 + 24);
    a021.intoArray(st, s0 + 32);
    a022.intoArray(st, s0 + 40);
    a031.intoArray(st, s0 + 48);
    a032.intoArray(st, s0 + 56);
    a041.intoArray(st, s0 + 64);
    a042.intoArray(st, s0 + 72);
    a051.intoArray(st, s0 + 80);
    a052.intoArray(st, s0 + 88);
    a101.intoArray(st, s1 + 0);
    a102.intoArray(st, s1 + 8);
    a111.intoArray(st, s1 + 16);
    a112.intoArray(st, s1 + 24);
    a121.intoArray(st, s1 + 32);
    a122.intoArray(st, s1 + 40);
    a131.intoArray(st, s1 + 48);
    a132.intoArray(st, s1 + 56);
    a141.intoArray(st, s1 + 64);
    a142.intoArray(st, s1 + 72);
    a151.intoArray(st, s1 + 80);
    a152.intoArray(st, s1 + 88);
  }

  @Override
  public void mac1x4(int rows, double[] u0, int uOff, double[] v, int vOff,
      int vStride, double[] st, int stOff, int stStride) {
    if (!wide) {
      VmpKernel.super.mac1x4(rows, u0, uOff, v, vOff, vStride, st, stOff, stStride);
      return;
    }
    final int s0 = stOff + 0;
    DoubleVector a001 = DoubleVector.fromArray(S8, st, s0 + 0);
    DoubleVector a002 = DoubleVector.fromArray(S8, st, s0 + 8);
    DoubleVector a011 = DoubleVector.fromArray(S8, st, s0 + 16);
    DoubleVector a012 = DoubleVector.fromArray(S8, st, s0 + 24);
    DoubleVector a021 = DoubleVector.fromArray(S8, st, s0 + 32);
    DoubleVector a022 = DoubleVector.fromArray(S8, st, s0 + 40);
    DoubleVector a031 = DoubleVector.fromArray(S8, st, s0 + 48);
    DoubleVector a032 = DoubleVector.fromArray(S8, st, s0 + 56);
    for (int r = 0; r < rows; r++) {
      final int uo = uOff + 8 * r;
      final int vo = vOff + vStride * r;
      DoubleVector x;
      x = DoubleVector.fromArray(S8, u0, uo);
      final DoubleVector x0r = x.rearrange(LO);
      final DoubleVector x0i = x.rearrange(HI);
      DoubleVector y;
      y = DoubleVector.fromArray(S8, v, vo);
      a001 = x0r.fma(y, a001);
      a002 = x0i.fma(y, a002);
      y = DoubleVector.fromArray(S8, v, vo + 8);
      a011 = x0r.fma(y, a011);
      a012 = x0i.fma(y, a012);
      y = DoubleVector.fromArray(S8, v, vo + 16);
      a021 = x0r.fma(y, a021);
      a022 = x0i.fma(y, a022);
      y = DoubleVector.fromArray(S8, v, vo + 24);
      a031 = x0r.fma(y, a031);
      a032 = x0i.fma(y, a032);
    }
    a001.intoArray(st, s0 + 0);
    a002.intoArray(st, s0 + 8);
    a011.intoArray(st, s0 + 16);
    a012.intoArray(st, s0 + 24);
    a021.intoArray(st, s0 + 32);
    a022.intoArray(st, s0 + 40);
    a031.intoArray(st, s0 + 48);
    a032.intoArray(st, s0 + 56);
  }

  @Override
  public void mac2x4(int rows, double[] u0, double[] u1, int uOff, double[] v, int vOff,
      int vStride, double[] st, int stOff, int stStride) {
    if (!wide) {
      VmpKernel.super.mac2x4(rows, u0, u1, uOff, v, vOff, vStride, st, stOff, stStride);
      return;
    }
    final int s0 = stOff + 0;
    final int s1 = stOff + stStride;
    DoubleVector a001 = DoubleVector.fromArray(S8, st, s0 + 0);
    DoubleVector a002 = DoubleVector.fromArray(S8, st, s0 + 8);
    DoubleVector a011 = DoubleVector.fromArray(S8, st, s0 + 16);
    DoubleVector a012 = DoubleVector.fromArray(S8, st, s0 + 24);
    DoubleVector a021 = DoubleVector.fromArray(S8, st, s0 + 32);
    DoubleVector a022 = DoubleVector.fromArray(S8, st, s0 + 40);
    DoubleVector a031 = DoubleVector.fromArray(S8, st, s0 + 48);
    DoubleVector a032 = DoubleVector.fromArray(S8, st, s0 + 56);
    DoubleVector a101 = DoubleVector.fromArray(S8, st, s1 + 0);
    DoubleVector a102 = DoubleVector.fromArray(S8, st, s1 + 8);
    DoubleVector a111 = DoubleVector.fromArray(S8, st, s1 + 16);
    DoubleVector a112 = DoubleVector.fromArray(S8, st, s1 + 24);
    DoubleVector a121 = DoubleVector.fromArray(S8, st, s1 + 32);
    DoubleVector a122 = DoubleVector.fromArray(S8, st, s1 + 40);
    DoubleVector a131 = DoubleVector.fromArray(S8, st, s1 + 48);
    DoubleVector a132 = DoubleVector.fromArray(S8, st, s1 + 56);
    for (int r = 0; r < rows; r++) {
      final int uo = uOff + 8 * r;
      final int vo = vOff + vStride * r;
      DoubleVector x;
      x = DoubleVector.fromArray(S8, u0, uo);
      final DoubleVector x0r = x.rearrange(LO);
      final DoubleVector x0i = x.rearrange(HI);
      x = DoubleVector.fromArray(S8, u1, uo);
      final DoubleVector x1r = x.rearrange(LO);
      final DoubleVector x1i = x.rearrange(HI);
      DoubleVector y;
      y = DoubleVector.fromArray(S8, v, vo);
      a001 = x0r.fma(y, a001);
      a002 = x0i.fma(y, a002);
      a101 = x1r.fma(y, a101);
      a102 = x1i.fma(y, a102);
      y = DoubleVector.fromArray(S8, v, vo + 8);
      a011 = x0r.fma(y, a011);
      a012 = x0i.fma(y, a012);
      a111 = x1r.fma(y, a111);
      a112 = x1i.fma(y, a112);
      y = DoubleVector.fromArray(S8, v, vo + 16);
      a021 = x0r.fma(y, a021);
      a022 = x0i.fma(y, a022);
      a121 = x1r.fma(y, a121);
      a122 = x1i.fma(y, a122);
      y = DoubleVector.fromArray(S8, v, vo + 24);
      a031 = x0r.fma(y, a031);
      a032 = x0i.fma(y, a032);
      a131 = x1r.fma(y, a131);
      a132 = x1i.fma(y, a132);
    }
    a001.intoArray(st, s0 + 0);
    a002.intoArray(st, s0 + 8);
    a011.intoArray(st, s0 + 16);
    a012.intoArray(st, s0 + 24);
    a021.intoArray(st, s0 + 32);
    a022.intoArray(st, s0 + 40);
    a031.intoArray(st, s0 + 48);
    a032.intoArray(st, s0 + 56);
    a101.intoArray(st, s1 + 0);
    a102.intoArray(st, s1 + 8);
    a111.intoArray(st, s1 + 16);
    a112.intoArray(st, s1 + 24);
    a121.intoArray(st, s1 + 32);
    a122.intoArray(st, s1 + 40);
    a131.intoArray(st, s1 + 48);
    a132.intoArray(st, s1 + 56);
  }

  @Override
  public void mac2x2(int rows, double[] u0, double[] u1, int uOff, double[] v, int vOff,
      int vStride, double[] st, int stOff, int stStride) {
    if (!wide) {
      VmpKernel.super.mac2x2(rows, u0, u1, uOff, v, vOff, vStride, st, stOff, stStride);
      return;
    }
    final int s0 = stOff + 0;
    final int s1 = stOff + stStride;
    DoubleVector a001 = DoubleVector.fromArray(S8, st, s0 + 0);
    DoubleVector a002 = DoubleVector.fromArray(S8, st, s0 + 8);
    DoubleVector a011 = DoubleVector.fromArray(S8, st, s0 + 16);
    DoubleVector a012 = DoubleVector.fromArray(S8, st, s0 + 24);
    DoubleVector a101 = DoubleVector.fromArray(S8, st, s1 + 0);
    DoubleVector a102 = DoubleVector.fromArray(S8, st, s1 + 8);
    DoubleVector a111 = DoubleVector.fromArray(S8, st, s1 + 16);
    DoubleVector a112 = DoubleVector.fromArray(S8, st, s1 + 24);
    for (int r = 0; r < rows; r++) {
      final int uo = uOff + 8 * r;
      final int vo = vOff + vStride * r;
      DoubleVector x;
      x = DoubleVector.fromArray(S8, u0, uo);
      final DoubleVector x0r = x.rearrange(LO);
      final DoubleVector x0i = x.rearrange(HI);
      x = DoubleVector.fromArray(S8, u1, uo);
      final DoubleVector x1r = x.rearrange(LO);
      final DoubleVector x1i = x.rearrange(HI);
      DoubleVector y;
      y = DoubleVector.fromArray(S8, v, vo);
      a001 = x0r.fma(y, a001);
      a002 = x0i.fma(y, a002);
      a101 = x1r.fma(y, a101);
      a102 = x1i.fma(y, a102);
      y = DoubleVector.fromArray(S8, v, vo + 8);
      a011 = x0r.fma(y, a011);
      a012 = x0i.fma(y, a012);
      a111 = x1r.fma(y, a111);
      a112 = x1i.fma(y, a112);
    }
    a001.intoArray(st, s0 + 0);
    a002.intoArray(st, s0 + 8);
    a011.intoArray(st, s0 + 16);
    a012.intoArray(st, s0 + 24);
    a101.intoArray(st, s1 + 0);
    a102.intoArray(st, s1 + 8);
    a111.intoArray(st, s1 + 16);
    a112.intoArray(st, s1 + 24);
  }

  @Override
  public void mac2x1(int rows, double[] u0, double[] u1, int uOff, double[] v, int vOff,
      int vStride, double[] st, int stOff, int stStride) {
    if (!wide) {
      VmpKernel.super.mac2x1(rows, u0, u1, uOff, v, vOff, vStride, st, stOff, stStride);
      return;
    }
    final int s0 = stOff + 0;
    final int s1 = stOff + stStride;
    DoubleVector a001 = DoubleVector.fromArray(S8, st, s0 + 0);
    DoubleVector a002 = DoubleVector.fromArray(S8, st, s0 + 8);
    DoubleVector a101 = DoubleVector.fromArray(S8, st, s1 + 0);
    DoubleVector a102 = DoubleVector.fromArray(S8, st, s1 + 8);
    for (int r = 0; r < rows; r++) {
      final int uo = uOff + 8 * r;
      final int vo = vOff + vStride * r;
      DoubleVector x;
      x = DoubleVector.fromArray(S8, u0, uo);
      final DoubleVector x0r = x.rearrange(LO);
      final DoubleVector x0i = x.rearrange(HI);
      x = DoubleVector.fromArray(S8, u1, uo);
      final DoubleVector x1r = x.rearrange(LO);
      final DoubleVector x1i = x.rearrange(HI);
      DoubleVector y;
      y = DoubleVector.fromArray(S8, v, vo);
      a001 = x0r.fma(y, a001);
      a002 = x0i.fma(y, a002);
      a101 = x1r.fma(y, a101);
      a102 = x1i.fma(y, a102);
    }
    a001.intoArray(st, s0 + 0);
    a002.intoArray(st, s0 + 8);
    a101.intoArray(st, s1 + 0);
    a102.intoArray(st, s1 + 8);
  }

  @Override
  public void packTile(double[] v, int nrows, int ncols, int block, int r0, int rows,
      double[] dst, int dstOff) {
    final int w = 8 * ncols;
    final int base = block * 8 * nrows * ncols;
    final int pairs = ncols / 2;
    for (int i = 0; i < rows; i++) {
      int src = base + 16 * (r0 + i);
      int d = dstOff + w * i;
      for (int j = 0; j < pairs; j++, src += 16 * nrows, d += 16) {
        DoubleVector.fromArray(S4, v, src).intoArray(dst, d);
        DoubleVector.fromArray(S4, v, src + 4).intoArray(dst, d + 4);
        DoubleVector.fromArray(S4, v, src + 8).intoArray(dst, d + 8);
        DoubleVector.fromArray(S4, v, src + 12).intoArray(dst, d + 12);
      }
    }
    if ((ncols & 1) == 1) {
      int src = base + (ncols - 1) * 8 * nrows + 8 * r0;
      int d = dstOff + 8 * (ncols - 1);
      for (int i = 0; i < rows; i++, src += 8, d += w) {
        DoubleVector.fromArray(S4, v, src).intoArray(dst, d);
        DoubleVector.fromArray(S4, v, src + 4).intoArray(dst, d + 4);
      }
    }
  }
}
