package org.jpir.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Pvec;
import org.jpir.vmp.Vmp;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The database pass ({@link Vmp#applyPvecMulti}) at the reference parameters: N=4096,
 * nrows=4096, ncols=12, 32 database columns. flops = 8*(N/2)*nrows*ncols*columns = 25.8e9 per
 * op, so GFLOP/s = 25770 / (ms/op). Memory: PMAT 1.5 GiB + 32 PVECs 4 GiB: run the fork with
 * {@code -Xmx8g} or more.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 4, time = 3)
@Fork(1)
public class MultiColumnBench {

  /** {@code N:nrows:ncols:columns}. */
  @Param({"4096:4096:12:32"})
  public String shape;

  /** {@code ref} or {@code panama} (also {@code panama256}, {@code panama512}). */
  @Param({"ref", "panama"})
  public String kernel;

  private Vmp ops;
  private Pmat pmat;
  private Pvec[] cols;
  private double[][] res;
  private double[] tmp;

  @Setup(Level.Trial)
  public void setup() {
    String[] p = shape.split(":");
    int n = Integer.parseInt(p[0]);
    int nrows = Integer.parseInt(p[1]);
    int ncols = Integer.parseInt(p[2]);
    int nc = Integer.parseInt(p[3]);
    ops = Vmp.of(kernel);
    pmat = Pmat.allocate(n, nrows, ncols);
    VmpBench.fill(pmat, 1);
    cols = new Pvec[nc];
    res = new double[nc][n * ncols];
    for (int c = 0; c < nc; c++) {
      cols[c] = Pvec.allocate(n, nrows);
      VmpBench.fill(cols[c], 7L * c + 3);
    }
    tmp = new double[Vmp.applyPvecMultiTmpLength(n, nrows, ncols, nc)];
    // before timing: the pass equals per-column applyPvecToDft with the reference kernel,
    // bitwise, on a few columns (all of them would cost the reference ~nc seconds)
    ops.applyPvecMulti(pmat, cols, res, tmp);
    Vmp ref = Vmp.of("ref");
    double[] one = new double[n * ncols];
    double[] t = new double[Vmp.applyPvecToDftTmpLength(n, nrows, ncols)];
    for (int c : new int[] {0, nc / 2, nc - 1}) {
      ref.applyPvecToDft(pmat, cols[c], one, 0, ncols, t);
      if (!Arrays.equals(one, res[c])) {
        throw new IllegalStateException(kernel + " multi-column pass disagrees with ref, col " + c);
      }
    }
  }

  @Benchmark
  public double[][] applyPvecMulti() {
    ops.applyPvecMulti(pmat, cols, res, tmp);
    return res;
  }
}
