package org.jpir.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Reim;
import org.jpir.vmp.Reim4;
import org.jpir.vmp.Znx;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The SIMD study's one-polynomial operations ({@link SimdStudy}): FFT, IFFT, int64 to reim and
 * back, reim4 block extraction and base-2^K normalization, at ring degree {@code n}. Every
 * kernel is the JVM-wide choice ({@code -Djpir.kernels=ref|panama}), so the variants of the study
 * differ only in the fork's JVM arguments; the operations that have no Vector API kernel
 * (the int64/double conversions) run the same scalar code in every variant and show what the JIT
 * tiers and the auto-vectorizer do with it. The FFT and IFFT transform their own buffer in place
 * call after call; both buffers hold zeros, a fixed point of the (linear) transforms, so the
 * values never grow into infinities and NaNs or shrink into subnormals. The arithmetic is the
 * same as on any other finite data (x86 double add, multiply and FMA take the same time for
 * every finite non-subnormal operand), and no call depends on how many calls ran before it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SimdPolyBench {
  /** Rows extracted per reim4 block (a PVEC of this many rows, block by block). */
  static final int EXTRACT_ROWS = 8;
  /** Limbs normalized (one GLWE component of the production preset). */
  static final int LIMBS = 6;
  /** Base 2^K of the normalization. */
  static final int BASE2K = 16;

  @Param({"2048", "4096", "16384"})
  public int n;

  private FftPlan plan;
  private double[] buf;
  private double[] fftBuf;
  private double[] ifftBuf;
  private long[] znx;
  private double[] reim;
  private long[] back;
  private double[] rows;
  private double[] block;
  private long[] limbs;
  private long[] limbsOut;
  private long[] carry;

  @Setup
  public void setup() {
    plan = FftPlan.of(n);
    SplittableRandom rnd = new SplittableRandom(42);
    buf = new double[n];
    znx = new long[n];
    reim = new double[n];
    back = new long[n];
    fftBuf = new double[n];
    ifftBuf = new double[n];
    for (int i = 0; i < n; i++) {
      buf[i] = rnd.nextDouble(-1, 1);
      znx[i] = rnd.nextLong(-(1L << 40), 1L << 40);
      reim[i] = rnd.nextDouble(-(1L << 40), 1L << 40);
    }
    rows = new double[EXTRACT_ROWS * n];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = rnd.nextDouble(-1, 1);
    }
    block = new double[8 * EXTRACT_ROWS];
    limbs = new long[LIMBS * n];
    for (int i = 0; i < limbs.length; i++) {
      limbs[i] = rnd.nextLong(-(1L << 20), 1L << 20);
    }
    limbsOut = new long[LIMBS * n];
    carry = new long[Znx.normalizeTmpLength(n)];
  }

  @Benchmark
  public double[] fft() {
    plan.fft(fftBuf, 0);
    return fftBuf;
  }

  @Benchmark
  public double[] ifft() {
    plan.ifft(ifftBuf, 0);
    return ifftBuf;
  }

  /** int64 coefficients to reim doubles (reads 8N bytes, writes 8N). */
  @Benchmark
  public double[] fromZnx() {
    Reim.fromZnx(n, znx, 0, buf, 0);
    return buf;
  }

  /** reim doubles to int64 with rounding and scaling (reads 8N bytes, writes 8N). */
  @Benchmark
  public long[] toZnx() {
    Reim.toZnx(n, reim, 0, back, 0);
    return back;
  }

  /** Every reim4 block of {@value #EXTRACT_ROWS} rows (reads and writes 8 * 8N bytes). */
  @Benchmark
  public double[] reim4Extract() {
    for (int b = 0; b < n / 8; b++) {
      Reim4.extractBlock(n, b, EXTRACT_ROWS, rows, 0, block, 0);
    }
    return block;
  }

  /** Base-2^16 normalization of {@value #LIMBS} limbs with carries (reads and writes 6 * 8N). */
  @Benchmark
  public long[] normalize() {
    Znx.normalize(n, BASE2K, limbs, 0, LIMBS, limbsOut, 0, LIMBS, carry);
    return limbsOut;
  }
}
