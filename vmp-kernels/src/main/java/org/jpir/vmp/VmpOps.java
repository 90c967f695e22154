package org.jpir.vmp;

import java.util.Arrays;

/**
 * The vector-matrix products bound to one {@link VmpKernel}; obtained from {@link
 * Vmp#with(VmpKernel)}. Same methods and contracts as the static ones of {@link Vmp} (see
 * there); immutable and thread-safe (all scratch comes from the caller).
 */
public final class VmpOps {
  /**
   * Default budget, in bytes, for the packed PMAT row tiles of all queries in a batch pass
   * ({@code -Djpir.vmp.tileBytes=...} overrides). 1.5 MiB gives 2048-row tiles at ncols=12: the
   * tile then lives in L3 rather than the 1 MiB L2, but every database column is read in 128 KiB
   * contiguous runs. Measured here (N=4096, 4096x12, 32 columns, best of 5): 2048-row tiles
   * 34-38 GFLOP/s against 28-31 for 682-row (512 KiB, L2-resident) tiles.
   */
  static final long TILE_BYTES =
      Long.getLong("jpir.vmp.tileBytes", 1536L * 1024);

  private final VmpKernel k;

  VmpOps(VmpKernel kernel) {
    if (kernel == null) {
      throw new IllegalArgumentException("kernel is null");
    }
    this.k = kernel;
  }

  /** The kernel in use. */
  public VmpKernel kernel() {
    return k;
  }

  /** See {@link Vmp#applyDftToDftTmpLength}. */
  public static int applyDftToDftTmpLength(int n, int nrows, int ncols) {
    return 32 + 8 * extractGroup(n) * nrows;
  }

  /**
   * Blocks extracted per pass over the vector rows: 8 (64 doubles = 4 cache lines of re and of
   * im per row), fewer for N &lt; 64. Row-by-row extraction of a group touches each row's pages
   * once per group rather than once per block (4096 rows at N=4096 span 8192 pages, more than
   * the TLB holds).
   */
  static int extractGroup(int n) {
    return Math.min(8, n / 8);
  }

  /** See {@link Vmp#applyPvecToDftTmpLength}. */
  public static int applyPvecToDftTmpLength(int n, int nrows, int ncols) {
    return 32;
  }

  /** See {@link Vmp#applyPvecBatchTmpLength}. */
  public static int applyPvecBatchTmpLength(
      int queries, int n, int nrows, int ncols, int columns) {
    return applyPvecBatchTmpLength(queries, n, nrows, ncols, columns,
        defaultTileRows(queries, ncols));
  }

  /** Scratch for {@link #applyPvecBatch(Pmat[], Pvec[], double[][][], double[], int)}. */
  public static int applyPvecBatchTmpLength(
      int queries, int n, int nrows, int ncols, int columns, int tileRows) {
    long len = 16L * queries * columns * ncols
        + 8L * queries * ncols * Math.min(Math.max(tileRows, 1), nrows);
    if (len > Pmat.MAX_LENGTH) {
      throw new IllegalArgumentException("batch scratch 16*queries*columns*ncols = " + len
          + " doubles does not fit one Java array; split the columns");
    }
    return (int) len;
  }

  /** See {@link Vmp#applyDftToDft}. */
  public void applyDftToDft(Pmat pmat, double[] vec, int vecOff, int vecRows, double[] res,
      int resOff, int resCols, double[] tmp) {
    dft(pmat, vec, vecOff, vecRows, res, resOff, resCols, tmp, false);
  }

  /** See {@link Vmp#applyDftToDftAdd}. */
  public void applyDftToDftAdd(Pmat pmat, double[] vec, int vecOff, int vecRows, double[] res,
      int resOff, int resCols, double[] tmp) {
    dft(pmat, vec, vecOff, vecRows, res, resOff, resCols, tmp, true);
  }

  /** See {@link Vmp#applyPvecToDft}. */
  public void applyPvecToDft(Pmat pmat, Pvec vec, double[] res, int resOff, int resCols,
      double[] tmp) {
    pvec(pmat, vec, res, resOff, resCols, tmp, false);
  }

  /** See {@link Vmp#applyPvecToDftAdd}. */
  public void applyPvecToDftAdd(Pmat pmat, Pvec vec, double[] res, int resOff, int resCols,
      double[] tmp) {
    pvec(pmat, vec, res, resOff, resCols, tmp, true);
  }

  /** See {@link Vmp#applyPvecMulti}. */
  public void applyPvecMulti(Pmat pmat, Pvec[] cols, double[][] res, double[] tmp) {
    applyPvecMulti(pmat, cols, res, tmp, 0);
  }

  /** See {@link Vmp#applyPvecMulti}; {@code tileRows > 0} forces the row tile (0: default). */
  public void applyPvecMulti(Pmat pmat, Pvec[] cols, double[][] res, double[] tmp,
      int tileRows) {
    if (res == null) {
      throw new IllegalArgumentException("res is null");
    }
    applyPvecBatch(new Pmat[] {pmat}, cols, new double[][][] {res}, tmp, tileRows);
  }

  /** See {@link Vmp#applyPvecBatch}. */
  public void applyPvecBatch(Pmat[] queries, Pvec[] cols, double[][][] res, double[] tmp) {
    applyPvecBatch(queries, cols, res, tmp, 0);
  }

  /** See {@link Vmp#applyPvecBatch}; {@code tileRows > 0} forces the row tile (0: default). */
  public void applyPvecBatch(Pmat[] queries, Pvec[] cols, double[][][] res, double[] tmp,
      int tileRows) {
    if (queries == null || queries.length == 0) {
      throw new IllegalArgumentException("queries is null or empty");
    }
    if (queries[0] == null) {
      throw new IllegalArgumentException("queries[0] is null");
    }
    final int n = queries[0].n();
    final int nrows = queries[0].nrows();
    final int ncols = queries[0].ncols();
    for (int q = 1; q < queries.length; q++) {
      Pmat p = queries[q];
      if (p == null) {
        throw new IllegalArgumentException("queries[" + q + "] is null");
      }
      if (p.n() != n || p.nrows() != nrows || p.ncols() != ncols) {
        throw new IllegalArgumentException("queries[" + q + "] is N=" + p.n() + ", " + p.nrows()
            + "x" + p.ncols() + " but queries[0] is N=" + n + ", " + nrows + "x" + ncols);
      }
    }
    if (cols == null) {
      throw new IllegalArgumentException("cols is null");
    }
    final int nq = queries.length;
    final int nc = cols.length;
    int pvRows = -1;
    for (int c = 0; c < nc; c++) {
      Pvec v = cols[c];
      if (v == null) {
        throw new IllegalArgumentException("cols[" + c + "] is null");
      }
      if (v.n() != n) {
        throw new IllegalArgumentException(
            "N mismatch: cols[" + c + "] has N=" + v.n() + " but the PMAT has N=" + n);
      }
      if (pvRows < 0) {
        pvRows = v.nrows();
      } else if (v.nrows() != pvRows) {
        throw new IllegalArgumentException("nrows mismatch: cols[" + c + "] has " + v.nrows()
            + " rows but cols[0] has " + pvRows);
      }
    }
    if (tileRows < 0) {
      throw new IllegalArgumentException("tileRows = " + tileRows + " must be >= 0");
    }
    if (res == null || res.length < nq) {
      throw new IllegalArgumentException("res is null or has fewer than " + nq + " entries");
    }
    for (int q = 0; q < nq; q++) {
      if (res[q] == null || res[q].length < nc) {
        throw new IllegalArgumentException(
            "res[" + q + "] is null or has fewer than " + nc + " columns");
      }
      for (int c = 0; c < nc; c++) {
        Checks.range("res[" + q + "][" + c + "]", res[q][c], 0, (long) ncols * n);
      }
    }
    if (nc == 0) {
      return;
    }
    int tile = tileRows > 0 ? tileRows : defaultTileRows(nq, ncols);
    Checks.range("tmp", tmp, 0, applyPvecBatchTmpLength(nq, n, nrows, ncols, nc, tile));
    final int rows = Math.min(pvRows, nrows);
    batch(queries, cols, res, tmp, rows, pvRows, tile);
  }

  // ---------------------------------------------------------------------------------------

  private void dft(Pmat pmat, double[] vec, int vecOff, int vecRows, double[] res, int resOff,
      int resCols, double[] tmp, boolean add) {
    if (pmat == null) {
      throw new IllegalArgumentException("pmat is null");
    }
    final int n = pmat.n();
    Checks.atLeast("vecRows", vecRows, 0);
    Checks.atLeast("resCols", resCols, 0);
    Checks.range("vec", vec, vecOff, (long) vecRows * n);
    Checks.range("res", res, resOff, (long) resCols * n);
    Checks.range("tmp", tmp, 0, applyDftToDftTmpLength(n, pmat.nrows(), pmat.ncols()));
    final int rows = Math.min(vecRows, pmat.nrows());
    final int blocks = n / 8;
    final int group = extractGroup(n);
    for (int b0 = 0; b0 < blocks; b0 += group) {
      k.extractBlocks(n, b0, group, rows, vec, vecOff, tmp, 32);
      for (int g = 0; g < group; g++) {
        block(pmat, b0 + g, rows, tmp, 32 + g * 8 * rows, res, resOff, resCols, tmp, add);
      }
    }
    if (!add) {
      zeroExtra(pmat, res, resOff, resCols);
    }
  }

  private void pvec(Pmat pmat, Pvec vec, double[] res, int resOff, int resCols, double[] tmp,
      boolean add) {
    if (pmat == null) {
      throw new IllegalArgumentException("pmat is null");
    }
    if (vec == null) {
      throw new IllegalArgumentException("vec is null");
    }
    final int n = pmat.n();
    if (vec.n() != n) {
      throw new IllegalArgumentException(
          "N mismatch: the PVEC has N=" + vec.n() + " but the PMAT has N=" + n);
    }
    Checks.atLeast("resCols", resCols, 0);
    Checks.range("res", res, resOff, (long) resCols * n);
    Checks.range("tmp", tmp, 0, applyPvecToDftTmpLength(n, pmat.nrows(), pmat.ncols()));
    final int rows = Math.min(vec.nrows(), pmat.nrows());
    final int blocks = n / 8;
    final double[] u = vec.data();
    for (int b = 0; b < blocks; b++) {
      block(pmat, b, rows, u, b * 8 * vec.nrows(), res, resOff, resCols, tmp, add);
    }
    if (!add) {
      zeroExtra(pmat, res, resOff, resCols);
    }
  }

  /** One reim4 block of an apply: rows of u at uOff + 8r; state in tmp[0..32). */
  private void block(Pmat pmat, int b, int rows, double[] u, int uOff, double[] res,
      int resOff, int resCols, double[] tmp, boolean add) {
    final int n = pmat.n();
    final int nrows = pmat.nrows();
    final int ncols = pmat.ncols();
    final int cols = Math.min(resCols, ncols);
    final double[] v = pmat.data();
    final int vb = b * 8 * nrows * ncols;
    int c = 0;
    for (; c + 1 < cols; c += 2) {
      Arrays.fill(tmp, 0, 32, 0.0);
      k.mac2(rows, u, uOff, v, vb + c * 8 * nrows, tmp, 0);
      finish(tmp, 0, res, resOff + c * n, n, b, add);
      finish(tmp, 16, res, resOff + (c + 1) * n, n, b, add);
    }
    if (c < cols) {
      Arrays.fill(tmp, 0, 16, 0.0);
      k.mac1(rows, u, uOff, v, vb + c * 8 * nrows, Pmat.rowStride(ncols, c), tmp, 0);
      finish(tmp, 0, res, resOff + c * n, n, b, add);
    }
  }

  /** Writes (or adds) the complex sums of one state into block b of the reim poly at dOff. */
  private static void finish(double[] st, int s, double[] dst, int dOff, int n, int b,
      boolean add) {
    int re = dOff + 4 * b;
    int im = re + n / 2;
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

  private static void zeroExtra(Pmat pmat, double[] res, int resOff, int resCols) {
    int n = pmat.n();
    if (resCols > pmat.ncols()) {
      Arrays.fill(res, resOff + pmat.ncols() * n, resOff + resCols * n, 0.0);
    }
  }

  /** Default row tile: the packed PMAT tiles of all queries take about {@link #TILE_BYTES}. */
  static int defaultTileRows(int queries, int ncols) {
    return (int) Math.max(8, TILE_BYTES / (64L * queries * ncols));
  }

  /**
   * The block-outer pass. Per reim4 block b: per row tile [t0, t0+tr), each query's PMAT tile is
   * packed row-major into tmp (one read of the PMAT from memory; the packed tile stays in L2),
   * then the database columns stream through it, register-blocked. State of (query q, column c,
   * matrix column j) at {@code tmp[16*((q*nc + c)*ncols + j)]}, carried across tiles, so the
   * FMA chains are exactly those of the per-column apply.
   */
  private void batch(Pmat[] queries, Pvec[] cols, double[][][] res, double[] tmp, int rows,
      int pvRows, int tile) {
    final int nq = queries.length;
    final int nc = cols.length;
    final int n = queries[0].n();
    final int nrows = queries[0].nrows();
    final int ncols = queries[0].ncols();
    final int blocks = n / 8;
    final int stLen = 16 * nq * nc * ncols;
    final int stStride = 16 * ncols;
    final int w = 8 * ncols;
    final int packLen = Math.min(tile, rows) * w;
    for (int b = 0; b < blocks; b++) {
      Arrays.fill(tmp, 0, stLen, 0.0);
      for (int t0 = 0; t0 < rows; t0 += tile) {
        final int tr = Math.min(tile, rows - t0);
        final int uOff = b * 8 * pvRows + 8 * t0;
        for (int q = 0; q < nq; q++) {
          k.packTile(queries[q].data(), nrows, ncols, b, t0, tr, tmp, stLen + q * packLen);
        }
        for (int q = 0; q < nq; q++) {
          final int vOff = stLen + q * packLen;
          final int st = stStride * q * nc;
          tile(cols, tmp, nc, ncols, tr, uOff, vOff, w, st, stStride);
        }
      }
      for (int q = 0; q < nq; q++) {
        for (int c = 0; c < nc; c++) {
          double[] out = res[q][c];
          int st = stStride * (q * nc + c);
          for (int j = 0; j < ncols; j++) {
            finish(tmp, st + 16 * j, out, j * n, n, b, false);
          }
        }
      }
    }
  }

  /**
   * One row tile against one query's packed PMAT tile: database columns in pairs, matrix columns
   * in groups of 6 ({@link VmpKernel#mac2x6}: 24 accumulators), then 4, 2, 1; an odd last
   * database column with {@link VmpKernel#mac1x4} and {@link VmpKernel#mac1}.
   */
  private void tile(Pvec[] cols, double[] tmp, int nc, int ncols, int tr, int uOff, int vOff,
      int w, int st0, int stStride) {
    int c = 0;
    for (; c + 2 <= nc; c += 2) {
      double[] u0 = cols[c].data();
      double[] u1 = cols[c + 1].data();
      int st = st0 + stStride * c;
      int j = 0;
      for (; j + 6 <= ncols; j += 6) {
        k.mac2x6(tr, u0, u1, uOff, tmp, vOff + 8 * j, w, tmp, st + 16 * j, stStride);
      }
      if (j + 4 <= ncols) {
        k.mac2x4(tr, u0, u1, uOff, tmp, vOff + 8 * j, w, tmp, st + 16 * j, stStride);
        j += 4;
      }
      if (j + 2 <= ncols) {
        k.mac2x2(tr, u0, u1, uOff, tmp, vOff + 8 * j, w, tmp, st + 16 * j, stStride);
        j += 2;
      }
      if (j < ncols) {
        k.mac2x1(tr, u0, u1, uOff, tmp, vOff + 8 * j, w, tmp, st + 16 * j, stStride);
      }
    }
    for (; c < nc; c++) {
      double[] u = cols[c].data();
      int st = st0 + stStride * c;
      int j = 0;
      for (; j + 4 <= ncols; j += 4) {
        k.mac1x4(tr, u, uOff, tmp, vOff + 8 * j, w, tmp, st + 16 * j, stStride);
      }
      for (; j < ncols; j++) {
        k.mac1(tr, u, uOff, tmp, vOff + 8 * j, w, tmp, st + 16 * j);
      }
    }
  }
}
