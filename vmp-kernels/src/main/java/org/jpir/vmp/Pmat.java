package org.jpir.vmp;

import java.util.Arrays;
import java.util.Objects;

/**
 * A prepared matrix (PMAT) of {@code nrows x ncols} transformed polynomials, in the spqlios
 * layout: reim4 blocks outermost, then column pairs, then rows. The 8 doubles {@code
 * re[4b..4b+3], im[4b..4b+3]} of the transform of polynomial (r, c) in block b start at
 *
 * <pre>
 *   b*8*nrows*ncols + (c/2)*16*nrows + 16r + 8*(c%2)
 * </pre>
 *
 * except that when ncols is odd the last column {@code c = ncols-1} is stored alone at {@code
 * b*8*nrows*ncols + c*8*nrows + 8r}. In the backing array, index i of this layout is at {@code
 * base() + i} ({@link Aligned#LEAD}: every block starts on a 64-byte boundary). {@code
 * N*nrows*ncols} doubles, which must fit a Java array (at most {@value #MAX_LENGTH} doubles:
 * e.g. N=4096, nrows=4096, ncols=12 is 2^27 * 1.5,
 * fine; N=16384, nrows=4096, ncols=32 is not).
 */
public final class Pmat extends PreparedLayout {
  /** Largest supported {@code N*nrows*ncols}. */
  public static final int MAX_LENGTH = Integer.MAX_VALUE - 16;

  private final int ncols;

  private Pmat(int n, int nrows, int ncols) {
    super(n, nrows, n * nrows * ncols);
    this.ncols = ncols;
  }

  /**
   * A zeroed PMAT.
   *
   * @throws IllegalArgumentException if N is not supported, nrows or ncols &lt; 1, or
   *     N*nrows*ncols exceeds {@link #MAX_LENGTH}
   */
  public static Pmat allocate(int n, int nrows, int ncols) {
    Checks.ringDegree(n);
    Checks.atLeast("Pmat nrows", nrows, 1);
    Checks.atLeast("Pmat ncols", ncols, 1);
    checkSize("Pmat", (long) n * nrows * ncols);
    return new Pmat(n, nrows, ncols);
  }

  static void checkSize(String what, long len) {
    if (len > MAX_LENGTH) {
      throw new IllegalArgumentException(what + " size N*nrows*ncols = " + len
          + " doubles does not fit one Java array (max " + MAX_LENGTH + ")");
    }
  }

  /** The index formula above (no checks). */
  public static int offset(int n, int nrows, int ncols, int block, int row, int col) {
    int base = block * 8 * nrows * ncols;
    if ((ncols & 1) == 1 && col == ncols - 1) {
      return base + col * 8 * nrows + 8 * row;
    }
    return base + (col / 2) * 16 * nrows + 16 * row + 8 * (col % 2);
  }

  /** Distance between consecutive rows of column col: 16, or 8 for an odd last column. */
  static int rowStride(int ncols, int col) {
    return ((ncols & 1) == 1 && col == ncols - 1) ? 8 : 16;
  }

  /** Number of columns. */
  public int ncols() {
    return ncols;
  }

  /**
   * Copies doubles {@code [from, from+len)} of the layout to {@code dst[dstOff ..]} (serialization
   * in chunks).
   *
   * @throws IndexOutOfBoundsException when a range is out of bounds
   */
  public void copyTo(int from, double[] dst, int dstOff, int len) {
    Objects.checkFromIndexSize(from, len, length());
    System.arraycopy(data, Aligned.LEAD + from, dst, dstOff, len);
  }

  /**
   * Overwrites doubles {@code [to, to+len)} of the layout with {@code src[srcOff ..]}
   * (deserialization in chunks).
   *
   * @throws IndexOutOfBoundsException when a range is out of bounds
   */
  public void copyFrom(double[] src, int srcOff, int to, int len) {
    Objects.checkFromIndexSize(to, len, length());
    System.arraycopy(src, srcOff, data, Aligned.LEAD + to, len);
  }

  /**
   * True when {@code other} has the same shape and equal doubles as {@link
   * Arrays#equals(double[], double[])} compares them (0.0 and -0.0 differ, NaNs are equal).
   */
  public boolean contentEquals(Pmat other) {
    return other != null && other.n == n && other.nrows == nrows && other.ncols == ncols
        && Arrays.equals(other.data, data);
  }

  /**
   * Converts, transforms and lays out all nrows*ncols int64 polynomials; polynomial (r, c) at
   * {@code srcOff + (r*ncols + c)*N}. Allocates one N-double scratch.
   */
  public void prepareFromZnx(long[] src, int srcOff) {
    Checks.range("Pmat.prepareFromZnx source", src, srcOff, (long) nrows * ncols * n);
    double[] buf = new double[n];
    FftPlan plan = FftPlan.of(n);
    for (int r = 0; r < nrows; r++) {
      for (int c = 0; c < ncols; c++) {
        Reim.fromZnx(n, src, srcOff + (r * ncols + c) * n, buf, 0);
        plan.fft(buf, 0);
        put(r, c, buf, 0);
      }
    }
  }

  /**
   * Lays out nrows*ncols already transformed reim polynomials, (r, c) at {@code srcOff +
   * (r*ncols + c)*N}.
   */
  public void prepareFromReim(double[] src, int srcOff) {
    Checks.range("Pmat.prepareFromReim source", src, srcOff, (long) nrows * ncols * n);
    for (int r = 0; r < nrows; r++) {
      for (int c = 0; c < ncols; c++) {
        put(r, c, src, srcOff + (r * ncols + c) * n);
      }
    }
  }

  /**
   * Lays out row {@code row}: its ncols transformed reim polynomials, column c at {@code off +
   * c*N}.
   */
  public void prepareRow(int row, double[] reim, int off) {
    if (row < 0 || row >= nrows) {
      throw new IllegalArgumentException("row = " + row + " out of range [0, " + nrows + ")");
    }
    Checks.range("Pmat.prepareRow source", reim, off, (long) ncols * n);
    for (int c = 0; c < ncols; c++) {
      put(row, c, reim, off + c * n);
    }
  }

  private void put(int r, int c, double[] reim, int off) {
    int m = n / 2;
    int d = Aligned.LEAD + offset(n, nrows, ncols, 0, r, c);
    int stride = 8 * nrows * ncols; // from block b to b + 1
    double[] v = data;
    for (int b = 0, re = off, im = off + m; b < m / 4; b++, d += stride, re += 4, im += 4) {
      v[d] = reim[re];
      v[d + 1] = reim[re + 1];
      v[d + 2] = reim[re + 2];
      v[d + 3] = reim[re + 3];
      v[d + 4] = reim[im];
      v[d + 5] = reim[im + 1];
      v[d + 6] = reim[im + 2];
      v[d + 7] = reim[im + 3];
    }
  }
}
