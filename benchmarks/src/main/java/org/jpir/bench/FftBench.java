package org.jpir.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.jpir.vmp.Aligned;
import org.jpir.vmp.FftPlan;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Forward and inverse negacyclic FFT, in place, on one buffer of N doubles. The transform is
 * unscaled and the buffer is not reset between calls, so after a few hundred calls its values
 * overflow to infinities and NaNs; on x86 AVX these cost nothing extra (only subnormals do, and
 * the values only grow), so timing does not depend on them (checked: a loop that refills the
 * buffer every 64 calls timed the same). {@code impl} selects the kernel through {@link
 * FftPlan#of(int, String)}. JVM options come from the runner ({@code -jvmArgsAppend "$(cat
 * jpir-jvm.options)"}), never from an annotation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FftBench {
  @Param({"4096", "16384"})
  public int n;

  @Param({"ref", "panama"})
  public String impl;

  /**
   * Whether the data starts on a 64-byte boundary ({@link Aligned#LEAD}, as in the library's
   * scratch), or 16 bytes past one ({@code -p aligned=false}: what an array at index 0 gets).
   */
  @Param({"true"})
  public boolean aligned;

  private FftPlan plan;
  private double[] buf;
  private int off;

  @Setup
  public void setup() {
    plan = FftPlan.of(n, impl);
    FftPlan ref = FftPlan.of(n, "ref");
    FftPlan pan = FftPlan.of(n, "panama");
    SplittableRandom rnd = new SplittableRandom(42);
    off = aligned ? Aligned.LEAD : Aligned.LEAD + 2;
    buf = new double[off + n];
    for (int i = 0; i < n; i++) {
      buf[off + i] = rnd.nextDouble(-1, 1);
    }
    double[] a = buf.clone();
    double[] b = buf.clone();
    ref.fft(a, off);
    pan.fft(b, off);
    double worst = 0;
    for (int i = off; i < off + n; i++) {
      worst = Math.max(worst, Math.abs(a[i] - b[i]));
    }
    if (!(worst <= 1e-9)) {
      throw new IllegalStateException("ref and panama FFT disagree by " + worst + " at N=" + n);
    }
  }

  @Benchmark
  public double[] fft() {
    plan.fft(buf, off);
    return buf;
  }

  @Benchmark
  public double[] ifft() {
    plan.ifft(buf, off);
    return buf;
  }
}
