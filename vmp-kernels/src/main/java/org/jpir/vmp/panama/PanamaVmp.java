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
 * accumulators per (vector, column). The multi-column tile ({@link #mac3x4}) keeps 3 x 4 x 2 =
 * 24 accumulators in registers.
 *
 * <p>256-bit path (AVX2 machines, or forced): re and im halves are separate 256-bit vectors,
 * four accumulators per (vector, column); it overrides {@link #mac1} and {@link #mac2} and
 * composes the wider tiles from them (AVX2 has 16 registers: wider register blocks spill).
 */
public final class PanamaVmp implements VmpKernel {
  private static final VectorSpecies<Double> S8 = DoubleVector.SPECIES_512;
  private static final VectorSpecies<Double> S4 = DoubleVector.SPECIES_256;
  private static final VectorShuffle<Double> LO =
      VectorShuffle.fromValues(S8, 0, 1, 2, 3, 0, 1, 2, 3);
  private static final VectorShuffle<Double> HI =
      VectorShuffle.fromValues(S8, 4, 5, 6, 7, 4, 5, 6, 7);

  private final boolean wide;

  /** Uses the 512-bit path when the preferred species has at least 512 bits, else 256. */
  public PanamaVmp() {
    this(DoubleVector.SPECIES_PREFERRED.vectorBitSize() >= 512 ? 512 : 256);
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
    if (wide) {
      DoubleVector a1 = DoubleVector.fromArray(S8, st, stOff);
      DoubleVector a2 = DoubleVector.fromArray(S8, st, stOff + 8);
      for (int r = 0, uo = uOff, vo = vOff; r < rows; r++, uo += 8, vo += vStride) {
        DoubleVector x = DoubleVector.fromArray(S8, u, uo);
        DoubleVector y = DoubleVector.fromArray(S8, v, vo);
        a1 = x.rearrange(LO).fma(y, a1);
        a2 = x.rearrange(HI).fma(y, a2);
      }
      a1.intoArray(st, stOff);
      a2.intoArray(st, stOff + 8);
    } else {
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
  }

  @Override
  public void mac2(int rows, double[] u, int uOff, double[] v, int vOff, double[] st,
      int stOff) {
    if (wide) {
      DoubleVector a1 = DoubleVector.fromArray(S8, st, stOff);
      DoubleVector a2 = DoubleVector.fromArray(S8, st, stOff + 8);
      DoubleVector b1 = DoubleVector.fromArray(S8, st, stOff + 16);
      DoubleVector b2 = DoubleVector.fromArray(S8, st, stOff + 24);
      for (int r = 0, uo = uOff, vo = vOff; r < rows; r++, uo += 8, vo += 16) {
        DoubleVector x = DoubleVector.fromArray(S8, u, uo);
        DoubleVector xr = x.rearrange(LO);
        DoubleVector xi = x.rearrange(HI);
        DoubleVector y0 = DoubleVector.fromArray(S8, v, vo);
        DoubleVector y1 = DoubleVector.fromArray(S8, v, vo + 8);
        a1 = xr.fma(y0, a1);
        a2 = xi.fma(y0, a2);
        b1 = xr.fma(y1, b1);
        b2 = xi.fma(y1, b2);
      }
      a1.intoArray(st, stOff);
      a2.intoArray(st, stOff + 8);
      b1.intoArray(st, stOff + 16);
      b2.intoArray(st, stOff + 24);
    } else {
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
  }

  @Override
  public void mac1x4(int rows, double[] u, int uOff, double[] v, int vOff0, int vOff1,
      double[] st, int stOff) {
    if (!wide) {
      VmpKernel.super.mac1x4(rows, u, uOff, v, vOff0, vOff1, st, stOff);
      return;
    }
    DoubleVector a1 = DoubleVector.fromArray(S8, st, stOff);
    DoubleVector a2 = DoubleVector.fromArray(S8, st, stOff + 8);
    DoubleVector b1 = DoubleVector.fromArray(S8, st, stOff + 16);
    DoubleVector b2 = DoubleVector.fromArray(S8, st, stOff + 24);
    DoubleVector c1 = DoubleVector.fromArray(S8, st, stOff + 32);
    DoubleVector c2 = DoubleVector.fromArray(S8, st, stOff + 40);
    DoubleVector d1 = DoubleVector.fromArray(S8, st, stOff + 48);
    DoubleVector d2 = DoubleVector.fromArray(S8, st, stOff + 56);
    for (int r = 0, uo = uOff, p = vOff0, q = vOff1; r < rows; r++, uo += 8, p += 16, q += 16) {
      DoubleVector x = DoubleVector.fromArray(S8, u, uo);
      DoubleVector xr = x.rearrange(LO);
      DoubleVector xi = x.rearrange(HI);
      DoubleVector y = DoubleVector.fromArray(S8, v, p);
      a1 = xr.fma(y, a1);
      a2 = xi.fma(y, a2);
      y = DoubleVector.fromArray(S8, v, p + 8);
      b1 = xr.fma(y, b1);
      b2 = xi.fma(y, b2);
      y = DoubleVector.fromArray(S8, v, q);
      c1 = xr.fma(y, c1);
      c2 = xi.fma(y, c2);
      y = DoubleVector.fromArray(S8, v, q + 8);
      d1 = xr.fma(y, d1);
      d2 = xi.fma(y, d2);
    }
    a1.intoArray(st, stOff);
    a2.intoArray(st, stOff + 8);
    b1.intoArray(st, stOff + 16);
    b2.intoArray(st, stOff + 24);
    c1.intoArray(st, stOff + 32);
    c2.intoArray(st, stOff + 40);
    d1.intoArray(st, stOff + 48);
    d2.intoArray(st, stOff + 56);
  }

  @Override
  public void mac3x4(int rows, double[] u0, double[] u1, double[] u2, int uOff, double[] v,
      int vOff0, int vOff1, double[] st, int stOff, int stStride) {
    if (!wide) {
      VmpKernel.super.mac3x4(rows, u0, u1, u2, uOff, v, vOff0, vOff1, st, stOff, stStride);
      return;
    }
    final int s0 = stOff;
    final int s1 = stOff + stStride;
    final int s2 = stOff + 2 * stStride;
    // accumulators: x<i><j><h>: vector i, column j, half h (1 = [re*vre|re*vim], 2 = [im*..])
    DoubleVector a001 = DoubleVector.fromArray(S8, st, s0);
    DoubleVector a002 = DoubleVector.fromArray(S8, st, s0 + 8);
    DoubleVector a011 = DoubleVector.fromArray(S8, st, s0 + 16);
    DoubleVector a012 = DoubleVector.fromArray(S8, st, s0 + 24);
    DoubleVector a021 = DoubleVector.fromArray(S8, st, s0 + 32);
    DoubleVector a022 = DoubleVector.fromArray(S8, st, s0 + 40);
    DoubleVector a031 = DoubleVector.fromArray(S8, st, s0 + 48);
    DoubleVector a032 = DoubleVector.fromArray(S8, st, s0 + 56);
    DoubleVector a101 = DoubleVector.fromArray(S8, st, s1);
    DoubleVector a102 = DoubleVector.fromArray(S8, st, s1 + 8);
    DoubleVector a111 = DoubleVector.fromArray(S8, st, s1 + 16);
    DoubleVector a112 = DoubleVector.fromArray(S8, st, s1 + 24);
    DoubleVector a121 = DoubleVector.fromArray(S8, st, s1 + 32);
    DoubleVector a122 = DoubleVector.fromArray(S8, st, s1 + 40);
    DoubleVector a131 = DoubleVector.fromArray(S8, st, s1 + 48);
    DoubleVector a132 = DoubleVector.fromArray(S8, st, s1 + 56);
    DoubleVector a201 = DoubleVector.fromArray(S8, st, s2);
    DoubleVector a202 = DoubleVector.fromArray(S8, st, s2 + 8);
    DoubleVector a211 = DoubleVector.fromArray(S8, st, s2 + 16);
    DoubleVector a212 = DoubleVector.fromArray(S8, st, s2 + 24);
    DoubleVector a221 = DoubleVector.fromArray(S8, st, s2 + 32);
    DoubleVector a222 = DoubleVector.fromArray(S8, st, s2 + 40);
    DoubleVector a231 = DoubleVector.fromArray(S8, st, s2 + 48);
    DoubleVector a232 = DoubleVector.fromArray(S8, st, s2 + 56);
    for (int r = 0, uo = uOff, p = vOff0, q = vOff1; r < rows; r++, uo += 8, p += 16, q += 16) {
      DoubleVector x = DoubleVector.fromArray(S8, u0, uo);
      DoubleVector x0r = x.rearrange(LO);
      DoubleVector x0i = x.rearrange(HI);
      x = DoubleVector.fromArray(S8, u1, uo);
      DoubleVector x1r = x.rearrange(LO);
      DoubleVector x1i = x.rearrange(HI);
      x = DoubleVector.fromArray(S8, u2, uo);
      DoubleVector x2r = x.rearrange(LO);
      DoubleVector x2i = x.rearrange(HI);
      DoubleVector y = DoubleVector.fromArray(S8, v, p);
      a001 = x0r.fma(y, a001);
      a002 = x0i.fma(y, a002);
      a101 = x1r.fma(y, a101);
      a102 = x1i.fma(y, a102);
      a201 = x2r.fma(y, a201);
      a202 = x2i.fma(y, a202);
      y = DoubleVector.fromArray(S8, v, p + 8);
      a011 = x0r.fma(y, a011);
      a012 = x0i.fma(y, a012);
      a111 = x1r.fma(y, a111);
      a112 = x1i.fma(y, a112);
      a211 = x2r.fma(y, a211);
      a212 = x2i.fma(y, a212);
      y = DoubleVector.fromArray(S8, v, q);
      a021 = x0r.fma(y, a021);
      a022 = x0i.fma(y, a022);
      a121 = x1r.fma(y, a121);
      a122 = x1i.fma(y, a122);
      a221 = x2r.fma(y, a221);
      a222 = x2i.fma(y, a222);
      y = DoubleVector.fromArray(S8, v, q + 8);
      a031 = x0r.fma(y, a031);
      a032 = x0i.fma(y, a032);
      a131 = x1r.fma(y, a131);
      a132 = x1i.fma(y, a132);
      a231 = x2r.fma(y, a231);
      a232 = x2i.fma(y, a232);
    }
    a001.intoArray(st, s0);
    a002.intoArray(st, s0 + 8);
    a011.intoArray(st, s0 + 16);
    a012.intoArray(st, s0 + 24);
    a021.intoArray(st, s0 + 32);
    a022.intoArray(st, s0 + 40);
    a031.intoArray(st, s0 + 48);
    a032.intoArray(st, s0 + 56);
    a101.intoArray(st, s1);
    a102.intoArray(st, s1 + 8);
    a111.intoArray(st, s1 + 16);
    a112.intoArray(st, s1 + 24);
    a121.intoArray(st, s1 + 32);
    a122.intoArray(st, s1 + 40);
    a131.intoArray(st, s1 + 48);
    a132.intoArray(st, s1 + 56);
    a201.intoArray(st, s2);
    a202.intoArray(st, s2 + 8);
    a211.intoArray(st, s2 + 16);
    a212.intoArray(st, s2 + 24);
    a221.intoArray(st, s2 + 32);
    a222.intoArray(st, s2 + 40);
    a231.intoArray(st, s2 + 48);
    a232.intoArray(st, s2 + 56);
  }

  @Override
  public void mac3x1(int rows, double[] u0, double[] u1, double[] u2, int uOff, double[] v,
      int vOff, int vStride, double[] st, int stOff, int stStride) {
    if (!wide) {
      VmpKernel.super.mac3x1(rows, u0, u1, u2, uOff, v, vOff, vStride, st, stOff, stStride);
      return;
    }
    final int s0 = stOff;
    final int s1 = stOff + stStride;
    final int s2 = stOff + 2 * stStride;
    DoubleVector a01 = DoubleVector.fromArray(S8, st, s0);
    DoubleVector a02 = DoubleVector.fromArray(S8, st, s0 + 8);
    DoubleVector a11 = DoubleVector.fromArray(S8, st, s1);
    DoubleVector a12 = DoubleVector.fromArray(S8, st, s1 + 8);
    DoubleVector a21 = DoubleVector.fromArray(S8, st, s2);
    DoubleVector a22 = DoubleVector.fromArray(S8, st, s2 + 8);
    for (int r = 0, uo = uOff, p = vOff; r < rows; r++, uo += 8, p += vStride) {
      DoubleVector y = DoubleVector.fromArray(S8, v, p);
      DoubleVector x = DoubleVector.fromArray(S8, u0, uo);
      a01 = x.rearrange(LO).fma(y, a01);
      a02 = x.rearrange(HI).fma(y, a02);
      x = DoubleVector.fromArray(S8, u1, uo);
      a11 = x.rearrange(LO).fma(y, a11);
      a12 = x.rearrange(HI).fma(y, a12);
      x = DoubleVector.fromArray(S8, u2, uo);
      a21 = x.rearrange(LO).fma(y, a21);
      a22 = x.rearrange(HI).fma(y, a22);
    }
    a01.intoArray(st, s0);
    a02.intoArray(st, s0 + 8);
    a11.intoArray(st, s1);
    a12.intoArray(st, s1 + 8);
    a21.intoArray(st, s2);
    a22.intoArray(st, s2 + 8);
  }
}
