package org.jpir.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The yardstick for the memory-bound applies: one core reading 1 GiB of doubles (scalar loop,
 * 8 independent accumulators, which C2 vectorizes; PLATFORM.md: 28-35 GB/s on a quiet machine).
 * GB/s = 1.0737 / (s/op). Run it in the same session as {@link VmpBench} and compare.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StreamReadBench {
  private double[] a;

  @Setup(Level.Trial)
  public void setup() {
    a = new double[1 << 27];
    VmpBench.fill(a, 11);
  }

  @Benchmark
  public double read1GiB() {
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    double s4 = 0;
    double s5 = 0;
    double s6 = 0;
    double s7 = 0;
    final double[] x = a;
    for (int i = 0; i < x.length; i += 8) {
      s0 += x[i];
      s1 += x[i + 1];
      s2 += x[i + 2];
      s3 += x[i + 3];
      s4 += x[i + 4];
      s5 += x[i + 5];
      s6 += x[i + 6];
      s7 += x[i + 7];
    }
    return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
  }
}
