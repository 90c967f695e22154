package org.jpir.bench;

import java.util.concurrent.TimeUnit;
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
 * figures are the ceilings there. The loops are generated ({@link Ceilings}): each width needs
 * its own with a constant species to be compiled to vector code.
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
    return Ceilings.streamRead256(big);
  }

  /** Sums 1 GiB with 512-bit vectors and 8 independent accumulators. */
  @Benchmark
  public double streamRead512() {
    return Ceilings.streamRead512(big);
  }

  /** 12 independent chains of 256-bit FMAs. */
  @Benchmark
  public double peakFma() {
    return Ceilings.peakFma256(seed);
  }

  /** 12 independent chains of 512-bit FMAs. */
  @Benchmark
  public double peakFma512() {
    return Ceilings.peakFma512(seed);
  }
}
