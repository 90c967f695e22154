package org.jpir.bench;

import org.jpir.vmp.Pmat;
import org.jpir.vmp.Pvec;
import org.jpir.vmp.Vmp;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The two PMAT applies as benchmarks, for {@link VmpBench} and {@link SimdVmpBench} to inherit
 * (JMH runs them under the subclass's name, parameters and units): the subclass's setup fills
 * the operands, each benchmark times one apply into {@code res} and returns it.
 */
@State(Scope.Benchmark)
public abstract class VmpApplies {
  /** The kernels under test. */
  Vmp ops;
  /** The matrix, {@code nrows x ncols}. */
  Pmat pmat;
  /** The vector of {@link #applyPvecToDft}. */
  Pvec pvec;
  /** The plain (reim) vector of {@link #applyDftToDft}, {@code N * nrows} doubles. */
  double[] vec;
  /** The result, {@code N * ncols} doubles. */
  double[] res;
  /** The applies' scratch. */
  double[] tmp;
  /** Rows of the matrix and of the vectors. */
  int nrows;
  /** Columns of the matrix. */
  int ncols;

  /** PMAT times a plain (reim) vector: extracts reim4 blocks of the vector on the fly. */
  @Benchmark
  public double[] applyDftToDft() {
    ops.applyDftToDft(pmat, vec, 0, nrows, res, 0, ncols, tmp);
    return res;
  }

  /** PMAT times a prepared vector (PVEC, already in reim4 blocks). */
  @Benchmark
  public double[] applyPvecToDft() {
    ops.applyPvecToDft(pmat, pvec, res, 0, ncols, tmp);
    return res;
  }
}
