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
 * of a 1 GiB double array with 8 independent accumulators at 256 bits ({@link #streamRead}) and
 * at 512 bits (memory bandwidth, for the memory-bound applies and phase 1), and a peak double
 * FMA loop of 12 independent chains at 256 bits ({@link #peakFma}) and at 512 bits (FMA latency
 * 4 cycles x 2 pipes needs at least 8 chains; 12 is what a C loop uses to reach the peak). The
 * report takes the larger width of each as the ceiling ({@link #STREAM_BYTES}, {@link #flops}).
 * Under {@code -XX:UseAVX=2} the 512-bit species is not compiled to vector code, so the 256-bit
 * figures are the ceilings there.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class MachineBench {
  /** Bytes read by one streaming-read call. */
  public static final long STREAM_BYTES = 1L << 30;
  /** Iterations of the FMA loops. */
  static final int FMA_ITERS = 1 << 20;
  /** Independent FMA chains of the peak loops. */
  static final int CHAINS = 12;
  /** Flops of one {@link #peakFma} call: iterations x 12 chains x 4 lanes x 2. */
  public static final long FMA_FLOPS = peakFmaFlops(CHAINS);
  private static final VectorSpecies<Double> S256 = DoubleVector.SPECIES_256;
  private static final VectorSpecies<Double> S512 = DoubleVector.SPECIES_512;

  private double[] big;
  private double[] seed;

  /**
   * Flops of one {@link #peakFma} call with {@code chains} chains (12 now; 16 before the
   * 512-bit variants came, which raw data of that time did not record).
   */
  static long peakFmaFlops(int chains) {
    return (long) FMA_ITERS * chains * 4 * 2;
  }

  /** Flops of one call of a peak method ({@code peakFma} or {@code peakFma512}). */
  public static long flops(String method) {
    return method.endsWith("512") ? 2 * FMA_FLOPS : FMA_FLOPS;
  }

  /** True for the FMA ceiling methods. */
  static boolean isPeak(String method) {
    return method.startsWith("peakFma");
  }

  /** True for the streaming ceiling methods. */
  static boolean isStream(String method) {
    return method.startsWith("streamRead");
  }

  @Setup
  public void setup() {
    big = new double[(int) (STREAM_BYTES / Double.BYTES)];
    for (int i = 0; i < big.length; i++) {
      big[i] = i & 1023;
    }
    seed = new double[CHAINS * 8 + 8];
    for (int i = 0; i < seed.length; i++) {
      seed[i] = 1.0 + i * 1e-9;
    }
  }

  /** Sums 1 GiB with 256-bit vectors and 8 independent accumulators. */
  @Benchmark
  public double streamRead() {
    double[] a = big;
    DoubleVector s0 = DoubleVector.zero(S256);
    DoubleVector s1 = DoubleVector.zero(S256);
    DoubleVector s2 = DoubleVector.zero(S256);
    DoubleVector s3 = DoubleVector.zero(S256);
    DoubleVector s4 = DoubleVector.zero(S256);
    DoubleVector s5 = DoubleVector.zero(S256);
    DoubleVector s6 = DoubleVector.zero(S256);
    DoubleVector s7 = DoubleVector.zero(S256);
    int step = 32;
    int bound = a.length - a.length % step;
    for (int i = 0; i < bound; i += step) {
      s0 = s0.add(DoubleVector.fromArray(S256, a, i + 0));
      s1 = s1.add(DoubleVector.fromArray(S256, a, i + 4));
      s2 = s2.add(DoubleVector.fromArray(S256, a, i + 8));
      s3 = s3.add(DoubleVector.fromArray(S256, a, i + 12));
      s4 = s4.add(DoubleVector.fromArray(S256, a, i + 16));
      s5 = s5.add(DoubleVector.fromArray(S256, a, i + 20));
      s6 = s6.add(DoubleVector.fromArray(S256, a, i + 24));
      s7 = s7.add(DoubleVector.fromArray(S256, a, i + 28));
    }
    return s0.add(s1).add(s2).add(s3).add(s4).add(s5).add(s6).add(s7).reduceLanes(VectorOperators.ADD);
  }

  /** Sums 1 GiB with 512-bit vectors and 8 independent accumulators. */
  @Benchmark
  public double streamRead512() {
    double[] a = big;
    DoubleVector s0 = DoubleVector.zero(S512);
    DoubleVector s1 = DoubleVector.zero(S512);
    DoubleVector s2 = DoubleVector.zero(S512);
    DoubleVector s3 = DoubleVector.zero(S512);
    DoubleVector s4 = DoubleVector.zero(S512);
    DoubleVector s5 = DoubleVector.zero(S512);
    DoubleVector s6 = DoubleVector.zero(S512);
    DoubleVector s7 = DoubleVector.zero(S512);
    int step = 64;
    int bound = a.length - a.length % step;
    for (int i = 0; i < bound; i += step) {
      s0 = s0.add(DoubleVector.fromArray(S512, a, i + 0));
      s1 = s1.add(DoubleVector.fromArray(S512, a, i + 8));
      s2 = s2.add(DoubleVector.fromArray(S512, a, i + 16));
      s3 = s3.add(DoubleVector.fromArray(S512, a, i + 24));
      s4 = s4.add(DoubleVector.fromArray(S512, a, i + 32));
      s5 = s5.add(DoubleVector.fromArray(S512, a, i + 40));
      s6 = s6.add(DoubleVector.fromArray(S512, a, i + 48));
      s7 = s7.add(DoubleVector.fromArray(S512, a, i + 56));
    }
    return s0.add(s1).add(s2).add(s3).add(s4).add(s5).add(s6).add(s7).reduceLanes(VectorOperators.ADD);
  }

  /** 12 independent chains of 256-bit FMAs. */
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
    }
    DoubleVector s = a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(a6).add(a7).add(a8).add(a9).add(a10).add(a11);
    return s.reduceLanes(VectorOperators.ADD);
  }

  /** 12 independent chains of 512-bit FMAs. */
  @Benchmark
  public double peakFma512() {
    DoubleVector m = DoubleVector.broadcast(S512, 0.999999999);
    DoubleVector c = DoubleVector.broadcast(S512, 1e-12);
    DoubleVector a0 = DoubleVector.fromArray(S512, seed, 0);
    DoubleVector a1 = DoubleVector.fromArray(S512, seed, 8);
    DoubleVector a2 = DoubleVector.fromArray(S512, seed, 16);
    DoubleVector a3 = DoubleVector.fromArray(S512, seed, 24);
    DoubleVector a4 = DoubleVector.fromArray(S512, seed, 32);
    DoubleVector a5 = DoubleVector.fromArray(S512, seed, 40);
    DoubleVector a6 = DoubleVector.fromArray(S512, seed, 48);
    DoubleVector a7 = DoubleVector.fromArray(S512, seed, 56);
    DoubleVector a8 = DoubleVector.fromArray(S512, seed, 64);
    DoubleVector a9 = DoubleVector.fromArray(S512, seed, 72);
    DoubleVector a10 = DoubleVector.fromArray(S512, seed, 80);
    DoubleVector a11 = DoubleVector.fromArray(S512, seed, 88);
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
    }
    DoubleVector s = a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(a6).add(a7).add(a8).add(a9).add(a10).add(a11);
    return s.reduceLanes(VectorOperators.ADD);
  }
}
