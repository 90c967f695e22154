package org.jpir.bench;

import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The machine's ceilings, measured in the same run as the kernels they judge: a streaming read
 * of a 1 GiB double array (memory bandwidth, for the memory-bound applies) and a peak double FMA
 * loop (for the compute-bound multi-column pass). The runner converts the times into GB/s and
 * GFLOP/s with {@link #STREAM_BYTES} and {@link #FMA_FLOPS}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class MachineBench {
  /** Bytes read by one {@link #streamRead} call. */
  public static final long STREAM_BYTES = 1L << 30;
  /** Iterations of the FMA loop. */
  static final int FMA_ITERS = 1 << 20;
  private static final VectorSpecies<Double> S256 = DoubleVector.SPECIES_256;
  /** Flops of one {@link #peakFma} call: iterations x 16 chains x 4 lanes x 2. */
  public static final long FMA_FLOPS = (long) FMA_ITERS * 16 * 4 * 2;

  private double[] big;
  private double[] seed;

  @Setup
  public void setup() {
    big = new double[(int) (STREAM_BYTES / Double.BYTES)];
    for (int i = 0; i < big.length; i++) {
      big[i] = i & 1023;
    }
    seed = new double[16 * 4 + 8];
    for (int i = 0; i < seed.length; i++) {
      seed[i] = 1.0 + i * 1e-9;
    }
  }

  /** Sums 1 GiB with 256-bit vectors and 4 independent accumulators. */
  @Benchmark
  public double streamRead() {
    double[] a = big;
    DoubleVector s0 = DoubleVector.zero(S256);
    DoubleVector s1 = s0;
    DoubleVector s2 = s0;
    DoubleVector s3 = s0;
    int step = 4 * S256.length();
    int bound = a.length - a.length % step;
    for (int i = 0; i < bound; i += step) {
      s0 = s0.add(DoubleVector.fromArray(S256, a, i));
      s1 = s1.add(DoubleVector.fromArray(S256, a, i + 4));
      s2 = s2.add(DoubleVector.fromArray(S256, a, i + 8));
      s3 = s3.add(DoubleVector.fromArray(S256, a, i + 12));
    }
    return s0.add(s1).add(s2).add(s3).reduceLanes(VectorOperators.ADD);
  }

  /** 16 independent chains of 256-bit FMAs (hides the 4-cycle latency on 2 pipes). */
  @Benchmark
  public double peakFma() {
    DoubleVector m = DoubleVector.broadcast(S256, 0.999999999);
    DoubleVector c = DoubleVector.broadcast(S256, 1e-12);
    DoubleVector a0 = DoubleVector.fromArray(S256, seed, 0);
    DoubleVector a1 = DoubleVector.fromArray(S256, seed, 4);
    DoubleVector a2 = DoubleVector.fromArray(S256, seed, 8);
    DoubleVector a3 = DoubleVector.fromArray(S256, seed, 12);
    DoubleVector a4 = DoubleVector.fromArray(S256, seed, 16);
    DoubleVector a5 = DoubleVector.fromArray(S256, seed, 20);
    DoubleVector a6 = DoubleVector.fromArray(S256, seed, 24);
    DoubleVector a7 = DoubleVector.fromArray(S256, seed, 28);
    DoubleVector a8 = DoubleVector.fromArray(S256, seed, 32);
    DoubleVector a9 = DoubleVector.fromArray(S256, seed, 36);
    DoubleVector a10 = DoubleVector.fromArray(S256, seed, 40);
    DoubleVector a11 = DoubleVector.fromArray(S256, seed, 44);
    DoubleVector a12 = DoubleVector.fromArray(S256, seed, 48);
    DoubleVector a13 = DoubleVector.fromArray(S256, seed, 52);
    DoubleVector a14 = DoubleVector.fromArray(S256, seed, 56);
    DoubleVector a15 = DoubleVector.fromArray(S256, seed, 60);
    for (int i = 0; i < FMA_ITERS; i++) {
      a0 = a0.fma(m, c);
      a1 = a1.fma(m, c);
      a2 = a2.fma(m, c);
      a3 = a3.fma(m, c);
      a4 = a4.fma(m, c);
      a5 = a5.fma(m, c);
      a6 = a6.fma(m, c);
      a7 = a7.fma(m, c);
      a8 = a8.fma(m, c);
      a9 = a9.fma(m, c);
      a10 = a10.fma(m, c);
      a11 = a11.fma(m, c);
      a12 = a12.fma(m, c);
      a13 = a13.fma(m, c);
      a14 = a14.fma(m, c);
      a15 = a15.fma(m, c);
    }
    DoubleVector s = a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(a6).add(a7)
        .add(a8).add(a9).add(a10).add(a11).add(a12).add(a13).add(a14).add(a15);
    return s.reduceLanes(VectorOperators.ADD);
  }
}
