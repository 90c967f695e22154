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
 * <h2>The multi-column pass</h2>
 *
 * The multi-column pass ({@link Vmp#applyPvecBatch}) tiles the product like a GEMM ({@link
 * Vmp.Tiling}) and calls, with the kernel's register {@link #block()}, either {@link #macTile}
 * on packed panels ({@link #packPanels}): the four-product state above, bitwise the per-column
 * applies; or, for {@link VmpBlock#gauss()} blocks (512 bits), {@link #macGauss} on Gauss panels
 * ({@link #packGauss}), which sums {@code u*v} for {@code u = a + ib} (database) and {@code v
 * = c + id} (matrix) with three real products instead of four, the matrix side precomputed once
 * per pass:
 *
 * <pre>
 *   K1 += (a + b) * c      K2 += a * (d - c)      K3 += b * (c + d)
 *   re = K1 - K3           im = K1 + K2
 * </pre>
 *
 * per lane, each {@code +=} one {@link Math#fma} in increasing row order, {@code a + b}, {@code d
 * - c} and {@code c + d} rounded once. So every implementation, register block, column grouping
 * and row split of that form gives bitwise identical sums; they differ from the per-column
 * applies (four products) by rounding only (exact on integer data whose sums stay below 2^53).
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

  /**
   * {@link #mac2Out} on two consecutive PMAT column pairs, the second at {@code vOff +
   * pairStride}, into {@code re0, re1} and {@code re2, re3}: bitwise the two calls (kernels with
   * enough registers keep the 16 accumulators of one call).
   */
  default void mac4Out(int rows, double[] u, int uOff, double[] v, int vOff, int pairStride,
      double[] res, int re0, int re1, int re2, int re3, int half, boolean add, double[] st) {
    mac2Out(rows, u, uOff, v, vOff, res, re0, re1, half, add, st);
    mac2Out(rows, u, uOff, v, vOff + pairStride, res, re2, re3, half, add, st);
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
   * VmpBlock#B512_3X4}.
   */
  default VmpBlock block() {
    return VmpBlock.B512_3X4;
  }

  /**
   * Doubles in one row of a Gauss panel of {@code g} columns: {@code 8g + 8*ceil(g/2)} (see
   * {@link #packGauss}).
   */
  static int gaussRow(int g) {
    return 8 * g + 8 * ((g + 1) / 2);
  }

  /**
   * Doubles of the Gauss panels of {@code rows} rows and {@code ncols} columns in panels of
   * {@code width}: the sum of {@link #gaussRow} over the panels, times rows.
   */
  static int gaussPanelsLength(int rows, int ncols, int width) {
    int full = ncols / width;
    int last = ncols % width;
    return rows * (full * gaussRow(width) + (last == 0 ? 0 : gaussRow(last)));
  }

  /**
   * Packs the matrix side of the Gauss form: rows [r0, r0+rows) of block b of a PMAT (N, nrows,
   * ncols; index i of its layout at {@code v[vBase + i]}) in panels of {@code width} columns. The
   * panel of columns [j0, j0 + g) (j0 a multiple of width, g = min(width, ncols - j0)) starts at
   * {@code P = dstOff + rows * (j0 / width) * gaussRow(width)}; its row i at {@code R = P +
   * gaussRow(g) * i} holds, for column {@code j0 + x} with {@code c = vre[k]}, {@code d =
   * vim[k]} of that PMAT row: {@code dst[R + 8x + k] = d - c}, {@code dst[R + 8x + 4 + k] = c +
   * d}, {@code dst[R + 8g + 4x + k] = c} (k &lt; 4), and zeros at {@code R + 8g + 4g ..+4} when
   * g is odd. {@link #gaussPanelsLength} doubles in all.
   */
  default void packGauss(double[] v, int vBase, int nrows, int ncols, int block, int r0,
      int rows, int width, double[] dst, int dstOff) {
    for (int j0 = 0; j0 < ncols; j0 += width) {
      int g = Math.min(width, ncols - j0);
      int rl = gaussRow(g);
      int p = dstOff + rows * (j0 / width) * gaussRow(width);
      for (int i = 0; i < rows; i++) {
        int r = p + rl * i;
        for (int x = 0; x < g; x++) {
          int src = vBase + Pmat.offset(0, nrows, ncols, block, r0 + i, j0 + x);
          for (int k = 0; k < 4; k++) {
            double c = v[src + k];
            double d = v[src + 4 + k];
            dst[r + 8 * x + k] = d - c;
            dst[r + 8 * x + 4 + k] = c + d;
            dst[r + 8 * g + 4 * x + k] = c;
          }
        }
        if ((g & 1) == 1) {
          java.util.Arrays.fill(dst, r + 12 * g, r + 12 * g + 4, 0.0);
        }
      }
    }
  }

  /**
   * The register-blocked tile of the multi-column pass in the three-product (Gauss) form of the
   * class comment ({@link VmpBlock#gauss()} blocks):
   * {@code vectors} (1 to 3) database vectors x {@code cols} (at least 1) columns of one Gauss
   * panel ({@link #packGauss}, g = cols, row i at {@code vOff + gaussRow(cols)*i}), summed over
   * {@code rows} rows. Vector q row r at {@code u_q[uOff + 8r ..]} ({@code a} = its first 4
   * doubles, {@code b} the next 4; unused arrays may be null). State of (vector q, column x):
   * {@code K2} at {@code st[gOff + q*stStride + 8x ..+4]}, {@code K3} at the next 4, {@code K1}
   * at {@code st[kOff + q*stStride + 4x ..+4]}; when cols is odd, the 4 doubles after the last
   * {@code K1} may be written (with sums of zero products) and must exist.
   */
  default void macGauss(int vectors, int cols, int rows, double[] u0, double[] u1, double[] u2,
      int uOff, double[] v, int vOff, double[] st, int gOff, int kOff, int stStride) {
    final int rl = gaussRow(cols);
    for (int q = 0; q < vectors; q++) {
      double[] u = q == 0 ? u0 : q == 1 ? u1 : u2;
      for (int x = 0; x < cols; x++) {
        int g = gOff + q * stStride + 8 * x;
        int kk = kOff + q * stStride + 4 * x;
        for (int k = 0; k < 4; k++) {
          // the three chains of one lane in locals (the JIT keeps them in registers)
          double k1 = st[kk + k];
          double k2 = st[g + k];
          double k3 = st[g + 4 + k];
          for (int r = 0; r < rows; r++) {
            int uo = uOff + 8 * r + k;
            int vr = vOff + rl * r + k;
            double a = u[uo];
            double b = u[uo + 4];
            k2 = Math.fma(a, v[vr + 8 * x], k2);
            k3 = Math.fma(b, v[vr + 8 * x + 4], k3);
            k1 = Math.fma(a + b, v[vr + 8 * cols + 4 * x], k1);
          }
          st[kk + k] = k1;
          st[g + k] = k2;
          st[g + 4 + k] = k3;
        }
      }
    }
  }

  /**
   * Database vectors per {@link #macGaussWide} call for Gauss panels of {@code cols} columns, or
   * 0 where this kernel has no wider block than {@link #macGauss}'s three (the pass then uses
   * that). A wide block keeps more database columns' streams in flight per call, and reads each
   * panel row once for all of them.
   */
  default int gaussWideVectors(int cols) {
    return 0;
  }

  /**
   * {@link #macGauss} for {@code vectors} database columns {@code us[u0 .. u0 + vectors)} at once
   * (vector q row r at {@code us[u0 + q][uOff + 8r ..]}, state of vector q at {@code q*stStride}
   * as there); bitwise the same sums (each accumulator lane is the same FMA chain). This default
   * calls {@link #macGauss} three vectors at a time.
   */
  default void macGaussWide(int vectors, int cols, int rows, double[][] us, int u0, int uOff,
      double[] v, int vOff, double[] st, int gOff, int kOff, int stStride) {
    for (int q = 0; q < vectors; q += 3) {
      int w = Math.min(3, vectors - q);
      macGauss(w, cols, rows, us[u0 + q], w > 1 ? us[u0 + q + 1] : null,
          w > 2 ? us[u0 + q + 2] : null, uOff, v, vOff, st, gOff + q * stStride,
          kOff + q * stStride, stStride);
    }
  }

  /**
   * Database vectors per {@link #macFourWide} call for four-product panels of {@code cols}
   * columns where this kernel multiplies such panels faster in the four-product form than in its
   * Gauss block, or 0 (the pass then keeps the Gauss form for its Gauss blocks). A 512-bit Gauss
   * block spends an add and a shuffle per row on each database vector; with two matrix columns
   * that is a fifth of its vector operations, more than the fourth product costs.
   */
  default int fourWideVectors(int cols) {
    return 0;
  }

  /**
   * The four-product sums of {@code vectors} database columns {@code us[u0 .. u0 + vectors)}
   * (vector q row r at {@code us[u0 + q][uOff + 8r ..]}) against a panel of {@code cols} columns
   * laid out as for {@link #macTile} (row r, column j at {@code v[vOff + 8*cols*r + 8j ..]}),
   * accumulated into states of 16 doubles at {@code s = stOff + q*stStride + 16j}: {@code
   * st[s+k] += x_re*y_re}, {@code st[s+4+k] += x_im*y_im}, {@code st[s+8+k] += x_re*y_im},
   * {@code st[s+12+k] += x_im*y_re} (lane k &lt; 4, one fused multiply-add per row, rows in
   * order), so each sum is the one {@link #mac1} makes, in another place. {@link
   * #finishFourWide} reads them.
   */
  default void macFourWide(int vectors, int cols, int rows, double[][] us, int u0, int uOff,
      double[] v, int vOff, double[] st, int stOff, int stStride) {
    for (int q = 0; q < vectors; q++) {
      double[] u = us[u0 + q];
      for (int j = 0; j < cols; j++) {
        int s = stOff + q * stStride + 16 * j;
        for (int r = 0; r < rows; r++) {
          int x = uOff + 8 * r;
          int y = vOff + 8 * cols * r + 8 * j;
          for (int k = 0; k < 4; k++) {
            st[s + k] = Math.fma(u[x + k], v[y + k], st[s + k]);
            st[s + 4 + k] = Math.fma(u[x + 4 + k], v[y + 4 + k], st[s + 4 + k]);
            st[s + 8 + k] = Math.fma(u[x + k], v[y + 4 + k], st[s + 8 + k]);
            st[s + 12 + k] = Math.fma(u[x + 4 + k], v[y + k], st[s + 12 + k]);
          }
        }
      }
    }
  }

  /**
   * Writes the complex sums of a {@link #macFourWide} state: {@code dst[re + k] = st[s+k] -
   * st[s+4+k]}, {@code dst[re + half + k] = st[s+8+k] + st[s+12+k]}: what {@link #finish} writes
   * for the same sums.
   */
  default void finishFourWide(double[] st, int s, double[] dst, int re, int half) {
    for (int k = 0; k < 4; k++) {
      dst[re + k] = st[s + k] - st[s + 4 + k];
      dst[re + half + k] = st[s + 8 + k] + st[s + 12 + k];
    }
  }

  /**
   * Writes the complex sums of a Gauss state ({@link #macGauss}): {@code dst[re + k] = K1[k] -
   * K3[k]}, {@code dst[re + half + k] = K1[k] + K2[k]} with K2, K3 at {@code st[g ..+8]} and K1
   * at {@code st[kk ..+4]}.
   */
  default void finishGauss(double[] st, int g, int kk, double[] dst, int re, int half) {
    for (int k = 0; k < 4; k++) {
      dst[re + k] = st[kk + k] - st[g + 4 + k];
      dst[re + half + k] = st[kk + k] + st[g + k];
    }
  }

  /**
   * The register-blocked tile of the multi-column pass in the four-product form (blocks that
   * are not {@link VmpBlock#gauss()}): {@code vectors} (1 or 2) database vectors
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
}
