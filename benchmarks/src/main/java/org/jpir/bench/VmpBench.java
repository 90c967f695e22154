package org.jpir.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Pvec;
import org.jpir.vmp.Vmp;
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
 * {@code vmp_apply_dft_to_dft} and {@code vmp_apply_pvec_to_dft} at the spqlios reference shapes
 * (spqlios C AVX2 on this machine: 14.2 / 116 / 3.4 ms and 10.3 / 80 / 2.8 ms). The PMAT
 * streams from memory once per call; bytes read = 8*N*nrows*ncols. Needs {@code -Xmx8g} in the
 * fork (pass with -jvmArgsAppend together with jpir-jvm.options).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VmpBench extends VmpApplies {

  /** {@code N:nrows:ncols}. */
  @Param({"4096:512:12", "4096:4096:12", "16384:15:30"})
  public String shape;

  /** {@code ref} or {@code panama} (also {@code panama256}, {@code panama512}). */
  @Param({"ref", "panama"})
  public String kernel;

  /** A deterministic pattern in [-0.5, 0.5), cheap to generate for GiB-sized inputs. */
  static void fill(double[] a, long salt) {
    for (int i = 0; i < a.length; i++) {
      a[i] = value(i, salt);
    }
  }

  /** {@link #fill(double[], long)} on the doubles of a PMAT's layout. */
  static void fill(Pmat m, long salt) {
    m.setAll(i -> value(i, salt));
  }

  /** {@link #fill(double[], long)} on the doubles of a PVEC's layout. */
  static void fill(Pvec v, long salt) {
    v.setAll(i -> value(i, salt));
  }

  private static double value(int i, long salt) {
    return (((i + salt) * 2654435761L) & 1023) / 1024.0 - 0.5;
  }

  @Setup(Level.Trial)
  public void setup() {
    String[] p = shape.split(":");
    int n = Integer.parseInt(p[0]);
    nrows = Integer.parseInt(p[1]);
    ncols = Integer.parseInt(p[2]);
    ops = Vmp.of(kernel);
    pmat = Pmat.allocate(n, nrows, ncols);
    fill(pmat, 1);
    vec = new double[n * nrows];
    fill(vec, 5);
    pvec = Pvec.allocate(n, nrows);
    pvec.prepareFromReim(vec, 0);
    res = new double[n * ncols];
    tmp = new double[Vmp.applyDftToDftTmpLength(n, nrows, ncols)];
    // the kernel under test must agree bitwise with the reference before anything is timed
    double[] a = new double[n * ncols];
    double[] b = new double[n * ncols];
    Vmp.of("ref").applyDftToDft(pmat, vec, 0, nrows, a, 0, ncols, tmp);
    ops.applyDftToDft(pmat, vec, 0, nrows, b, 0, ncols, tmp);
    ops.applyPvecToDft(pmat, pvec, res, 0, ncols, tmp);
    if (!Arrays.equals(a, b) || !Arrays.equals(a, res)) {
      throw new IllegalStateException(kernel + " disagrees with ref at " + shape);
    }
  }
}
