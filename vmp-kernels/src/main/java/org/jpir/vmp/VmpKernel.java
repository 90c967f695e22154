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

  /**
   * Extracts blocks {@code block0 .. block0+nblocks-1} of nrows reim vectors (row r at {@code
   * srcOff + r*n}) row by row (each row read once, sequentially): block {@code block0 + g}, row
   * r lands at {@code dst[dstOff + g*8*nrows + 8r ..]} as in {@link #extractBlock}.
   */
  default void extractBlocks(int n, int block0, int nblocks, int nrows, double[] src,
      int srcOff, double[] dst, int dstOff) {
    int m = n >> 1;
    for (int r = 0; r < nrows; r++) {
      int re = srcOff + r * n + 4 * block0;
      int im = re + m;
      for (int g = 0; g < nblocks; g++) {
        int d = dstOff + g * 8 * nrows + 8 * r;
        for (int k = 0; k < 4; k++) {
          dst[d + k] = src[re + 4 * g + k];
          dst[d + 4 + k] = src[im + 4 * g + k];
        }
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

  // The register-blocked tiles of the multi-column pass. They read a packed matrix tile: row r,
  // column j at v[vOff + vStride*r + 8j .. +8] (reim4 block); vector i row r at
  // u_i[uOff + 8r ..]; state of (vector i, column j) at st[stOff + i*stStride + 16j ..].

  /** Two vectors x six consecutive packed columns. */
  default void mac2x6(int rows, double[] u0, double[] u1, int uOff, double[] v, int vOff, int vStride,
      double[] st, int stOff, int stStride) {
    mac1(rows, u0, uOff, v, vOff, vStride, st, stOff);
    mac1(rows, u0, uOff, v, vOff + 8, vStride, st, stOff + 16);
    mac1(rows, u0, uOff, v, vOff + 16, vStride, st, stOff + 32);
    mac1(rows, u0, uOff, v, vOff + 24, vStride, st, stOff + 48);
    mac1(rows, u0, uOff, v, vOff + 32, vStride, st, stOff + 64);
    mac1(rows, u0, uOff, v, vOff + 40, vStride, st, stOff + 80);
    mac1(rows, u1, uOff, v, vOff, vStride, st, stOff + stStride + 0);
    mac1(rows, u1, uOff, v, vOff + 8, vStride, st, stOff + stStride + 16);
    mac1(rows, u1, uOff, v, vOff + 16, vStride, st, stOff + stStride + 32);
    mac1(rows, u1, uOff, v, vOff + 24, vStride, st, stOff + stStride + 48);
    mac1(rows, u1, uOff, v, vOff + 32, vStride, st, stOff + stStride + 64);
    mac1(rows, u1, uOff, v, vOff + 40, vStride, st, stOff + stStride + 80);
  }

  /** One vector x four consecutive packed columns. */
  default void mac1x4(int rows, double[] u0, int uOff, double[] v, int vOff, int vStride,
      double[] st, int stOff, int stStride) {
    mac1(rows, u0, uOff, v, vOff, vStride, st, stOff);
    mac1(rows, u0, uOff, v, vOff + 8, vStride, st, stOff + 16);
    mac1(rows, u0, uOff, v, vOff + 16, vStride, st, stOff + 32);
    mac1(rows, u0, uOff, v, vOff + 24, vStride, st, stOff + 48);
  }

  /** Two vectors x four consecutive packed columns. */
  default void mac2x4(int rows, double[] u0, double[] u1, int uOff, double[] v, int vOff, int vStride,
      double[] st, int stOff, int stStride) {
    mac1(rows, u0, uOff, v, vOff, vStride, st, stOff);
    mac1(rows, u0, uOff, v, vOff + 8, vStride, st, stOff + 16);
    mac1(rows, u0, uOff, v, vOff + 16, vStride, st, stOff + 32);
    mac1(rows, u0, uOff, v, vOff + 24, vStride, st, stOff + 48);
    mac1(rows, u1, uOff, v, vOff, vStride, st, stOff + stStride + 0);
    mac1(rows, u1, uOff, v, vOff + 8, vStride, st, stOff + stStride + 16);
    mac1(rows, u1, uOff, v, vOff + 16, vStride, st, stOff + stStride + 32);
    mac1(rows, u1, uOff, v, vOff + 24, vStride, st, stOff + stStride + 48);
  }

  /** Two vectors x two consecutive packed columns. */
  default void mac2x2(int rows, double[] u0, double[] u1, int uOff, double[] v, int vOff, int vStride,
      double[] st, int stOff, int stStride) {
    mac1(rows, u0, uOff, v, vOff, vStride, st, stOff);
    mac1(rows, u0, uOff, v, vOff + 8, vStride, st, stOff + 16);
    mac1(rows, u1, uOff, v, vOff, vStride, st, stOff + stStride + 0);
    mac1(rows, u1, uOff, v, vOff + 8, vStride, st, stOff + stStride + 16);
  }

  /** Two vectors x one packed column. */
  default void mac2x1(int rows, double[] u0, double[] u1, int uOff, double[] v, int vOff, int vStride,
      double[] st, int stOff, int stStride) {
    mac1(rows, u0, uOff, v, vOff, vStride, st, stOff);
    mac1(rows, u1, uOff, v, vOff, vStride, st, stOff + stStride + 0);
  }

  /**
   * Packs rows [r0, r0+rows) of block b of a PMAT (N, nrows, ncols; data at v) into a row-major
   * tile: {@code dst[dstOff + 8*ncols*i + 8c .. +8] = v[Pmat.offset(n, nrows, ncols, b, r0 + i,
   * c) .. +8]}.
   */
  default void packTile(double[] v, int nrows, int ncols, int block, int r0, int rows,
      double[] dst, int dstOff) {
    final int w = 8 * ncols;
    final int base = block * 8 * nrows * ncols;
    final int pairs = ncols / 2;
    for (int j = 0; j < pairs; j++) {
      int src = base + j * 16 * nrows + 16 * r0;
      int d = dstOff + 16 * j;
      for (int i = 0; i < rows; i++, src += 16, d += w) {
        System.arraycopy(v, src, dst, d, 16);
      }
    }
    if ((ncols & 1) == 1) {
      int src = base + (ncols - 1) * 8 * nrows + 8 * r0;
      int d = dstOff + 8 * (ncols - 1);
      for (int i = 0; i < rows; i++, src += 8, d += w) {
        System.arraycopy(v, src, dst, d, 8);
      }
    }
  }
}
