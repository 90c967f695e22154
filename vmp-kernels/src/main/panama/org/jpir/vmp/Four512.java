package org.jpir.vmp;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Four-product multi-column kernels on 512-bit vectors for panels of two matrix columns, {@code
 * f<V>x2}: V database vectors x 2 columns, states in the layout of {@link
 * VmpKernel#macFourWide}. A database row {@code x = (re[4] | im[4])} meets a panel entry {@code p
 * = (yr[4] | yi[4])} and its halves swapped {@code q = (yi | yr)}: {@code x*p} accumulates
 * {@code (rr | ii)} and {@code x*q} {@code (ri | ir)}, lane by lane the fused multiply-adds of
 * {@link VmpKernel#mac1}, in row order. Two FMAs per database vector and column, no
 * per-row shuffle of the database side (the Gauss form spends an add and a shuffle per row on
 * it): for two columns that is 4 operations per row and vector against the Gauss form's 5.
 */
final class Four512 {
  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_512;
  private static final VectorShuffle<Double> SWAP =
      VectorShuffle.fromValues(S, 4, 5, 6, 7, 0, 1, 2, 3);

  private Four512() {}

  /** 6 vectors x 2 columns (row stride 16): 24 accumulators; state of vector i at stOff + i*ss. */
  static void f6x2(int rows, double[] u0, double[] u1, double[] u2, double[] u3, double[] u4,
      double[] u5, int uOff, double[] v, int vOff, double[] st, int stOff, int ss) {
    DoubleVector a00 = DoubleVector.fromArray(S, st, stOff + 0 * ss + 0);
    DoubleVector b00 = DoubleVector.fromArray(S, st, stOff + 0 * ss + 0 + 8);
    DoubleVector a01 = DoubleVector.fromArray(S, st, stOff + 0 * ss + 16);
    DoubleVector b01 = DoubleVector.fromArray(S, st, stOff + 0 * ss + 16 + 8);
    DoubleVector a10 = DoubleVector.fromArray(S, st, stOff + 1 * ss + 0);
    DoubleVector b10 = DoubleVector.fromArray(S, st, stOff + 1 * ss + 0 + 8);
    DoubleVector a11 = DoubleVector.fromArray(S, st, stOff + 1 * ss + 16);
    DoubleVector b11 = DoubleVector.fromArray(S, st, stOff + 1 * ss + 16 + 8);
    DoubleVector a20 = DoubleVector.fromArray(S, st, stOff + 2 * ss + 0);
    DoubleVector b20 = DoubleVector.fromArray(S, st, stOff + 2 * ss + 0 + 8);
    DoubleVector a21 = DoubleVector.fromArray(S, st, stOff + 2 * ss + 16);
    DoubleVector b21 = DoubleVector.fromArray(S, st, stOff + 2 * ss + 16 + 8);
    DoubleVector a30 = DoubleVector.fromArray(S, st, stOff + 3 * ss + 0);
    DoubleVector b30 = DoubleVector.fromArray(S, st, stOff + 3 * ss + 0 + 8);
    DoubleVector a31 = DoubleVector.fromArray(S, st, stOff + 3 * ss + 16);
    DoubleVector b31 = DoubleVector.fromArray(S, st, stOff + 3 * ss + 16 + 8);
    DoubleVector a40 = DoubleVector.fromArray(S, st, stOff + 4 * ss + 0);
    DoubleVector b40 = DoubleVector.fromArray(S, st, stOff + 4 * ss + 0 + 8);
    DoubleVector a41 = DoubleVector.fromArray(S, st, stOff + 4 * ss + 16);
    DoubleVector b41 = DoubleVector.fromArray(S, st, stOff + 4 * ss + 16 + 8);
    DoubleVector a50 = DoubleVector.fromArray(S, st, stOff + 5 * ss + 0);
    DoubleVector b50 = DoubleVector.fromArray(S, st, stOff + 5 * ss + 0 + 8);
    DoubleVector a51 = DoubleVector.fromArray(S, st, stOff + 5 * ss + 16);
    DoubleVector b51 = DoubleVector.fromArray(S, st, stOff + 5 * ss + 16 + 8);
    for (int r = 0; r < rows; r++) {
      final int uo = uOff + 8 * r;
      final int vr = vOff + 16 * r;
      final DoubleVector p0 = DoubleVector.fromArray(S, v, vr);
      final DoubleVector q0 = p0.rearrange(SWAP);
      final DoubleVector p1 = DoubleVector.fromArray(S, v, vr + 8);
      final DoubleVector q1 = p1.rearrange(SWAP);
      final DoubleVector x0 = DoubleVector.fromArray(S, u0, uo);
      a00 = x0.fma(p0, a00);
      b00 = x0.fma(q0, b00);
      a01 = x0.fma(p1, a01);
      b01 = x0.fma(q1, b01);
      final DoubleVector x1 = DoubleVector.fromArray(S, u1, uo);
      a10 = x1.fma(p0, a10);
      b10 = x1.fma(q0, b10);
      a11 = x1.fma(p1, a11);
      b11 = x1.fma(q1, b11);
      final DoubleVector x2 = DoubleVector.fromArray(S, u2, uo);
      a20 = x2.fma(p0, a20);
      b20 = x2.fma(q0, b20);
      a21 = x2.fma(p1, a21);
      b21 = x2.fma(q1, b21);
      final DoubleVector x3 = DoubleVector.fromArray(S, u3, uo);
      a30 = x3.fma(p0, a30);
      b30 = x3.fma(q0, b30);
      a31 = x3.fma(p1, a31);
      b31 = x3.fma(q1, b31);
      final DoubleVector x4 = DoubleVector.fromArray(S, u4, uo);
      a40 = x4.fma(p0, a40);
      b40 = x4.fma(q0, b40);
      a41 = x4.fma(p1, a41);
      b41 = x4.fma(q1, b41);
      final DoubleVector x5 = DoubleVector.fromArray(S, u5, uo);
      a50 = x5.fma(p0, a50);
      b50 = x5.fma(q0, b50);
      a51 = x5.fma(p1, a51);
      b51 = x5.fma(q1, b51);
    }
    a00.intoArray(st, stOff + 0 * ss + 0);
    b00.intoArray(st, stOff + 0 * ss + 0 + 8);
    a01.intoArray(st, stOff + 0 * ss + 16);
    b01.intoArray(st, stOff + 0 * ss + 16 + 8);
    a10.intoArray(st, stOff + 1 * ss + 0);
    b10.intoArray(st, stOff + 1 * ss + 0 + 8);
    a11.intoArray(st, stOff + 1 * ss + 16);
    b11.intoArray(st, stOff + 1 * ss + 16 + 8);
    a20.intoArray(st, stOff + 2 * ss + 0);
    b20.intoArray(st, stOff + 2 * ss + 0 + 8);
    a21.intoArray(st, stOff + 2 * ss + 16);
    b21.intoArray(st, stOff + 2 * ss + 16 + 8);
    a30.intoArray(st, stOff + 3 * ss + 0);
    b30.intoArray(st, stOff + 3 * ss + 0 + 8);
    a31.intoArray(st, stOff + 3 * ss + 16);
    b31.intoArray(st, stOff + 3 * ss + 16 + 8);
    a40.intoArray(st, stOff + 4 * ss + 0);
    b40.intoArray(st, stOff + 4 * ss + 0 + 8);
    a41.intoArray(st, stOff + 4 * ss + 16);
    b41.intoArray(st, stOff + 4 * ss + 16 + 8);
    a50.intoArray(st, stOff + 5 * ss + 0);
    b50.intoArray(st, stOff + 5 * ss + 0 + 8);
    a51.intoArray(st, stOff + 5 * ss + 16);
    b51.intoArray(st, stOff + 5 * ss + 16 + 8);
  }

  /** 1 vector x 2 columns (row stride 16): 4 accumulators. */
  static void f1x2(int rows, double[] u0, int uOff, double[] v, int vOff, double[] st, int stOff,
      int ss) {
    DoubleVector a00 = DoubleVector.fromArray(S, st, stOff + 0 * ss + 0);
    DoubleVector b00 = DoubleVector.fromArray(S, st, stOff + 0 * ss + 0 + 8);
    DoubleVector a01 = DoubleVector.fromArray(S, st, stOff + 0 * ss + 16);
    DoubleVector b01 = DoubleVector.fromArray(S, st, stOff + 0 * ss + 16 + 8);
    for (int r = 0; r < rows; r++) {
      final int uo = uOff + 8 * r;
      final int vr = vOff + 16 * r;
      final DoubleVector p0 = DoubleVector.fromArray(S, v, vr);
      final DoubleVector q0 = p0.rearrange(SWAP);
      final DoubleVector p1 = DoubleVector.fromArray(S, v, vr + 8);
      final DoubleVector q1 = p1.rearrange(SWAP);
      final DoubleVector x0 = DoubleVector.fromArray(S, u0, uo);
      a00 = x0.fma(p0, a00);
      b00 = x0.fma(q0, b00);
      a01 = x0.fma(p1, a01);
      b01 = x0.fma(q1, b01);
    }
    a00.intoArray(st, stOff + 0 * ss + 0);
    b00.intoArray(st, stOff + 0 * ss + 0 + 8);
    a01.intoArray(st, stOff + 0 * ss + 16);
    b01.intoArray(st, stOff + 0 * ss + 16 + 8);
  }
}
