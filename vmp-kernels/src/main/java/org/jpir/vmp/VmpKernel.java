package org.jpir.vmp;

/**
 * The hot inner loops of the vector-matrix products (an internal service interface handed out by
 * {@link KernelProvider}; callers use {@link Vmp} and {@link Reim4}). Implementations: the scalar
 * {@code RefVmp} and the Vector API {@code PanamaVmp} and {@code Panama128Vmp} (source root
 * {@code src/main/panama}). Methods do not check arguments and never allocate.
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
 *
 * <p>The multi-column pass ({@link Vmp#applyPvecBatch}) tiles the product like a GEMM ({@link
 * Vmp.Tiling}) and calls {@link #macTile} on packed panels ({@link #packPanels}) with the
 * kernel's register {@link #block()}; the per-column applies call {@link #mac2Out} and {@link
 * #mac1Out}, which start from zero states and write the finished sums directly.
 */
interface VmpKernel {

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

  /**
   * One vector x a PMAT column pair from zero states, finished into a result: for column 0,
   * {@code res[re0 + k] = S_rr[k] - S_ii[k]} and {@code res[re0 + half + k] = S_ri[k] +
   * S_ir[k]} (k &lt; 4; {@code +=} when add), the same for column 1 at {@code re1}; the states
   * S are those {@link #mac2} would accumulate from zero. {@code st}: 32 doubles of scratch
   * (implementations may ignore it).
   */
  default void mac2Out(int rows, double[] u, int uOff, double[] v, int vOff, double[] res,
      int re0, int re1, int half, boolean add, double[] st) {
    java.util.Arrays.fill(st, 0, 32, 0.0);
    mac2(rows, u, uOff, v, vOff, st, 0);
    finishState(st, 0, res, re0, half, add);
    finishState(st, 16, res, re1, half, add);
  }

  /** {@link #mac2Out} for one column with row stride vStride (as {@link #mac1}). */
  default void mac1Out(int rows, double[] u, int uOff, double[] v, int vOff, int vStride,
      double[] res, int re0, int half, boolean add, double[] st) {
    java.util.Arrays.fill(st, 0, 16, 0.0);
    mac1(rows, u, uOff, v, vOff, vStride, st, 0);
    finishState(st, 0, res, re0, half, add);
  }

  /** {@link #finishState} without add: {@code dst[re + k] = S_rr - S_ii}, imaginary at + half. */
  default void finish(double[] st, int s, double[] dst, int re, int half) {
    finishState(st, s, dst, re, half, false);
  }

  /**
   * Writes (or adds) the complex sums of the state at {@code st[s..s+16)}: {@code dst[re + k]
   * (+)= st[s+k] - st[s+12+k]}, {@code dst[re + half + k] (+)= st[s+4+k] + st[s+8+k]}.
   */
  static void finishState(double[] st, int s, double[] dst, int re, int half, boolean add) {
    int im = re + half;
    if (add) {
      for (int i = 0; i < 4; i++) {
        dst[re + i] += st[s + i] - st[s + 12 + i];
        dst[im + i] += st[s + 4 + i] + st[s + 8 + i];
      }
    } else {
      for (int i = 0; i < 4; i++) {
        dst[re + i] = st[s + i] - st[s + 12 + i];
        dst[im + i] = st[s + 4 + i] + st[s + 8 + i];
      }
    }
  }

  /**
   * The register block {@link #macTile} is fastest at; {@link Vmp} tiles the multi-column
   * pass by it (the results do not depend on it). The reference reports {@link
   * VmpBlock#B512_2X6}.
   */
  default VmpBlock block() {
    return VmpBlock.B512_2X6;
  }

  /**
   * The register-blocked tile of the multi-column pass: {@code vectors} (1 or 2) database vectors
   * x {@code cols} (at least 1) consecutive matrix columns of a packed panel, summed over {@code
   * rows} rows. Panel row r, column j at {@code v[vOff + 8*cols*r + 8j .. +8]} (reim4 block, see
   * {@link #packPanels}); vector i row r at {@code u_i[uOff + 8r ..]} ({@code u1} unused when
   * vectors = 1); the state of (vector i, column j) at {@code st[stOff + i*stStride + 16j ..]}.
   * Each state follows the contract above, exactly as {@link #mac1} on that vector and column.
   */
  default void macTile(int vectors, int cols, int rows, double[] u0, double[] u1, int uOff,
      double[] v, int vOff, double[] st, int stOff, int stStride) {
    for (int i = 0; i < vectors; i++) {
      double[] u = i == 0 ? u0 : u1;
      for (int j = 0; j < cols; j++) {
        mac1(rows, u, uOff, v, vOff + 8 * j, 8 * cols, st, stOff + i * stStride + 16 * j);
      }
    }
  }

  /**
   * {@link #macTile} on matrix columns read in place from a PMAT: column j, row r at {@code
   * v[vOffs[j] + 16r .. +8]} (a paired column of {@link Pmat}). Same states as {@link #macTile}.
   */
  default void macTileInPlace(int vectors, int cols, int rows, double[] u0, double[] u1,
      int uOff, double[] v, int[] vOffs, double[] st, int stOff, int stStride) {
    for (int i = 0; i < vectors; i++) {
      double[] u = i == 0 ? u0 : u1;
      for (int j = 0; j < cols; j++) {
        mac1(rows, u, uOff, v, vOffs[j], 16, st, stOff + i * stStride + 16 * j);
      }
    }
  }

  /**
   * Reads runs r &lt; {@code runs}, {@code a[r][off[r] .. off[r]+len)}, once, as fast as the
   * core can stream them, and returns a value computed from them (callers publish it so the
   * reads cannot be dropped): the multi-column pass calls it just before a tile works on those
   * doubles, so that they come from L2 rather than from DRAM line by line inside the kernel.
   * Reads nothing outside the runs. The reference reads nothing and returns 0.
   */
  default double readAhead(double[][] a, int[] off, int runs, int len) {
    return 0;
  }

  /**
   * Packs rows [r0, r0+rows) of block b of a PMAT (N, nrows, ncols; index i of its layout at
   * {@code v[vBase + i]}) into panels of
   * {@code width} columns: the panel of columns [j0, j0 + g) (j0 a multiple of width, g =
   * min(width, ncols - j0)) starts at {@code dstOff + 8*rows*j0}, and row i, column c of it is
   * {@code dst[dstOff + 8*rows*j0 + 8*g*i + 8*(c - j0) .. +8] = v[Pmat.offset(n, nrows, ncols, b,
   * r0 + i, c) + vBase .. +8]}. {@code 8*rows*ncols} doubles in all.
   */
  default void packPanels(double[] v, int vBase, int nrows, int ncols, int block, int r0,
      int rows, int width, double[] dst, int dstOff) {
    for (int c = 0; c < ncols; c++) {
      int j0 = c - c % width;
      int g = Math.min(width, ncols - j0);
      int d = dstOff + 8 * rows * j0 + 8 * (c - j0);
      for (int i = 0; i < rows; i++, d += 8 * g) {
        int src = vBase + Pmat.offset(0, nrows, ncols, block, r0 + i, c);
        System.arraycopy(v, src, dst, d, 8);
      }
    }
  }
}
