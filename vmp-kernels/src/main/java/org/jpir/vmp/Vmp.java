package org.jpir.vmp;

/**
 * Vector-matrix products in the FFT domain (spqlios {@code vmp_apply_dft_to_dft} and the
 * prepared-vector variants), with the JVM-wide kernel of {@link VmpKernels#defaultKernel()}.
 * {@link #with(VmpKernel)} binds the same operations to a given kernel (tests, benchmarks).
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
 * VmpKernel}). Every entry point and every kernel follows that order, so <b>all of them are
 * bitwise identical</b>: applyDftToDft, applyPvecToDft, the multi-column and batched passes (the
 * row tiling carries the chains across tiles), ref and panama. The {@code Add} forms compute
 * {@code res + product} with one rounding of the sum.
 *
 * <p>Exactness: when all partial sums are integers below 2^53 in magnitude the result is exact;
 * that is the caller's bound to keep (see DESIGN.md section 3).
 */
public final class Vmp {
  private static final VmpOps DEFAULT = new VmpOps(VmpKernels.defaultKernel());

  private Vmp() {}

  /** The operations of this class bound to {@code kernel}. */
  public static VmpOps with(VmpKernel kernel) {
    return new VmpOps(kernel);
  }

  /** Scratch doubles for {@link #applyDftToDft}: {@code 32 + 8*min(8, N/8)*nrows}. */
  public static int applyDftToDftTmpLength(int n, int nrows, int ncols) {
    return VmpOps.applyDftToDftTmpLength(n, nrows, ncols);
  }

  /** Scratch doubles for {@link #applyPvecToDft}: 32. */
  public static int applyPvecToDftTmpLength(int n, int nrows, int ncols) {
    return VmpOps.applyPvecToDftTmpLength(n, nrows, ncols);
  }

  /** Scratch doubles for {@link #applyPvecMulti} over {@code columns} columns. */
  public static int applyPvecMultiTmpLength(int n, int nrows, int ncols, int columns) {
    return VmpOps.applyPvecBatchTmpLength(1, n, nrows, ncols, columns);
  }

  /**
   * Scratch doubles for {@link #applyPvecBatch}: {@code 16*queries*columns*ncols} (the
   * accumulator states of one block) plus {@code 8*queries*ncols*min(T, nrows)} (the packed
   * tiles; T the largest default tile of {@link VmpOps#tiling} on this machine).
   */
  public static int applyPvecBatchTmpLength(int queries, int n, int nrows, int ncols,
      int columns) {
    return VmpOps.applyPvecBatchTmpLength(queries, n, nrows, ncols, columns);
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
  public static void applyDftToDft(Pmat pmat, double[] vec, int vecOff, int vecRows,
      double[] res, int resOff, int resCols, double[] tmp) {
    DEFAULT.applyDftToDft(pmat, vec, vecOff, vecRows, res, resOff, resCols, tmp);
  }

  /** As {@link #applyDftToDft} but adds the product into res (extra columns unchanged). */
  public static void applyDftToDftAdd(Pmat pmat, double[] vec, int vecOff, int vecRows,
      double[] res, int resOff, int resCols, double[] tmp) {
    DEFAULT.applyDftToDftAdd(pmat, vec, vecOff, vecRows, res, resOff, resCols, tmp);
  }

  /**
   * As {@link #applyDftToDft} with the vector read from a PVEC ({@code vecRows = vec.nrows()});
   * bitwise identical to it. tmp: {@link #applyPvecToDftTmpLength} doubles.
   *
   * @throws IllegalArgumentException on null, N mismatch, or short buffers
   */
  public static void applyPvecToDft(Pmat pmat, Pvec vec, double[] res, int resOff, int resCols,
      double[] tmp) {
    DEFAULT.applyPvecToDft(pmat, vec, res, resOff, resCols, tmp);
  }

  /** As {@link #applyPvecToDft} but adds into res. */
  public static void applyPvecToDftAdd(Pmat pmat, Pvec vec, double[] res, int resOff,
      int resCols, double[] tmp) {
    DEFAULT.applyPvecToDftAdd(pmat, vec, res, resOff, resCols, tmp);
  }

  /**
   * The database pass of one query: for every column c, {@code res[c]} (pmat.ncols reim
   * polynomials, column k at {@code k*N}) = what {@code applyPvecToDft(pmat, cols[c], res[c], 0,
   * pmat.ncols(), ..)} writes, <b>bitwise</b>. Block-outer: the PMAT is read once per pass (in
   * row tiles that stay in L2) while every column streams through it. All cols must share N
   * (= pmat's) and nrows. tmp: {@link #applyPvecMultiTmpLength} doubles.
   *
   * @throws IllegalArgumentException on null, N or nrows mismatch, or short buffers
   */
  public static void applyPvecMulti(Pmat pmat, Pvec[] cols, double[][] res, double[] tmp) {
    DEFAULT.applyPvecMulti(pmat, cols, res, tmp);
  }

  /**
   * {@link #applyPvecMulti} for several queries (same N, nrows, ncols) in one pass over the
   * columns: {@code res[q][c]}; each database block is read from memory once for all queries.
   * tmp: {@link #applyPvecBatchTmpLength} doubles.
   */
  public static void applyPvecBatch(Pmat[] queries, Pvec[] cols, double[][][] res,
      double[] tmp) {
    DEFAULT.applyPvecBatch(queries, cols, res, tmp);
  }
}
