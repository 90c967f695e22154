package org.jpir.vmp;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API implementation of {@link VmpKernel}; same FMA chains as the reference, so its
 * results are bitwise identical to it.
 *
 * <p>The multi-column pass ({@link #macGauss}, {@link #macTile}) is register-blocked with the
 * {@link VmpBlock} given at construction ({@link KernelProvider} chooses and logs it; {@code
 * -Djpir.vmp.block=...} forces it):
 *
 * <ul>
 *   <li>{@code 512:3x4} (AVX-512, JDK 25+), three products ({@link #macGauss}): a reim4 block
 *       {@code [a|b]} is one vector; times {@code [d-c|c+d]} it accumulates {@code [K2|K3]},
 *       and {@code [a+b|a+b]} (one rearrange, one add per row) times a column pair's {@code
 *       [c|c']} accumulates {@code [K1|K1']}: 3 database vectors x 4 matrix columns = 18
 *       accumulators, 3 vectors loaded and 3 sums (18 multiply-adds per row where the
 *       four-product 2x6 block needed 24 for 12 products).
 *   <li>{@code 256:1x3} (AVX2, 16 registers), four products ({@link #macTile}): re and im halves
 *       are separate vectors, the four state quarters rr, ri, ir, ii one accumulator each: 1
 *       vector x 3 columns = 12 accumulators + 2 vector halves + 1 matrix half = 15 registers.
 *   <li>{@code 256:2x3} (256-bit vectors with 32 registers, e.g. JDK 17 on AVX-512), four
 *       products: 24 accumulators.
 * </ul>
 *
 * Narrower remainders (fewer matrix columns, fewer database vectors) have their own bodies of
 * the same width. The memory-bound applies ({@link #mac1}, {@link #mac2}, {@link #mac2Out},
 * {@link #mac1Out}) use 256-bit vectors on all paths: four accumulators per (vector, column), no
 * rearranges (measured on a Zen 4, N=4096, 512x12 applyPvecToDft: about 18 GB/s against 11 GB/s
 * for the 512-bit rearrange form). All straight-line bodies are generated ({@code Gauss512}
 * from {@code GaussGenerator}, {@code Mac256} from {@code MacGenerator}, both in the test
 * sources).
 */
final class PanamaVmp implements VmpKernel {
  private static final VectorSpecies<Double> S4 = DoubleVector.SPECIES_256;

  private final boolean wide;
  /** Whether the block implies 32 vector registers (two column pairs per apply call). */
  private final boolean quad;
  private final VmpBlock block;

  /** The kernel with register block {@code block}, a 256- or 512-bit one of SUPPORTED. */
  PanamaVmp(VmpBlock block) {
    if (block == null || !VmpBlock.SUPPORTED.contains(block) || block.bits() < 256) {
      throw new IllegalArgumentException("PanamaVmp block " + block + " is not one of the 256-"
          + " and 512-bit blocks of " + VmpBlock.SUPPORTED + " (128-bit: Panama128Vmp)");
    }
    this.block = block;
    this.wide = block.bits() == 512;
    this.quad = wide || block.equals(VmpBlock.B256_2X3);
  }

  @Override
  public String name() {
    boolean auto = block.equals(VmpBlock.forWidth(block.bits(), CpuInfo.get().vectorRegisters()));
    return "panama" + block.bits() + (auto ? "" : "-" + block.vectors() + "x" + block.columns());
  }

  @Override
  public void extractBlock(
      int n, int block, int nrows, double[] src, int srcOff, double[] dst, int dstOff) {
    int re = srcOff + 4 * block;
    int im = re + (n >> 1);
    for (int r = 0, s = 0, d = dstOff; r < nrows; r++, s += n, d += 8) {
      DoubleVector.fromArray(S4, src, re + s).intoArray(dst, d);
      DoubleVector.fromArray(S4, src, im + s).intoArray(dst, d + 4);
    }
  }

  @Override
  public void extractBlocks(int n, int block0, int nblocks, int nrows, double[] src,
      int srcOff, double[] dst, int dstOff) {
    final int m = n >> 1;
    final int gs = 8 * nrows;
    for (int r = 0; r < nrows; r++) {
      int re = srcOff + r * n + 4 * block0;
      int im = re + m;
      int d = dstOff + 8 * r;
      for (int g = 0; g < nblocks; g++, re += 4, im += 4, d += gs) {
        DoubleVector.fromArray(S4, src, re).intoArray(dst, d);
        DoubleVector.fromArray(S4, src, im).intoArray(dst, d + 4);
      }
    }
  }

  @Override
  public void saveBlock(
      int n, int block, int ncols, double[] src, int srcOff, double[] dst, int dstOff) {
    int re = dstOff + 4 * block;
    int im = re + (n >> 1);
    for (int c = 0, d = 0, s = srcOff; c < ncols; c++, d += n, s += 8) {
      DoubleVector.fromArray(S4, src, s).intoArray(dst, re + d);
      DoubleVector.fromArray(S4, src, s + 4).intoArray(dst, im + d);
    }
  }

  @Override
  public void mac1(int rows, double[] u, int uOff, double[] v, int vOff, int vStride,
      double[] st, int stOff) {
    if (vStride == 16) {
      // constant scales: the JIT hoists the bounds checks
      Mac256.pair1x1(rows, u, uOff, v, vOff, st, stOff);
    } else {
      Mac256.strided1x1(rows, u, uOff, v, vOff, vStride, st, stOff);
    }
  }

  @Override
  public void mac2(int rows, double[] u, int uOff, double[] v, int vOff, double[] st,
      int stOff) {
    Mac256.pair1x2(rows, u, uOff, v, vOff, st, stOff);
  }

  @Override
  public void mac2Out(int rows, double[] u, int uOff, double[] v, int vOff, double[] res,
      int re0, int re1, int half, boolean add, double[] st) {
    Mac256.pair1x2Out(rows, u, uOff, v, vOff, res, re0, re1, half, add);
  }

  /**
   * With 32 vector registers (the 512-bit and {@code 256:2x3} blocks) one call keeps both
   * pairs' 16 accumulators ({@code Mac256.pairs1x4Out}); with 16 it calls {@link #mac2Out} twice.
   */
  @Override
  public void mac4Out(int rows, double[] u, int uOff, double[] v, int vOff, int pairStride,
      double[] res, int re0, int re1, int re2, int re3, int half, boolean add, double[] st) {
    if (quad) {
      Mac256.pairs1x4Out(rows, u, uOff, v, vOff, pairStride, res, re0, re1, re2, re3, half, add);
    } else {
      VmpKernel.super.mac4Out(rows, u, uOff, v, vOff, pairStride, res, re0, re1, re2, re3, half,
          add, st);
    }
  }

  @Override
  public void mac1Out(int rows, double[] u, int uOff, double[] v, int vOff, int vStride,
      double[] res, int re0, int half, boolean add, double[] st) {
    Mac256.strided1x1Out(rows, u, uOff, v, vOff, vStride, res, re0, half, add);
  }

  @Override
  public VmpBlock block() {
    return block;
  }

  @Override
  public void macTile(int vectors, int cols, int rows, double[] u0, double[] u1, int uOff,
      double[] v, int vOff, double[] st, int stOff, int stStride) {
    if (!wide && cols <= 3) {
      tile256(vectors, cols, rows, u0, u1, uOff, v, vOff, st, stOff, stStride);
    } else {
      VmpKernel.super.macTile(vectors, cols, rows, u0, u1, uOff, v, vOff, st, stOff, stStride);
    }
  }

  @Override
  public void macGauss(int vectors, int cols, int rows, double[] u0, double[] u1, double[] u2,
      int uOff, double[] v, int vOff, double[] st, int gOff, int kOff, int ss) {
    if (wide && cols <= 4) {
      gauss512(vectors, cols, rows, u0, u1, u2, uOff, v, vOff, st, gOff, kOff, ss);
    } else {
      // 256-bit blocks multiply in four products; wider panels only come from tests
      VmpKernel.super.macGauss(vectors, cols, rows, u0, u1, u2, uOff, v, vOff, st, gOff, kOff,
          ss);
    }
  }

  /**
   * Database vectors of the wide Gauss blocks on this JDK: 8 from Java 25; 6 before, whose C2
   * spills the 8-vector block's 24 accumulators (a pass of {@code KernelAb
   * multi:2048:448:2:128:8} took 1000 ms against 16 ms with the 3-vector blocks on Java 17) but
   * keeps the 6-vector block's 18, as it keeps {@code g3x4}'s.
   */
  static final int WIDE_GAUSS = Runtime.version().feature() >= 25 ? 8 : 6;

  /**
   * {@link #WIDE_GAUSS} database vectors for panels of 1 or 2 columns on 512-bit vectors
   * ({@code Gauss512.g<V>x<C>}), else none.
   */
  @Override
  public int gaussWideVectors(int cols) {
    return wide && cols <= 2 ? WIDE_GAUSS : 0;
  }

  /**
   * Whether two-column panels on 512-bit vectors go through the four-product {@code
   * Four512.f6x2} instead of the Gauss blocks: from Java 25 ({@code -Djpir.vmp.fourWide=false}
   * keeps Gauss). Before 25, C1 cannot compile f6x2 at tier 3 ("out of virtual registers") and
   * C2 never took it over: the batched pass ran 70x slower, so Java 17 keeps the Gauss blocks.
   */
  static final boolean FOUR_WIDE = Runtime.version().feature() >= 25
      && !"false".equals(System.getProperty("jpir.vmp.fourWide"));

  /** 6 database vectors for two-column panels on 512-bit vectors ({@link #FOUR_WIDE}), else 0. */
  @Override
  public int fourWideVectors(int cols) {
    return wide && FOUR_WIDE && cols == 2 ? 6 : 0;
  }

  @Override
  public void macFourWide(int vectors, int cols, int rows, double[][] us, int u0, int uOff,
      double[] v, int vOff, double[] st, int stOff, int ss) {
    if (wide && cols == 2 && vectors == 6) {
      Four512.f6x2(rows, us[u0], us[u0 + 1], us[u0 + 2], us[u0 + 3], us[u0 + 4], us[u0 + 5],
          uOff, v, vOff, st, stOff, ss);
    } else if (wide && cols == 2 && vectors == 1) {
      Four512.f1x2(rows, us[u0], uOff, v, vOff, st, stOff, ss);
    } else {
      VmpKernel.super.macFourWide(vectors, cols, rows, us, u0, uOff, v, vOff, st, stOff, ss);
    }
  }

  @Override
  public void macGaussWide(int vectors, int cols, int rows, double[][] us, int u0, int uOff,
      double[] v, int vOff, double[] st, int gOff, int kOff, int ss) {
    if (wide && vectors == 8 && cols <= 2) {
      if (cols == 2) {
        Gauss512.g8x2(rows, us[u0], us[u0 + 1], us[u0 + 2], us[u0 + 3], us[u0 + 4], us[u0 + 5],
            us[u0 + 6], us[u0 + 7], uOff, v, vOff, st, gOff, kOff, ss);
      } else {
        Gauss512.g8x1(rows, us[u0], us[u0 + 1], us[u0 + 2], us[u0 + 3], us[u0 + 4], us[u0 + 5],
            us[u0 + 6], us[u0 + 7], uOff, v, vOff, st, gOff, kOff, ss);
      }
    } else if (wide && vectors == 6 && cols <= 2) {
      if (cols == 2) {
        Gauss512.g6x2(rows, us[u0], us[u0 + 1], us[u0 + 2], us[u0 + 3], us[u0 + 4], us[u0 + 5],
            uOff, v, vOff, st, gOff, kOff, ss);
      } else {
        Gauss512.g6x1(rows, us[u0], us[u0 + 1], us[u0 + 2], us[u0 + 3], us[u0 + 4], us[u0 + 5],
            uOff, v, vOff, st, gOff, kOff, ss);
      }
    } else {
      VmpKernel.super.macGaussWide(vectors, cols, rows, us, u0, uOff, v, vOff, st, gOff, kOff,
          ss);
    }
  }

  private static void gauss512(int vectors, int w, int rows, double[] u0, double[] u1,
      double[] u2, int uOff, double[] v, int vo, double[] st, int go, int ko, int ss) {
    switch (vectors * 8 + w) {
      case 3 * 8 + 4: Gauss512.g3x4(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 3 * 8 + 3: Gauss512.g3x3(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 3 * 8 + 2: Gauss512.g3x2(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 3 * 8 + 1: Gauss512.g3x1(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 2 * 8 + 4: Gauss512.g2x4(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 2 * 8 + 3: Gauss512.g2x3(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 2 * 8 + 2: Gauss512.g2x2(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 2 * 8 + 1: Gauss512.g2x1(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 8 + 4: Gauss512.g1x4(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 8 + 3: Gauss512.g1x3(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      case 8 + 2: Gauss512.g1x2(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
      default: Gauss512.g1x1(rows, u0, u1, u2, uOff, v, vo, st, go, ko, ss); return;
    }
  }

  private void tile256(int vectors, int w, int rows, double[] u0, double[] u1, int uOff,
      double[] v, int vo, double[] st, int so, int ss) {
    if (vectors == 2) {
      switch (w) {
        case 3: Mac256.packed2x3(rows, u0, u1, uOff, v, vo, st, so, ss); return;
        case 2: Mac256.packed2x2(rows, u0, u1, uOff, v, vo, st, so, ss); return;
        default: Mac256.packed2x1(rows, u0, u1, uOff, v, vo, st, so, ss); return;
      }
    }
    switch (w) {
      case 3: Mac256.packed1x3(rows, u0, null, uOff, v, vo, st, so, ss); return;
      case 2: Mac256.packed1x2(rows, u0, null, uOff, v, vo, st, so, ss); return;
      default: Mac256.packed1x1(rows, u0, null, uOff, v, vo, st, so, ss); return;
    }
  }

  @Override
  public void finish(double[] st, int s, double[] dst, int re, int half) {
    DoubleVector.fromArray(S4, st, s).sub(DoubleVector.fromArray(S4, st, s + 12))
        .intoArray(dst, re);
    DoubleVector.fromArray(S4, st, s + 4).add(DoubleVector.fromArray(S4, st, s + 8))
        .intoArray(dst, re + half);
  }

  @Override
  public void finishGauss(double[] st, int g, int kk, double[] dst, int re, int half) {
    DoubleVector k1 = DoubleVector.fromArray(S4, st, kk);
    k1.sub(DoubleVector.fromArray(S4, st, g + 4)).intoArray(dst, re);
    k1.add(DoubleVector.fromArray(S4, st, g)).intoArray(dst, re + half);
  }

  /**
   * Four runs at a time, one double per 8 (a 64-byte row) and each run's last double: four
   * sequential streams whose start-up latencies overlap. Measured on a Zen 5 on the pass's
   * segments (21 KiB per column): 29-35 GB/s against 18-22 GB/s for one run at a time read
   * through 256-bit vectors (a single long array: 33-36 GB/s).
   */
  @Override
  public double readAhead(double[][] a, int[] off, int runs, int len) {
    if (len <= 0 || runs <= 0) {
      return 0;
    }
    double t = 0;
    for (int r = 0; r < runs; r += 4) {
      // a last group of fewer than four runs repeats its last run (those reads hit L1)
      int r1 = Math.min(r + 1, runs - 1);
      int r2 = Math.min(r + 2, runs - 1);
      int r3 = Math.min(r + 3, runs - 1);
      t += read4(a[r], off[r], a[r1], off[r1], a[r2], off[r2], a[r3], off[r3], len);
    }
    return t;
  }

  private static double read4(double[] a, int ao, double[] b, int bo, double[] c, int co,
      double[] d, int dOff, int len) {
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    for (int i = 0; i < len; i += 8) {
      s0 += a[ao + i];
      s1 += b[bo + i];
      s2 += c[co + i];
      s3 += d[dOff + i];
    }
    final int last = len - 1;
    return s0 + s1 + s2 + s3 + a[ao + last] + b[bo + last] + c[co + last] + d[dOff + last];
  }

  @Override
  public void packGauss(double[] v, int vBase, int nrows, int ncols, int block, int r0,
      int rows, int width, double[] dst, int dstOff) {
    for (int j0 = 0; j0 < ncols; j0 += width) {
      final int g = Math.min(width, ncols - j0);
      final int rl = VmpKernel.gaussRow(g);
      final int p = dstOff + rows * (j0 / width) * VmpKernel.gaussRow(width);
      for (int x = 0; x < g; x++) {
        final int c = j0 + x;
        final int src = vBase + Pmat.offset(0, nrows, ncols, block, r0, c);
        final int stride = Pmat.rowStride(ncols, c);
        for (int i = 0; i < rows; i++) {
          final int so = src + stride * i;
          final int r = p + rl * i;
          DoubleVector re = DoubleVector.fromArray(S4, v, so);
          DoubleVector im = DoubleVector.fromArray(S4, v, so + 4);
          im.sub(re).intoArray(dst, r + 8 * x);
          re.add(im).intoArray(dst, r + 8 * x + 4);
          re.intoArray(dst, r + 8 * g + 4 * x);
        }
      }
      if ((g & 1) == 1) {
        for (int i = 0; i < rows; i++) {
          java.util.Arrays.fill(dst, p + rl * i + 12 * g, p + rl * i + 12 * g + 4, 0.0);
        }
      }
    }
  }

  @Override
  public void packPanels(double[] v, int vBase, int nrows, int ncols, int block, int r0,
      int rows, int width, double[] dst, int dstOff) {
    final int base = vBase + block * 8 * nrows * ncols;
    // column pairs: each pair's rows are one sequential run of 16 doubles per row
    for (int c = 0; c + 1 < ncols; c += 2) {
      final int j0 = c - c % width;
      final int g0 = Math.min(width, ncols - j0);
      final int j1 = (c + 1) - (c + 1) % width;
      final int g1 = Math.min(width, ncols - j1);
      final int src = base + (c >> 1) * 16 * nrows + 16 * r0;
      final int d0 = dstOff + 8 * rows * j0 + 8 * (c - j0);
      final int d1 = dstOff + 8 * rows * j1 + 8 * (c + 1 - j1);
      for (int i = 0; i < rows; i++) {
        final int so = src + 16 * i;
        DoubleVector a = DoubleVector.fromArray(S4, v, so);
        DoubleVector b = DoubleVector.fromArray(S4, v, so + 4);
        DoubleVector x = DoubleVector.fromArray(S4, v, so + 8);
        DoubleVector y = DoubleVector.fromArray(S4, v, so + 12);
        a.intoArray(dst, d0 + 8 * g0 * i);
        b.intoArray(dst, d0 + 8 * g0 * i + 4);
        x.intoArray(dst, d1 + 8 * g1 * i);
        y.intoArray(dst, d1 + 8 * g1 * i + 4);
      }
    }
    if ((ncols & 1) == 1) {
      final int c = ncols - 1;
      final int j0 = c - c % width;
      final int g = Math.min(width, ncols - j0);
      final int src = base + c * 8 * nrows + 8 * r0;
      final int d = dstOff + 8 * rows * j0 + 8 * (c - j0);
      for (int i = 0; i < rows; i++) {
        DoubleVector.fromArray(S4, v, src + 8 * i).intoArray(dst, d + 8 * g * i);
        DoubleVector.fromArray(S4, v, src + 8 * i + 4).intoArray(dst, d + 8 * g * i + 4);
      }
    }
  }
}
