package org.jpir.vmp;

/**
 * Vector API implementation of {@link FftKernel}. Radix-4 stages ({@code R4Passes}, generated)
 * work on 8 butterflies at once with 512-bit vectors (the wide path) or on 4 with 256-bit vectors
 * (the narrow path, which also serves nodes of 16, whose quarters hold only 4 values); nodes of
 * one or two trips run without an inner loop. The narrow leaf works on 256-bit vectors: the top
 * level of the 3-level leaf is one 4-lane butterfly with a broadcast twiddle, and the last two
 * levels run inside one vector of 4 complex values with constant lane shuffles and per-lane
 * twiddle vectors from the table, each level two fused multiply-adds per part. The wide path's
 * 3-level leaf holds one node per 512-bit vector, all three levels with lane shuffles (on Zen 4,
 * whose 512-bit units are double-pumped, it was no faster; on Zen 5 it is 1.3-1.6x; its inverse
 * forms {@code [a + b, b - a]} from one swap of partners, half the shuffles of a spread of both,
 * 1.5x faster on Zen 5; {@link WideNarrowLeaf}, FFT name {@code panama512-leaf256}, pairs the
 * 512-bit passes with the 256-bit leaf: on a Zen 4 it won on the inverse and lost on the
 * forward, so no default changes; figures in
 * benchmarks/results/kernel-choices-20261204-06.md).
 * The leaves are generated ({@code FftLeaves}, from {@code LeafGenerator}
 * in the test sources). Complex products use fused multiply-adds, so results differ from {@code
 * RefFft} by rounding only (tolerance in {@code FftPlan}). No allocation once compiled, on JDK 17
 * and 25 at the widths {@link KernelProvider} picks ({@code KernelAllocationTest}).
 *
 * <p>Width: {@link KernelProvider} decides (the wide path where the JVM compiles 512-bit vectors,
 * from JDK 25 on: JDK 17's C2 boxed the 512-bit vectors of these loops, 256 KB allocated per
 * N=4096 transform, 10x slower); {@link Narrow} and {@link Wide} force it per instance (tests,
 * benchmarks).
 */
class PanamaFft implements FftKernel {
  private static final int LW = 8;

  /**
   * True when radix-4 stages with quarters of at least 8 use 512-bit vectors, and the size-8
   * leaf works on one node per 512-bit vector ({@link #wideLeaf3}).
   */
  private final boolean wide;

  /** True when the size-8 leaf holds one node per 512-bit vector ({@link #wideLeaf3}). */
  private final boolean wideLeaf;

  /** The wide (512-bit) or the narrow (256-bit) radix-4 path, with the leaf of the same width. */
  PanamaFft(boolean wide) {
    this(wide, wide);
  }

  /** Radix-4 passes of one width and size-8 leaves of another (512 or 256 bits each). */
  PanamaFft(boolean wide, boolean wideLeaf) {
    this.wide = wide;
    this.wideLeaf = wideLeaf;
  }

  /** 512-bit radix-4 passes with the 256-bit size-8 leaves. */
  static final class WideNarrowLeaf extends PanamaFft {
    WideNarrowLeaf() {
      super(true, false);
    }
  }

  /** Always the 256-bit path. */
  static final class Narrow extends PanamaFft {
    Narrow() {
      super(false);
    }
  }

  /** Always the 512-bit radix-4 path (correct everywhere; slow where 512 bits are emulated). */
  static final class Wide extends PanamaFft {
    Wide() {
      super(true);
    }
  }

  /** Radix-4 width in bits this instance uses. */
  final int bits() {
    return wide ? 512 : 256;
  }

  @Override
  public final void fwdR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    if (wide && size >= 4 * LW) {
      R4Passes.fwd512(buf, ro, io, size, k0, count, tw, t0);
    } else {
      R4Passes.fwd256(buf, ro, io, size, k0, count, tw, t0);
    }
  }

  @Override
  public final void fwdLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    FftLeaves.fwd4(buf, ro, io, k0, count, tw, t0);
  }

  @Override
  public final boolean wideLeaf3() {
    return wideLeaf;
  }

  @Override
  public final void fwdLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    if (wideLeaf) {
      FftLeaves.fwd8Wide(buf, ro, io, k0, count, tw, t0);
    } else {
      FftLeaves.fwd8(buf, ro, io, k0, count, tw, t0);
    }
  }

  @Override
  public final void invR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    if (wide && size >= 4 * LW) {
      R4Passes.inv512(buf, ro, io, size, k0, count, tw, t0);
    } else {
      R4Passes.inv256(buf, ro, io, size, k0, count, tw, t0);
    }
  }

  @Override
  public final void invLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    FftLeaves.inv4(buf, ro, io, k0, count, tw, t0);
  }

  @Override
  public final void invLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    if (wideLeaf) {
      FftLeaves.inv8Wide(buf, ro, io, k0, count, tw, t0);
    } else {
      FftLeaves.inv8(buf, ro, io, k0, count, tw, t0);
    }
  }
}
