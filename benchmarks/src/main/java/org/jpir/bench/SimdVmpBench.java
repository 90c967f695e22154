package org.jpir.bench;

import java.util.concurrent.TimeUnit;
import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Pvec;
import org.jpir.vmp.Reim;
import org.jpir.vmp.Vmp;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The SIMD study's vector-matrix operations at the seed's shapes ({@code N:nrows:ncols}), with
 * the JVM-wide kernels ({@code -Djpir.kernels=ref|panama}): the two applies (the layout
 * comparison of the first seed), the multi-column pass per column, and PMAT / PVEC preparation
 * from int64 polynomials (conversion, FFT, layout). Setup allocates only what the benchmark
 * being run needs (the 4096x4096x12 PMAT alone is 1.5 GiB).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SimdVmpBench extends VmpApplies {
  /** Database columns of the multi-column pass; its score is per column. */
  public static final int COLUMNS = 8;
  /**
   * PMAT rows prepared per call of {@link #pmatPrepare}; its score is per row. Rows are
   * prepared independently, so the per-row time is that of the whole matrix divided by nrows;
   * a few rows per call keep one observation short enough for thousands of them.
   */
  public static final int PREP_ROWS = 4;

  /** {@code N:nrows:ncols}. */
  @Param({"4096:512:12", "4096:4096:12", "16384:15:30"})
  public String shape;

  private int n;
  private FftPlan plan;
  private Pvec[] cols;
  private double[][] multiRes;
  private long[] znxRows;
  private double[] rowBuf;
  private int nextRow;

  @Setup(Level.Trial)
  public void setup(BenchmarkParams bp) {
    setup(bp.getBenchmark().substring(bp.getBenchmark().lastIndexOf('.') + 1));
  }

  /** Allocates and fills what benchmark {@code method} needs. */
  void setup(String method) {
    String[] p = shape.split(":");
    n = Integer.parseInt(p[0]);
    nrows = Integer.parseInt(p[1]);
    ncols = Integer.parseInt(p[2]);
    ops = Vmp.get();
    plan = FftPlan.of(n);
    switch (method) {
      case "applyDftToDft":
      case "applyPvecToDft":
      case "multiColumn":
        pmat = Pmat.allocate(n, nrows, ncols);
        VmpBench.fill(pmat, 1);
        res = new double[n * ncols];
        break;
      case "pmatPrepare":
        pmat = Pmat.allocate(n, nrows, ncols);
        znxRows = new long[ncols * n];
        for (int i = 0; i < znxRows.length; i++) {
          znxRows[i] = (i * 2654435761L) % 65536 - 32768;
        }
        rowBuf = new double[ncols * n];
        break;
      case "pvecPrepare":
        pvec = Pvec.allocate(n, nrows);
        znxRows = new long[nrows * n];
        for (int i = 0; i < znxRows.length; i++) {
          znxRows[i] = (i * 2654435761L) % 65536 - 32768;
        }
        break;
      default:
        throw new IllegalStateException("SimdVmpBench: no setup for " + method);
    }
    switch (method) {
      case "applyDftToDft":
        vec = new double[n * nrows];
        VmpBench.fill(vec, 5);
        tmp = new double[Vmp.applyDftToDftTmpLength(n, nrows, ncols)];
        break;
      case "applyPvecToDft":
        pvec = Pvec.allocate(n, nrows);
        VmpBench.fill(pvec, 5);
        tmp = new double[Vmp.applyPvecToDftTmpLength(n, nrows, ncols)];
        break;
      case "multiColumn":
        cols = new Pvec[COLUMNS];
        multiRes = new double[COLUMNS][n * ncols];
        for (int c = 0; c < COLUMNS; c++) {
          cols[c] = Pvec.allocate(n, nrows);
          VmpBench.fill(cols[c], 7L * c + 3);
        }
        tmp = new double[Vmp.applyPvecMultiTmpLength(n, nrows, ncols, COLUMNS)];
        break;
      default:
        break;
    }
  }

  /** The multi-column pass over {@value #COLUMNS} PVECs; the score is per column. */
  @Benchmark
  @OperationsPerInvocation(COLUMNS)
  public double[][] multiColumn() {
    ops.applyPvecMulti(pmat, cols, multiRes, tmp);
    return multiRes;
  }

  /**
   * PMAT preparation from int64 polynomials, row by row as {@code GlweOps.prepare(Ggsw)} does it:
   * per row, ncols conversions and FFTs, then the reim4 layout (one row of input reused);
   * {@value #PREP_ROWS} consecutive rows per call, cycling through the matrix, score per row.
   */
  @Benchmark
  @OperationsPerInvocation(PREP_ROWS)
  public Pmat pmatPrepare() {
    for (int i = 0; i < PREP_ROWS; i++) {
      int r = nextRow;
      nextRow = nextRow + 1 == nrows ? 0 : nextRow + 1;
      for (int c = 0; c < ncols; c++) {
        Reim.fromZnx(n, znxRows, c * n, rowBuf, c * n);
        plan.fft(rowBuf, c * n);
      }
      pmat.prepareRow(r, rowBuf, 0);
    }
    return pmat;
  }

  /** PVEC preparation of nrows int64 polynomials (conversion, FFT, reim4 layout). */
  @Benchmark
  public Pvec pvecPrepare() {
    pvec.prepareFromZnx(znxRows, 0);
    return pvec;
  }
}
