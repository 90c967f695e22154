package org.jpir.vmp;

/**
 * A prepared vector (PVEC) of {@code nrows} transformed polynomials in reim4-block order: block
 * {@code b}, row {@code r} at {@code data[b*8*nrows + 8r .. +8]} = {@code re[4b..4b+3],
 * im[4b..4b+3]} of row r's transform, the layout's index i at {@code base() + i} of the backing
 * array ({@link Aligned#LEAD}: every row block starts on a 64-byte boundary). {@code N*nrows}
 * doubles (must fit an int). This is
 * how database columns are stored: {@link Vmp#applyPvecToDft} reads a block of all rows as one
 * contiguous run.
 */
public final class Pvec extends PreparedLayout {
  private Pvec(int n, int nrows) {
    super(n, nrows, Math.toIntExact((long) n * nrows));
  }

  /**
   * A zeroed PVEC.
   *
   * @throws IllegalArgumentException if N is not supported, nrows &lt; 1, or N*nrows exceeds the
   *     largest Java array
   */
  public static Pvec allocate(int n, int nrows) {
    Checks.ringDegree(n);
    Checks.atLeast("Pvec nrows", nrows, 1);
    Pmat.checkSize("Pvec", (long) n * nrows);
    return new Pvec(n, nrows);
  }

  /** Index of block b, row r: {@code b*8*nrows + 8r}. */
  public static int offset(int n, int nrows, int block, int row) {
    return block * 8 * nrows + 8 * row;
  }

  /**
   * Converts, transforms and lays out nrows int64 polynomials, row r at {@code srcOff + r*N}.
   * Allocates one N-double scratch.
   */
  public void prepareFromZnx(long[] src, int srcOff) {
    Checks.range("Pvec.prepareFromZnx source", src, srcOff, (long) nrows * n);
    double[] buf = new double[n];
    FftPlan plan = FftPlan.of(n);
    for (int r = 0; r < nrows; r++) {
      Reim.fromZnx(n, src, srcOff + r * n, buf, 0);
      plan.fft(buf, 0);
      putRow(r, buf, 0);
    }
  }

  /** Lays out nrows already transformed reim polynomials, row r at {@code srcOff + r*N}. */
  public void prepareFromReim(double[] src, int srcOff) {
    Checks.range("Pvec.prepareFromReim source", src, srcOff, (long) nrows * n);
    for (int r = 0; r < nrows; r++) {
      putRow(r, src, srcOff + r * n);
    }
  }

  private void putRow(int r, double[] reim, int off) {
    int m = n / 2;
    for (int b = 0; b < m / 4; b++) {
      int d = Aligned.LEAD + b * 8 * nrows + 8 * r;
      System.arraycopy(reim, off + 4 * b, data, d, 4);
      System.arraycopy(reim, off + m + 4 * b, data, d + 4, 4);
    }
  }
}
