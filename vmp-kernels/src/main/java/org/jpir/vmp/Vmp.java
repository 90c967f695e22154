package org.jpir.vmp;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Vector-matrix products in the FFT domain (spqlios {@code vmp_apply_dft_to_dft} and the
 * prepared-vector variants), bound to one VMP kernel: {@link #get()} on the JVM-wide kernel of
 * {@link KernelProvider#get()}, {@link #of(String)} on a named one (tests, benchmarks).
 * Immutable and thread-safe (all scratch comes from the caller).
 *
 * <p>Semantics: with {@code rows = min(vecRows, pmat.nrows)} and {@code cols = min(resCols,
 * pmat.ncols)}, result column {@code c < cols} is the reim polynomial {@code sum_{r < rows}
 * vec[r] (*) pmat[r][c]} (pointwise complex product of transforms, i.e. the negacyclic product
 * once inverse-transformed and divided by m); result columns {@code cols <= c < resCols} are
 * set to zero (left unchanged by the {@code Add} forms).
 *
 * <p>Floating point: per slot, the sums {@code S_rr = sum re(u)re(v)}, {@code S_ri}, {@code
 * S_ir}, {@code S_ii} are each accumulated by one chain of fused multiply-adds in increasing row
 * order, and the result is {@code re = S_rr - S_ii}, {@code im = S_ri + S_ir} (see {@link
 * VmpKernel}). Every entry point and every kernel follows that order, so <b>applyDftToDft and
 * applyPvecToDft are bitwise identical</b>, ref and panama alike. The {@code Add} forms compute
 * {@code res + product} with one rounding of the sum.
 *
 * <p>The multi-column and batched passes (the database pass of phase 1) follow the same order,
 * and so equal the applies bitwise, with kernels whose {@link VmpBlock} is not {@link
 * VmpBlock#gauss()}. With 512-bit blocks they multiply with three real products per complex
 * product instead of four ({@link VmpKernel}: {@code K1 = sum (a+b)c}, {@code K2 = sum a(d-c)},
 * {@code K3 = sum b(c+d)}, {@code re = K1 - K3}, {@code im = K1 + K2}): 25% fewer multiply-adds
 * on the pass that bounds a query. Those results are bitwise the same for every Gauss kernel and
 * tiling (the row tiling carries the chains across tiles) and equal the applies' up to rounding
 * (exactly on integer data within 2^53).
 *
 * <p>Exactness: when all partial sums are integers below 2^53 in magnitude the result is exact;
 * that is the caller's bound to keep (see docs/architecture.md, "Arithmetic").
 */
public final class Vmp {
  /** Forces the row tile of the multi-column pass ({@code -Djpir.vmp.tileRows=R}). */
  public static final String TILE_ROWS_PROPERTY = "jpir.vmp.tileRows";
  /** Forces the rows per L1 panel pass ({@code -Djpir.vmp.panelRows=R}). */
  public static final String PANEL_ROWS_PROPERTY = "jpir.vmp.panelRows";
  /** Forces the database columns per group ({@code -Djpir.vmp.groupColumns=C}). */
  public static final String GROUP_COLUMNS_PROPERTY = "jpir.vmp.groupColumns";

  private static final Logger LOG = LogManager.getLogger(Vmp.class);
  /** (block, ncols, queries) whose default tiling was logged. */
  private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

  private final VmpKernel k;
  /** Trips when the pass's wide kernels run without vector intrinsics ({@link BoxedPassGuard}). */
  private final BoxedPassGuard guard = new BoxedPassGuard();

  Vmp(VmpKernel kernel) {
    if (kernel == null) {
      throw new IllegalArgumentException("kernel is null");
    }
    this.k = kernel;
    this.readAhead = readAhead(READ_AHEAD_PROPERTY, CpuInfo.get(), kernel.block());
  }

  /** The products on the JVM-wide kernel ({@link KernelProvider#get()}). */
  public static Vmp get() {
    return KernelProvider.get().vmp();
  }

  /**
   * The products on the kernel named {@code kernel}: {@code ref}, {@code panama} (the automatic
   * block), {@code panama128}, {@code panama256}, {@code panama512} (width forced), or {@code
   * panama<bits>-<vectors>x<columns>} (block forced, e.g. {@code panama256-1x3}); results are
   * bitwise the same for all of them.
   *
   * @throws IllegalArgumentException for an unknown name
   * @throws IllegalStateException for a Vector API name when the module is not available
   */
  public static Vmp of(String kernel) {
    return new Vmp(KernelProvider.vmpKernel(kernel));
  }

  /** The kernel in use. */
  VmpKernel kernel() {
    return k;
  }

  /** The kernel's short name for logs and tables ({@code "ref"}, {@code "panama512"}, ...). */
  public String kernelName() {
    return k.name();
  }

  /** The register block the multi-column pass is tiled by. */
  public VmpBlock block() {
    return k.block();
  }

  /**
   * Whether the multi-column pass multiplies PMATs of {@code ncols} columns in the three-product
   * (Gauss) form, equal to the reference's Gauss pass bitwise; otherwise in the four-product form,
   * equal to {@link #applyPvecToDft} bitwise ({@link VmpKernel#fourWideVectors}).
   */
  public boolean gaussPass(int ncols) {
    return k.block().gauss() && (guard.tripped() || k.fourWideVectors(ncols) == 0);
  }

  /**
   * Whether this pass has stopped using its wide kernels because they ran without vector
   * intrinsics ({@link BoxedPassGuard}); it then runs the block's own register blocks.
   */
  public boolean wideKernelsOff() {
    return guard.tripped();
  }

  /** Scratch doubles for {@link #applyDftToDft}: {@code 40 + 8*min(8, N/8)*nrows}. */
  public static int applyDftToDftTmpLength(int n, int nrows, int ncols) {
    return EXTRACTED + 8 + 8 * extractGroup(n) * nrows;
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

  /** Where {@link #applyDftToDft} extracts the vector's blocks in its scratch (64-byte aligned). */
  private static final int EXTRACTED = Aligned.up(32);

  /** Scratch doubles for {@link #applyPvecMulti} over {@code columns} columns. */
  public static int applyPvecMultiTmpLength(int n, int nrows, int ncols, int columns) {
    return applyPvecBatchTmpLength(1, n, nrows, ncols, columns);
  }

  /** Scratch doubles for {@link #applyPvecToDft}: {@code 40 + 8*min(nrows, 64)}. */
  public static int applyPvecToDftTmpLength(int n, int nrows, int ncols) {
    return EXTRACTED + 8 + 8 * Math.min(nrows, STAGE_ROWS);
  }

  /**
   * Up to this many rows, {@link #applyPvecToDft} copies each block of a PVEC whose rows do not
   * start on 64-byte boundaries into its scratch before the column pairs read it (a 64-byte
   * aligned PVEC is read in place: {@link #stagesBlocks}).
   */
  static final int STAGE_ROWS = Integer.getInteger("jpir.vmp.stageRows", 64);

  /**
   * Scratch doubles for {@link #applyPvecBatch}: {@code queries*columns*max(}{@link
   * #gaussState}{@code , 16*ncols)} (the accumulator states of one block, either form) plus
   * {@code 8*G*queries*columns*ncols} (the finished sums of G = min({@link #FINISH_BLOCKS}, N/8)
   * blocks, written out together) plus {@code 16*queries*ncols*min(T, nrows)} (the packed
   * tiles, at most 16 doubles per row and column in the Gauss form; T the largest default tile
   * of {@link #tiling} on this machine) plus 8 (so that all three start on a 64-byte boundary).
   */
  public static int applyPvecBatchTmpLength(
      int queries, int n, int nrows, int ncols, int columns) {
    return applyPvecBatchTmpLength(queries, n, nrows, ncols, columns,
        maxTileRows(ncols, queries));
  }

  /** Scratch for {@link #applyPvecBatch(Pmat[], Pvec[], double[][][], double[], int)}. */
  public static int applyPvecBatchTmpLength(
      int queries, int n, int nrows, int ncols, int columns, int tileRows) {
    long len = 8 + (long) Math.max(gaussState(ncols), 16 * ncols) * queries * columns
        + 8L * finishBlocks(n) * queries * columns * ncols
        + 16L * queries * ncols * Math.min(Math.max(tileRows, 1), nrows);
    if (len > Pmat.MAX_LENGTH) {
      throw new IllegalArgumentException("batch scratch of " + queries + " queries x " + columns
          + " columns x " + ncols + " matrix columns = " + len
          + " doubles does not fit one Java array; split the columns");
    }
    return (int) len;
  }

  /**
   * {@code res[resOff + c*N ..] = sum_r vec[vecOff + r*N ..] (*) pmat[r][c]}, overwriting; see
   * the class comment for rows/cols truncation and zeroing.
   *
   * @param vec vecRows transformed reim polynomials, row r at {@code vecOff + r*N}
   * @param res resCols reim polynomials, column c at {@code resOff + c*N}
   * @param tmp at least {@link #applyDftToDftTmpLength} doubles
   * @throws IllegalArgumentException on null, negative counts or short buffers
   */
  public void applyDftToDft(Pmat pmat, double[] vec, int vecOff, int vecRows, double[] res,
      int resOff, int resCols, double[] tmp) {
    dft(pmat, vec, vecOff, vecRows, res, resOff, resCols, tmp, false);
  }

  /** As {@link #applyDftToDft} but adds the product into res (extra columns unchanged). */
  public void applyDftToDftAdd(Pmat pmat, double[] vec, int vecOff, int vecRows, double[] res,
      int resOff, int resCols, double[] tmp) {
    dft(pmat, vec, vecOff, vecRows, res, resOff, resCols, tmp, true);
  }

  /**
   * For each {@code m < count}: what {@code applyDftToDft(pmat, vecs[m], vecOff, vecRows, res[m],
   * resOff, resCols, tmp)} writes, bitwise; the PMAT is read from memory once for the group (in
   * chunks of {@link #GROUP_CHUNK_BYTES} that stay in L2 while every vector passes) rather than
   * once per vector.
   *
   * @throws IllegalArgumentException on null, negative counts or short buffers
   */
  public void applyDftToDftGroup(Pmat pmat, double[][] vecs, int vecOff, int vecRows,
      double[][] res, int resOff, int resCols, int count, double[] tmp) {
    if (pmat == null) {
      throw new IllegalArgumentException("pmat is null");
    }
    if (vecs == null || res == null || count < 0 || vecs.length < count || res.length < count) {
      throw new IllegalArgumentException("group of " + count + " needs that many vectors and"
          + " results");
    }
    final int n = pmat.n();
    Checks.atLeast("vecRows", vecRows, 0);
    Checks.atLeast("resCols", resCols, 0);
    for (int m = 0; m < count; m++) {
      Checks.range("vecs[" + m + "]", vecs[m], vecOff, (long) vecRows * n);
      Checks.range("res[" + m + "]", res[m], resOff, (long) resCols * n);
    }
    Checks.range("tmp", tmp, 0, applyDftToDftTmpLength(n, pmat.nrows(), pmat.ncols()));
    final int rows = Math.min(vecRows, pmat.nrows());
    final int blocks = n / 8;
    final int group = extractGroup(n);
    final long blockBytes = 64L * pmat.nrows() * pmat.ncols();
    final int chunk = (int) Math.max(group, GROUP_CHUNK_BYTES / blockBytes / group * group);
    for (int c0 = 0; c0 < blocks; c0 += chunk) {
      final int c1 = Math.min(blocks, c0 + chunk);
      for (int m = 0; m < count; m++) {
        for (int b0 = c0; b0 < c1; b0 += group) {
          k.extractBlocks(n, b0, group, rows, vecs[m], vecOff, tmp, EXTRACTED);
          for (int g = 0; g < group; g++) {
            block(pmat, b0 + g, rows, tmp, EXTRACTED + g * 8 * rows, res[m], resOff, resCols,
                tmp, false);
          }
        }
      }
    }
    for (int m = 0; m < count; m++) {
      zeroExtra(pmat, res[m], resOff, resCols);
    }
  }

  /**
   * Bytes of the PMAT that {@link #applyDftToDftGroup} applies to every vector of a group before
   * it reads on: small enough to stay in the smallest L2 of the machines served (512 KiB) beside
   * the vectors' blocks.
   */
  static final long GROUP_CHUNK_BYTES = 128 << 10;

  /**
   * As {@link #applyDftToDft} with the vector read from a PVEC ({@code vecRows = vec.nrows()});
   * bitwise identical to it. tmp: {@link #applyPvecToDftTmpLength} doubles.
   *
   * @throws IllegalArgumentException on null, N mismatch, or short buffers
   */
  public void applyPvecToDft(Pmat pmat, Pvec vec, double[] res, int resOff, int resCols,
      double[] tmp) {
    pvec(pmat, vec, res, resOff, resCols, tmp, false, null);
  }

  /** As {@link #applyPvecToDft} but adds into res. */
  public void applyPvecToDftAdd(Pmat pmat, Pvec vec, double[] res, int resOff, int resCols,
      double[] tmp) {
    pvec(pmat, vec, res, resOff, resCols, tmp, true, null);
  }

  /**
   * {@link #applyPvecToDft} with the staging of its blocks forced on or off ({@code null}: {@link
   * #stagesBlocks}), for tests: the results are the same bitwise.
   */
  void applyPvecToDft(Pmat pmat, Pvec vec, double[] res, int resOff, int resCols, double[] tmp,
      Boolean stage) {
    pvec(pmat, vec, res, resOff, resCols, tmp, false, stage);
  }

  /**
   * The database pass of one query: for every column c, {@code res[c]} (pmat.ncols reim
   * polynomials, column k at {@code k*N}) = what {@code applyPvecToDft(pmat, cols[c], res[c], 0,
   * pmat.ncols(), ..)} writes: bitwise, or up to rounding with a three-product kernel (see the
   * class comment). Block-outer: the PMAT is read once per pass (in
   * row tiles that stay in L2) while every column streams through it. All cols must share N
   * (= pmat's) and nrows. tmp: {@link #applyPvecMultiTmpLength} doubles.
   *
   * @throws IllegalArgumentException on null, N or nrows mismatch, or short buffers
   */
  public void applyPvecMulti(Pmat pmat, Pvec[] cols, double[][] res, double[] tmp) {
    applyPvecMulti(pmat, cols, res, tmp, 0);
  }

  /**
   * As {@link #applyPvecMulti(Pmat, Pvec[], double[][], double[])}; {@code tileRows > 0} forces
   * the row tile (0: default).
   */
  public void applyPvecMulti(Pmat pmat, Pvec[] cols, double[][] res, double[] tmp,
      int tileRows) {
    if (res == null) {
      throw new IllegalArgumentException("res is null");
    }
    applyPvecBatch(new Pmat[] {pmat}, cols, new double[][][] {res}, tmp, tileRows);
  }

  /**
   * {@link #applyPvecMulti} for several queries (same N, nrows, ncols) in one pass over the
   * columns: {@code res[q][c]}; each database block is read from memory once for all queries.
   * tmp: {@link #applyPvecBatchTmpLength} doubles.
   */
  public void applyPvecBatch(Pmat[] queries, Pvec[] cols, double[][][] res, double[] tmp) {
    applyPvecBatch(queries, cols, res, tmp, 0);
  }

  /**
   * As {@link #applyPvecBatch(Pmat[], Pvec[], double[][][], double[])}; {@code tileRows > 0}
   * forces the row tile (0: default).
   */
  public void applyPvecBatch(Pmat[] queries, Pvec[] cols, double[][][] res, double[] tmp,
      int tileRows) {
    applyPvecBatch(queries, cols, res, tmp, tileRows, 0);
  }

  /**
   * As {@link #applyPvecBatch(Pmat[], Pvec[], double[][][], double[])}; {@code tileRows > 0}
   * forces the row tile and {@code groupColumns > 0} the database columns per group (0: the
   * {@link #tiling} of this machine). The results do not depend on either.
   */
  public void applyPvecBatch(Pmat[] queries, Pvec[] cols, double[][][] res, double[] tmp,
      int tileRows, int groupColumns) {
    if (queries == null || queries.length == 0 || queries[0] == null) {
      throw new IllegalArgumentException("queries is null or empty, or queries[0] is null");
    }
    Tiling t = tiling(k.block(), CpuInfo.get(), queries[0].ncols(), queries.length);
    if (tileRows == 0 && groupColumns == 0
        && LOGGED.add(k.block() + "/" + queries[0].ncols() + "/" + queries.length)) {
      int four = k.block().gauss() ? k.fourWideVectors(queries[0].ncols()) : 0;
      LOG.info("vmp tiling for block {}, {} matrix columns, {} queries: panels of {} rows, tiles"
          + " of {} rows, groups of {} database columns ({}){}", k.block(), queries[0].ncols(),
          queries.length, t.panelRows(), t.tileRows(), t.groupColumns(), t.reason(), four == 0
          ? "" : "; four-product form, " + four + " database columns per call (no per-row"
          + " shuffle of the database side)");
    }
    applyPvecBatch(queries, cols, res, tmp, new Tiling(tileRows > 0 ? Math.min(tileRows,
        t.panelRows()) : t.panelRows(), tileRows > 0 ? tileRows : t.tileRows(),
        groupColumns > 0 ? groupColumns : t.groupColumns(), "forced"));
  }

  /**
   * As {@link #applyPvecBatch(Pmat[], Pvec[], double[][][], double[])}, with an explicit tiling
   * (for tests and benchmarks; every field at least 1). The results do not depend on it. tmp:
   * {@link
   * #applyPvecBatchTmpLength(int, int, int, int, int, int)} with {@code tiling.tileRows()}.
   */
  public void applyPvecBatch(Pmat[] queries, Pvec[] cols, double[][][] res, double[] tmp,
      Tiling tiling) {
    applyPvecBatch(queries, cols, res, tmp, tiling, 0);
  }

  /**
   * As {@link #applyPvecBatch(Pmat[], Pvec[], double[][][], double[], Tiling)}, the results
   * written every {@code finishBlocks} blocks (1 .. {@link #finishBlocks}(N); 0: the default),
   * for tests: the results do not depend on it.
   */
  void applyPvecBatch(Pmat[] queries, Pvec[] cols, double[][][] res, double[] tmp,
      Tiling tiling, int finishBlocks) {
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
    if (tiling == null || tiling.panelRows() < 1 || tiling.tileRows() < 1
        || tiling.groupColumns() < 1) {
      throw new IllegalArgumentException("tiling " + tiling + " must have every field >= 1");
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
    Checks.range("tmp", tmp, 0, applyPvecBatchTmpLength(nq, n, nrows, ncols, nc,
        tiling.tileRows()));
    final int rows = Math.min(pvRows, nrows);
    if (finishBlocks < 0 || finishBlocks > finishBlocks(n)) {
      throw new IllegalArgumentException("finishBlocks " + finishBlocks + " not in [0, "
          + finishBlocks(n) + "]");
    }
    // only passes the guard judges read the thread's allocation
    final long work = (long) nc * rows * (n / 8) * nq;
    final long before = work >= BoxedPassGuard.MIN_WORK ? ThreadAllocation.bytes() : -1;
    final String path = batch(queries, cols, res, tmp, rows, pvRows, tiling,
        finishBlocks == 0 ? finishBlocks(n) : finishBlocks);
    if (before >= 0 && path != null) {
      guard.observe(work, ThreadAllocation.bytes() - before, path);
    }
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
      k.extractBlocks(n, b0, group, rows, vec, vecOff, tmp, EXTRACTED);
      for (int g = 0; g < group; g++) {
        block(pmat, b0 + g, rows, tmp, EXTRACTED + g * 8 * rows, res, resOff, resCols, tmp,
            add);
      }
    }
    if (!add) {
      zeroExtra(pmat, res, resOff, resCols);
    }
  }

  private void pvec(Pmat pmat, Pvec vec, double[] res, int resOff, int resCols, double[] tmp,
      boolean add, Boolean forceStage) {
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
    final boolean stage = forceStage != null ? forceStage && rows <= STAGE_ROWS
        : stagesBlocks(vec, rows);
    for (int b = 0; b < blocks; b++) {
      final int uOff = vec.base() + b * 8 * vec.nrows();
      if (stage) {
        System.arraycopy(u, uOff, tmp, EXTRACTED, 8 * rows);
        block(pmat, b, rows, tmp, EXTRACTED, res, resOff, resCols, tmp, add);
      } else {
        block(pmat, b, rows, u, uOff, res, resOff, resCols, tmp, add);
      }
    }
    if (!add) {
      zeroExtra(pmat, res, resOff, resCols);
    }
  }

  /**
   * Whether {@link #applyPvecToDft} copies each block of vec (rows rows) into aligned scratch:
   * only for at most {@link #STAGE_ROWS} rows and when the rows are not on 64-byte boundaries
   * (no {@code -XX:ObjectAlignmentInBytes=64}, or a view at an odd offset): an aligned PVEC is
   * read fastest in place, an unaligned one fastest staged (figures in
   * {@code benchmarks/results/kernel-choices-20261204-06.md}).
   */
  static boolean stagesBlocks(Pvec vec, int rows) {
    return rows <= STAGE_ROWS
        && !(Aligned.guaranteed() && Math.floorMod(vec.base() - Aligned.LEAD, 8) == 0);
  }

  /** One reim4 block of an apply: rows of u at uOff + 8r; state in tmp[0..32). */
  private void block(Pmat pmat, int b, int rows, double[] u, int uOff, double[] res,
      int resOff, int resCols, double[] tmp, boolean add) {
    final int n = pmat.n();
    final int nrows = pmat.nrows();
    final int ncols = pmat.ncols();
    final int cols = Math.min(resCols, ncols);
    final double[] v = pmat.data();
    final int vb = pmat.base() + b * 8 * nrows * ncols;
    final int half = n / 2;
    final int re = resOff + 4 * b;
    int c = 0;
    for (; c + 3 < cols; c += 4) {
      k.mac4Out(rows, u, uOff, v, vb + c * 8 * nrows, 16 * nrows, res, re + c * n,
          re + (c + 1) * n, re + (c + 2) * n, re + (c + 3) * n, half, add, tmp);
    }
    for (; c + 1 < cols; c += 2) {
      k.mac2Out(rows, u, uOff, v, vb + c * 8 * nrows, res, re + c * n, re + (c + 1) * n, half,
          add, tmp);
    }
    if (c < cols) {
      k.mac1Out(rows, u, uOff, v, vb + c * 8 * nrows, Pmat.rowStride(ncols, c), res, re + c * n,
          half, add, tmp);
    }
  }

  private static void zeroExtra(Pmat pmat, double[] res, int resOff, int resCols) {
    int n = pmat.n();
    if (resCols > pmat.ncols()) {
      Arrays.fill(res, resOff + pmat.ncols() * n, resOff + resCols * n, 0.0);
    }
  }

  /**
   * The tiling of the multi-column pass (a GEMM per reim4 block: M = database columns, K = rows,
   * N = matrix columns): {@code tileRows} matrix rows are packed per tile (all queries' tiles
   * together stay in L2); inside a tile, {@code panelRows} rows at a time, each panel of {@code
   * block.columns()} matrix columns (stays in L1) meets the row segments of {@code groupColumns}
   * database columns (they stay in L2 for the other panels).
   */
  public record Tiling(int panelRows, int tileRows, int groupColumns, String reason) {}

  /**
   * Database columns per group by default: each column of a group is one sequential stream, and
   * a core's hardware prefetchers follow a limited number of streams (measured here, N=4096,
   * 512x12, 32 columns: groups of 8 were 20% faster than one group of all 32 columns).
   */
  static final int GROUP_STREAMS = 8;

  /**
   * Blocks whose finished sums the pass gathers before writing them into the results ({@code
   * -Djpir.vmp.finishBlocks}, default 8): the results are reim polynomials, so block b of
   * (column c, matrix column j) is 4 doubles at {@code j*N + 4b} and 4 at {@code j*N + N/2 + 4b},
   * and one block at a time scatters 32-byte stores over {@code 2 x columns x ncols} pages; G
   * blocks together write runs of {@code 32G} bytes (G = 1 was slower than 8, 16 the same:
   * figures in {@code benchmarks/results/kernel-choices-20261204-06.md}).
   */
  static final int FINISH_BLOCKS = Math.max(1, Integer.getInteger("jpir.vmp.finishBlocks", 8));

  /** {@link #FINISH_BLOCKS} for transforms of size n: at most the n/8 blocks there are. */
  static int finishBlocks(int n) {
    return Math.max(1, Math.min(FINISH_BLOCKS, n / 8));
  }

  /**
   * Doubles of the Gauss state of one (query, database column) in the pass ({@link
   * VmpKernel#macTile}): {@code [K2|K3]} of matrix column j at {@code 8j}, {@code K1} at {@code
   * 8*ncp + 4j}, with {@code ncp} = ncols rounded up to even (the spare K1 slot of an odd last
   * column): {@code 12*ncp}, a multiple of 8 so that every state starts on a 64-byte boundary.
   */
  static int gaussState(int ncols) {
    return 12 * (ncols + (ncols & 1));
  }

  /**
   * Whether the pass reads each tile's data once ahead of the kernels ({@link
   * VmpKernel#readAhead}; {@code -Djpir.vmp.readAhead=false|true} forces it, the default is
   * {@link #readAhead(String, CpuInfo, VmpBlock)} of this kernel's block). The JVM has no
   * prefetch instruction, and the hardware prefetchers did not run ahead of the kernels here:
   * the database stream cost its whole standalone time on top of the arithmetic (AMD EPYC Zen 5,
   * 4096:1024:12:32, 75 of 190 ms), and a tight read of it beforehand runs at the core's
   * streaming rate (about twice the rate the kernels pull it at).
   */
  private final boolean readAhead;

  /** The {@code -Djpir.vmp.readAhead} value, null when not set. */
  private static final String READ_AHEAD_PROPERTY = System.getProperty("jpir.vmp.readAhead");

  /**
   * Whether the pass with {@code block} reads ahead: as {@code property} says ("true" or
   * "false"), else on every CPU but Intel's, where the hardware prefetchers alone fed the pass
   * faster (benchmarks/results/phase1-tiling-intel-20261206.md), and AMD's of family 25 with
   * 512-bit blocks (Zen 4), where the read-ahead made the pass slower (1.27x for one query,
   * 1.1x for four; benchmarks/results/read-ahead-zen4-20261207.md). With 256-bit blocks (Zen 3,
   * or Zen 4 under {@code -XX:UseAVX=2}) it reads ahead: without, the same Zen 4 ran the pass
   * 1.7x slower for one query and 1.4x for four
   * (benchmarks/results/read-ahead-avx2-zen4-20261207.md).
   */
  static boolean readAhead(String property, CpuInfo cpu, VmpBlock block) {
    if (property != null) {
      return !"false".equals(property);
    }
    return !cpu.intel() && !(cpu.amd() && cpu.family() == 25 && block.bits() >= 512);
  }

  /** Whether this pass reads ahead ({@link #readAhead(String, CpuInfo, VmpBlock)}). */
  public boolean readsAhead() {
    return readAhead;
  }

  /** Forces the rows per kernel chunk when the pass prefetches ({@link #prefetchRows}). */
  public static final String PREFETCH_ROWS_PROPERTY = "jpir.vmp.prefetchRows";

  private static final Integer PREFETCH_ROWS = Integer.getInteger(PREFETCH_ROWS_PROPERTY);

  /**
   * Rows per kernel call when the pass prefetches ({@link LinePrefetch}): a share of the next
   * group's lines is prefetched before each chunk. Gauss blocks (one panel per tile) cut their
   * tiles of {@code panel} rows into equal chunks of about 40 rows; four-product blocks keep their
   * L1 panel (figures in {@code benchmarks/results/kernel-choices-20261204-06.md}).
   */
  static int prefetchRows(boolean gauss, int panel) {
    if (PREFETCH_ROWS != null && PREFETCH_ROWS > 0) {
      return PREFETCH_ROWS;
    }
    if (!gauss) {
      return Math.max(8, panel);
    }
    final int chunks = Math.max(1, (panel + 20) / 40);
    return (panel + chunks - 1) / chunks;
  }

  /** Published sums of the read-ahead, so the JIT keeps its loads. */
  private static volatile double readAheadSink;

  /**
   * {@link Tiling} for a block from the cache sizes of {@code cpu}, for {@code queries} PMATs of
   * {@code ncols} columns. Four-product blocks: a panel ({@code 64 B x block.columns()} per row)
   * takes half the L1d; the packed tiles of all queries ({@code 64 B x ncols x queries} per row)
   * a quarter of the L2, rounded down to whole panels. Gauss blocks ({@link VmpBlock#gauss()},
   * 512 bits): a Gauss panel row is {@code 8 * gaussRow(block.columns())} bytes ({@link
   * VmpKernel#packGauss}), the packed tiles about {@code 96 B x ncols x queries} per row (12
   * doubles per column) and take 3/8 of the L2 (figures in
   * {@code benchmarks/results/kernel-choices-20261204-06.md}), and on AMD one
   * panel spans the whole tile (the
   * accumulators stay in registers across it; on Intel the panel keeps the L1d rule, and with
   * several queries shares half the L1d with the group's row segments, {@code 64 B x} {@link
   * #GROUP_STREAMS} per row). Groups of {@link #GROUP_STREAMS} database columns (the pass rounds
   * them down to whole register blocks: 6 for 3-vector blocks, 311-317 ms against 322 for 9; 8
   * or 6 for the wide Gauss blocks of PMATs of at most 2 columns, {@link
   * VmpKernel#gaussWideVectors}), fewer when their segments of an L1d-sized panel ({@code 64 B
   * x} the panel rows the L1d rule gives, also for 512-bit blocks, whose larger panel is then
   * read from L2) would exceed a quarter of the L2. {@code -Djpir.vmp.tileRows}, {@code
   * -Djpir.vmp.panelRows}, {@code -Djpir.vmp.groupColumns} force the fields.
   */
  public static Tiling tiling(VmpBlock block, CpuInfo cpu, int ncols, int queries) {
    final boolean gauss = block.gauss();
    final int panelRowBytes =
        gauss ? 8 * VmpKernel.gaussRow(block.columns()) : 64 * block.columns();
    // Intel, several queries: each query's panel meets the same rows of the group's columns, so
    // panel and row segments share the half of the L1d (4 queries, 48 KiB: 24 rows, 4% faster
    // than 64; benchmarks/results/batch-panel-20261207.md)
    final boolean batchPanel = gauss && cpu.intel() && queries > 1;
    final int l1RowBytes = panelRowBytes + (batchPanel ? 64 * GROUP_STREAMS : 0);
    int panel = Math.max(8, (cpu.l1dBytes() / 2) / l1RowBytes / 8 * 8);
    // packed bytes per row and matrix column: 12 doubles in the Gauss form, 8 in four products
    final int columnRowBytes = gauss ? 96 : 64;
    long perRow = (long) columnRowBytes * Math.max(1, ncols) * Math.max(1, queries);
    long tileBytes = gauss ? cpu.l2Bytes() * 3L / 8 : cpu.l2Bytes() / 4;
    int tile = (int) Math.max(panel, tileBytes / perRow / panel * panel);
    int cols = (int) Math.max(2, Math.min(GROUP_STREAMS, (cpu.l2Bytes() / 4) / (64L * panel)));
    String why = "panel rows = L1d " + (cpu.l1dBytes() >> 10) + " KiB / 2 / (" + panelRowBytes
        + " B per " + (gauss ? "Gauss " : "") + "row of " + block.columns() + " columns"
        + (batchPanel ? " + 64 B x " + GROUP_STREAMS + " database columns, " + queries
        + " queries" : "") + ")";
    if (gauss && !cpu.intel()) {
      // one panel per tile: the accumulators stay in registers across the tile's rows, the
      // panel is read from L2 (measured faster on AMD:
      // benchmarks/results/kernel-choices-20261204-06.md)
      panel = tile;
      why = "panel rows = tile rows (512-bit blocks)";
    } else if (gauss) {
      // Intel: the panel stays in L1, the hardware prefetchers alone feed the pass (measured
      // against one panel per tile with read-ahead: benchmarks/results/phase1-tiling-intel-*)
      why += " (Intel: L1 panels)";
    }
    why += "; tile rows = L2 " + (cpu.l2Bytes() >> 10) + " KiB x " + (gauss ? "3/8" : "1/4")
        + " / (" + columnRowBytes + " B x " + ncols
        + " columns x " + queries + " queries); "
        + GROUP_STREAMS + " prefetch streams" + (!readAhead(READ_AHEAD_PROPERTY, cpu, block)
        ? "; no read-ahead"
        : "; " + LinePrefetch.why() + (LinePrefetch.get() != null
        ? ", the next group during each group" : ""));
    Integer fp = Integer.getInteger(PANEL_ROWS_PROPERTY);
    Integer fr = Integer.getInteger(TILE_ROWS_PROPERTY);
    Integer fc = Integer.getInteger(GROUP_COLUMNS_PROPERTY);
    if (fp != null && fp > 0) {
      panel = fp;
      tile = Math.max(tile, panel);
      why += "; panel rows forced";
    }
    if (fr != null && fr > 0) {
      tile = fr;
      why += "; tile rows forced";
    }
    if (fc != null && fc > 0) {
      cols = fc;
      why += "; group columns forced";
    }
    return new Tiling(Math.min(panel, tile), tile, cols, why);
  }

  /** Largest default row tile over the supported blocks (sizes the scratch of any kernel). */
  static int maxTileRows(int ncols, int queries) {
    int m = 8;
    for (VmpBlock b : VmpBlock.SUPPORTED) {
      m = Math.max(m, tiling(b, CpuInfo.get(), ncols, queries).tileRows());
    }
    return m;
  }

  /**
   * The block-outer pass, tiled like a GEMM (see {@link Tiling}). Per reim4 block b, per row
   * tile [t0, t0+tr): each query's PMAT tile is packed into panels of the block's width in tmp
   * ({@link VmpKernel#packGauss} for {@link VmpBlock#gauss()} blocks, else {@link
   * VmpKernel#packPanels}); then per group of database columns, per panel of rows, per query, per
   * panel of matrix columns, the database columns of the group stream through it in register
   * blocks ({@link VmpKernel#macGauss}, {@link VmpKernel#macTile}; {@link
   * VmpKernel#macGaussWide} where the kernel has a wider block for the PMAT's columns). State of
   * (query q, column c) at {@code tmp[a0 + S*(q*nc + c)]} (S = {@link #gaussState}, or {@code
   * 16*ncols} for four products, matrix column j at {@code 16j}), carried across tiles, so each
   * sum is one FMA chain over the rows in order whatever the tiling.
   */
  private String batch(Pmat[] queries, Pvec[] cols, double[][][] res, double[] tmp, int rows,
      int pvRows, Tiling tiling, int fb) {
    final int nq = queries.length;
    final int nc = cols.length;
    final int n = queries[0].n();
    final int nrows = queries[0].nrows();
    final int ncols = queries[0].ncols();
    final int blocks = n / 8;
    final VmpBlock blk = k.block();
    // a Gauss block's kernel may multiply these panels faster in the four-product form; none
    // of the wide kernels once they were seen to run without vector intrinsics
    final boolean wideOk = !guard.tripped();
    final int fourV = blk.gauss() && wideOk ? k.fourWideVectors(ncols) : 0;
    final boolean gauss = blk.gauss() && fourV == 0;
    final int mr = blk.vectors();
    final int nr = blk.columns();
    // states, then the finished sums, then the packed tiles, from the first 64-byte boundary
    final int a0 = Aligned.LEAD;
    final int stStride = gauss ? gaussState(ncols) : 16 * ncols;
    final int kRegion = 8 * (ncols + (ncols & 1));
    final int stLen = stStride * nq * nc;
    // finished sums of up to fb blocks: (q, c, j) at fin + 8*fb*((q*nc + c)*ncols + j), the
    // real parts of blocks b0.. first (4 doubles each), then the imaginary parts
    final int fin = a0 + stLen;
    final int pk = fin + 8 * fb * nq * nc * ncols;
    final int tile = tiling.tileRows();
    final int panel = Math.min(tiling.panelRows(), tile);
    final int tr0 = Math.min(tile, rows);
    final int packLen = gauss ? VmpKernel.gaussPanelsLength(tr0, ncols, nr) : tr0 * 8 * ncols;
    // row length of a full panel of nr columns (panels of columns [j, j+nr) start at tr*j/nr
    // full rows), and of a panel of w columns
    final int fullRow = gauss ? VmpKernel.gaussRow(nr) : 8 * nr;
    // a wider Gauss block where the kernel has one for these panels (every panel of columns
    // [j, j + nr) is then at most that wide): more database streams per call
    final int wideV = gauss && ncols <= nr && wideOk ? k.gaussWideVectors(ncols) : 0;
    final int unit = wideV > 0 ? wideV : fourV > 0 ? fourV : mr;
    // groups of whole register blocks where the group allows it
    final int cg = Math.max(unit, tiling.groupColumns() / unit * unit);
    final double[][] colData = new double[wideV > 0 || fourV > 0 ? nc : 0][];
    for (int c = 0; c < colData.length; c++) {
      colData[c] = cols[c].data();
    }
    // the runs one readAhead call streams together (a group's columns, or a PMAT tile's pairs)
    final int maxRuns = Math.max(cg, (ncols + 1) / 2);
    final double[][] runs = new double[maxRuns][];
    final int[] runOffs = new int[maxRuns];
    double ahead = 0;
    // native prefetch: the next group's segments (after a tile's last group, the next tile's
    // first) are prefetched a share per kernel chunk while the current group is multiplied;
    // without it each group is read ahead before its kernels
    final LinePrefetch pf = readAhead ? LinePrefetch.get() : null;
    final PrefetchQueue next = pf == null ? null : new PrefetchQueue(pf);
    final int chunk = pf == null ? Integer.MAX_VALUE : prefetchRows(gauss, panel);
    boolean groupWarm = false;
    for (int b = 0; b < blocks; b++) {
      Arrays.fill(tmp, a0, a0 + stLen, 0.0);
      for (int t0 = 0; t0 < rows; t0 += tile) {
        final int tr = Math.min(tile, rows - t0);
        if (readAhead) {
          for (int q = 0; q < nq; q++) {
            ahead += readAheadTile(queries[q], b, t0, tr, runs, runOffs);
          }
        }
        for (int q = 0; q < nq; q++) {
          if (gauss) {
            k.packGauss(queries[q].data(), queries[q].base(), nrows, ncols, b, t0, tr, nr, tmp,
                pk + q * packLen);
          } else {
            k.packPanels(queries[q].data(), queries[q].base(), nrows, ncols, b, t0, tr, nr, tmp,
                pk + q * packLen);
          }
        }
        for (int c0 = 0; c0 < nc; c0 += cg) {
          final int c1 = Math.min(nc, c0 + cg);
          // the tile's rows of block b in every database column (PVEC layout)
          final int seg = cols[c0].base() + b * 8 * pvRows + 8 * t0;
          if (next != null) {
            queueNextGroup(next, cols, b, t0, c1, cg, tile, rows, blocks, pvRows);
          }
          if (readAhead && !groupWarm) {
            for (int c = c0; c < c1; c++) {
              runs[c - c0] = cols[c].data();
              runOffs[c - c0] = seg;
            }
            ahead += k.readAhead(runs, runOffs, c1 - c0, 8 * tr);
          }
          // lines to prefetch per kernel chunk: the queue spread over the group's chunks
          int quota = 0;
          if (next != null) {
            long chunks = 0;
            for (int p0 = 0; p0 < tr; p0 += panel) {
              chunks += (Math.min(panel, tr - p0) + chunk - 1) / chunk;
            }
            final int perColumn = wideV > 0
                ? (c1 - c0) / wideV + ((c1 - c0) % wideV + mr - 1) / mr
                : fourV > 0 ? (c1 - c0) / fourV + (c1 - c0) % fourV
                : (c1 - c0 + mr - 1) / mr;
            chunks *= (long) nq * ((ncols + nr - 1) / nr) * perColumn;
            quota = (int) Math.max(1, (next.total() + chunks - 1) / chunks);
          }
          for (int p0 = 0; p0 < tr; p0 += panel) {
            final int pr = Math.min(panel, tr - p0);
            final int uOff = seg + 8 * p0;
            for (int q = 0; q < nq; q++) {
              final int tOff = pk + q * packLen;
              final int st = a0 + stStride * q * nc;
              for (int j = 0; j < ncols; j += nr) {
                final int wj = Math.min(nr, ncols - j);
                // panel of columns [j, j + wj): row i at tOff + tr*(j/nr)*fullRow + row(wj)*i
                final int rowLen = gauss ? VmpKernel.gaussRow(wj) : 8 * wj;
                final int vOff = tOff + tr * (j / nr) * fullRow + rowLen * p0;
                for (int c = c0; c < c1; ) {
                  if (wideV > 0 && c + wideV <= c1) {
                    final int s0 = st + stStride * c;
                    for (int r0 = 0; r0 < pr; r0 += chunk) {
                      final int h = Math.min(chunk, pr - r0);
                      if (next != null) {
                        next.step(quota);
                      }
                      k.macGaussWide(wideV, wj, h, colData, c, uOff + 8 * r0, tmp,
                          vOff + rowLen * r0, tmp, s0 + 8 * j, s0 + kRegion + 4 * j, stStride);
                    }
                    c += wideV;
                    continue;
                  }
                  if (fourV > 0) {
                    // four-product panels: fourV columns at a time, the rest one by one
                    final int w = c + fourV <= c1 ? fourV : 1;
                    final int s0 = st + stStride * c;
                    for (int r0 = 0; r0 < pr; r0 += chunk) {
                      final int h = Math.min(chunk, pr - r0);
                      if (next != null) {
                        next.step(quota);
                      }
                      k.macFourWide(w, wj, h, colData, c, uOff + 8 * r0, tmp, vOff + rowLen * r0,
                          tmp, s0 + 16 * j, stStride);
                    }
                    c += w;
                    continue;
                  }
                  // one register block of database columns, gauss: up to mr, else 2 or 1
                  final int w = gauss ? Math.min(mr, c1 - c) : (mr == 2 && c + 2 <= c1 ? 2 : 1);
                  final int s0 = st + stStride * c;
                  for (int r0 = 0; r0 < pr; r0 += chunk) {
                    final int h = Math.min(chunk, pr - r0);
                    if (next != null) {
                      next.step(quota);
                    }
                    if (gauss) {
                      k.macGauss(w, wj, h, cols[c].data(), w > 1 ? cols[c + 1].data() : null,
                          w > 2 ? cols[c + 2].data() : null, uOff + 8 * r0, tmp,
                          vOff + rowLen * r0, tmp, s0 + 8 * j, s0 + kRegion + 4 * j, stStride);
                    } else {
                      k.macTile(w, wj, h, cols[c].data(), w > 1 ? cols[c + 1].data() : null,
                          uOff + 8 * r0, tmp, vOff + rowLen * r0, tmp, s0 + 16 * j, stStride);
                    }
                  }
                  c += w;
                }
              }
            }
          }
          if (next != null) {
            next.rest();
            groupWarm = true;
          }
        }
      }
      final int g = b % fb;
      for (int x = 0; x < nq * nc; x++) {
        final int s = a0 + stStride * x;
        for (int j = 0; j < ncols; j++) {
          final int dst = fin + 8 * fb * (x * ncols + j) + 4 * g;
          if (gauss) {
            k.finishGauss(tmp, s + 8 * j, s + kRegion + 4 * j, tmp, dst, 4 * fb);
          } else if (fourV > 0) {
            k.finishFourWide(tmp, s + 16 * j, tmp, dst, 4 * fb);
          } else {
            k.finish(tmp, s + 16 * j, tmp, dst, 4 * fb);
          }
        }
      }
      if (g == fb - 1 || b == blocks - 1) {
        writeFinished(tmp, fin, fb, b - g, g + 1, res, nq, nc, ncols, n);
      }
    }
    readAheadSink = ahead;
    // the path the guard watches: a wide kernel's (null: nothing narrower to fall back to)
    return fourV > 0 ? "four-product " + fourV + "x" + ncols
        : wideV > 0 ? "Gauss " + wideV + "x" + ncols : null;
  }

  /**
   * Fills {@code next} with the database segments of the group after the one ending at column
   * c1 of row tile t0 in block b: the next columns of the tile, or after its last group the next
   * tile's first group (its PMAT tile is read ahead: prefetching it too gained nothing, 288-290
   * ms either way); nothing after the last group of the pass.
   */
  private static void queueNextGroup(PrefetchQueue next, Pvec[] cols, int b, int t0, int c1,
      int cg, int tile, int rows, int blocks, int pvRows) {
    next.clear();
    final int nc = cols.length;
    int nb = b;
    int nt0 = t0;
    int n0 = c1;
    if (c1 >= nc) {
      n0 = 0;
      nt0 = t0 + tile;
      if (nt0 >= rows) {
        nt0 = 0;
        nb = b + 1;
      }
    }
    if (nb >= blocks) {
      return;
    }
    final int nseg = cols[n0].base() + nb * 8 * pvRows + 8 * nt0;
    for (int c = n0; c < Math.min(nc, n0 + cg); c++) {
      next.add(cols[c].data(), nseg, Math.min(tile, rows - nt0));
    }
  }

  /**
   * Copies the finished sums of blocks [b0, b0 + count) (staged at fin, layout in {@link
   * #batch}) into the results: for (q, c, j), {@code 4*count} real parts to {@code
   * res[q][c][j*N + 4*b0 ..]} and as many imaginary parts to {@code j*N + N/2 + 4*b0}.
   */
  private static void writeFinished(double[] tmp, int fin, int fb, int b0, int count,
      double[][][] res, int nq, int nc, int ncols, int n) {
    final int len = 4 * count;
    for (int q = 0; q < nq; q++) {
      for (int c = 0; c < nc; c++) {
        final double[] out = res[q][c];
        final int x0 = (q * nc + c) * ncols;
        for (int j = 0; j < ncols; j++) {
          final int src = fin + 8 * fb * (x0 + j);
          System.arraycopy(tmp, src, out, j * n + 4 * b0, len);
          System.arraycopy(tmp, src + 4 * fb, out, j * n + n / 2 + 4 * b0, len);
        }
      }
    }
  }

  /**
   * {@link VmpKernel#readAhead} of rows [t0, t0+tr) of block b of every column of pmat (runs and
   * offs: scratch of at least ceil(ncols/2) entries).
   */
  private double readAheadTile(Pmat pmat, int b, int t0, int tr, double[][] runs, int[] offs) {
    final int nrows = pmat.nrows();
    final int ncols = pmat.ncols();
    // a column pair's rows are one run (row stride 16); an odd last column's, stride 8
    final int pairs = ncols / 2;
    for (int p = 0; p < pairs; p++) {
      runs[p] = pmat.data();
      offs[p] = pmat.base() + Pmat.offset(pmat.n(), nrows, ncols, b, t0, 2 * p);
    }
    double sum = k.readAhead(runs, offs, pairs, Pmat.rowStride(ncols, 0) * tr);
    if (ncols % 2 == 1) {
      runs[0] = pmat.data();
      offs[0] = pmat.base() + Pmat.offset(pmat.n(), nrows, ncols, b, t0, ncols - 1);
      sum += k.readAhead(runs, offs, 1, Pmat.rowStride(ncols, ncols - 1) * tr);
    }
    return sum;
  }
}
