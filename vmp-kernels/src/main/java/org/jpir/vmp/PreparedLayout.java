package org.jpir.vmp;

import java.util.function.IntToDoubleFunction;

/**
 * What a {@link Pmat} and a {@link Pvec} share: ring degree N, rows, and the backing array of
 * their reim4-block layout, whose index i is at {@code base() + i} ({@link Aligned#LEAD}: every
 * block starts on a 64-byte boundary).
 */
abstract sealed class PreparedLayout permits Pmat, Pvec {
  final int n;
  final int nrows;
  final double[] data;

  /** A zeroed layout of {@code length} doubles. */
  PreparedLayout(int n, int nrows, int length) {
    this.n = n;
    this.nrows = nrows;
    this.data = Aligned.doubles(length);
  }

  /** Ring degree N. */
  public int n() {
    return n;
  }

  /** Number of rows (polynomials per column). */
  public int nrows() {
    return nrows;
  }

  /** Number of doubles in the layout. */
  public int length() {
    return Aligned.length(data);
  }

  /** Bytes held: {@code 8 * length()}. */
  public long sizeBytes() {
    return 8L * length();
  }

  /** A copy of the doubles in the layout. */
  public double[] toArray() {
    return Aligned.copyOf(data);
  }

  /** Sets double {@code i} of the layout to {@code f(i)} for every i (benchmark inputs). */
  public void setAll(IntToDoubleFunction f) {
    Aligned.setAll(data, f);
  }

  /** The backing array (not a copy), for the kernels of this package: layout at {@link #base}. */
  double[] data() {
    return data;
  }

  /** Index in {@link #data} of the layout's double 0. */
  int base() {
    return Aligned.LEAD;
  }
}
