package org.jpir.vmp;

/**
 * The hot inner loops of the vector-matrix products (an internal service interface: public only
 * so that {@code org.jpir.vmp.panama} can implement it; use {@link Vmp}, {@link Reim4} and
 * {@link VmpKernels} instead). Implementations: the scalar {@code RefVmp} and the Vector API
 * {@code org.jpir.vmp.panama.PanamaVmp}. Methods do not check arguments and never allocate.
 *
 * <h2>Accumulator state</h2>
 *
 * The multiply-accumulate methods sum complex products of reim4 blocks over rows, lane by lane,
 * into a 16-double <em>state</em> per (vector, matrix column) pair, at {@code st[s + i]}:
 *
 * <pre>
 *   st[s +      k] += ure[k]*vre[k]      st[s +  8 + k] += uim[k]*vre[k]
 *   st[s +  4 + k] += ure[k]*vim[k]      st[s + 12 + k] += uim[k]*vim[k]     (0 &lt;= k &lt; 4)
 * </pre>
 *
 * where row r's vector block is {@code ure[k] = u[uOff + 8r + k]}, {@code uim[k] = u[uOff + 8r +
 * 4 + k]} and its matrix block is {@code vre[k] = v[vOff + vStride*r + k]}, {@code vim[k] =
 * v[vOff + vStride*r + 4 + k]}. Every {@code +=} is one fused multiply-add ({@link Math#fma}),
 * applied in increasing row order. Each of the 16 lanes is therefore one fixed FMA chain, so
 * every implementation, every grouping of columns and every split of the rows into consecutive
 * tiles (carrying the state across) gives bitwise identical states. The complex sum is then
 * {@code re[k] = st[s+k] - st[s+12+k]}, {@code im[k] = st[s+4+k] + st[s+8+k]} (see {@link
 * Vmp}).
 */
public interface VmpKernel {

  /** Short name for logs and benchmark tables ({@code "ref"}, {@code "panama512"}, ...). */
  String name();

  /**
   * reim4 extraction: for {@code r < nrows}, {@code dst[dstOff + 8r + k] = src[srcOff + r*n + 4b
   * + k]} and {@code dst[dstOff + 8r + 4 + k] = src[srcOff + r*n + n/2 + 4b + k]}, k &lt; 4.
   */
  default void extractBlock(
      int n, int block, int nrows, double[] src, int srcOff, double[] dst, int dstOff) {
    int m = n >> 1;
    int re = srcOff + 4 * block;
    int im = re + m;
    for (int r = 0; r < nrows; r++) {
      int d = dstOff + 8 * r;
      int s = r * n;
      for (int k = 0; k < 4; k++) {
        dst[d + k] = src[re + s + k];
        dst[d + 4 + k] = src[im + s + k];
      }
    }
  }

  /** The inverse of {@link #extractBlock} (with ncols in place of nrows). */
  default void saveBlock(
      int n, int block, int ncols, double[] src, int srcOff, double[] dst, int dstOff) {
    int m = n >> 1;
    int re = dstOff + 4 * block;
    int im = re + m;
    for (int c = 0; c < ncols; c++) {
      int s = srcOff + 8 * c;
      int d = c * n;
      for (int k = 0; k < 4; k++) {
        dst[re + d + k] = src[s + k];
        dst[im + d + k] = src[s + 4 + k];
      }
    }
  }

  /** One vector x one matrix column: state at {@code st[stOff..stOff+16)}. */
  void mac1(int rows, double[] u, int uOff, double[] v, int vOff, int vStride, double[] st,
      int stOff);

  /**
   * One vector x a PMAT column pair (vStride 16, column 0 at vOff, column 1 at vOff + 8): states
   * at {@code stOff} and {@code stOff + 16}.
   */
  default void mac2(int rows, double[] u, int uOff, double[] v, int vOff, double[] st,
      int stOff) {
    mac1(rows, u, uOff, v, vOff, 16, st, stOff);
    mac1(rows, u, uOff, v, vOff + 8, 16, st, stOff + 16);
  }

  /**
   * One vector x two PMAT column pairs (vStride 16, pairs at vOff0 and vOff1): states of the four
   * columns at {@code stOff + 16j}, j &lt; 4.
   */
  default void mac1x4(int rows, double[] u, int uOff, double[] v, int vOff0, int vOff1,
      double[] st, int stOff) {
    mac2(rows, u, uOff, v, vOff0, st, stOff);
    mac2(rows, u, uOff, v, vOff1, st, stOff + 32);
  }

  /**
   * Three vectors (same offset uOff in u0, u1, u2) x two PMAT column pairs: state of vector i,
   * column j at {@code stOff + i*stStride + 16j}.
   */
  default void mac3x4(int rows, double[] u0, double[] u1, double[] u2, int uOff, double[] v,
      int vOff0, int vOff1, double[] st, int stOff, int stStride) {
    mac1x4(rows, u0, uOff, v, vOff0, vOff1, st, stOff);
    mac1x4(rows, u1, uOff, v, vOff0, vOff1, st, stOff + stStride);
    mac1x4(rows, u2, uOff, v, vOff0, vOff1, st, stOff + 2 * stStride);
  }

  /** Three vectors x one matrix column: state of vector i at {@code stOff + i*stStride}. */
  default void mac3x1(int rows, double[] u0, double[] u1, double[] u2, int uOff, double[] v,
      int vOff, int vStride, double[] st, int stOff, int stStride) {
    mac1(rows, u0, uOff, v, vOff, vStride, st, stOff);
    mac1(rows, u1, uOff, v, vOff, vStride, st, stOff + stStride);
    mac1(rows, u2, uOff, v, vOff, vStride, st, stOff + 2 * stStride);
  }
}
