package org.jpir.vmp;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Negacyclic FFT over {@code Z[X]/(X^N+1)} in the spqlios "reim" layout, in place, unscaled.
 *
 * <p>Layout: a buffer of N doubles at {@code off}; {@code re[j] = buf[off + j]},
 * {@code im[j] = buf[off + m + j]}, {@code m = N/2}. A coefficient polynomial p is loaded as
 * {@code c_j = p_j + i*p_{j+m}} (see {@link Reim#fromZnx}). After {@link #fft}, slot j holds
 * {@code c(w_{rev(j)})} with {@code w_k = exp(i*pi*(1+4k)/N)} and {@code rev} reversing the low
 * log2(m) bits. {@code ifft(fft(x)) = m*x}. Plans are immutable, cached per N and thread-safe.
 *
 * <p>Algorithm: the tree of {@link FftKernel}, walked as radix-4 levels and a leaf that does the
 * last two or three levels (three when log2(m) is odd). Levels whose nodes hold more than
 * {@value #BLOCK} complex values run breadth-first over the whole buffer; below that, each
 * subtree runs all its remaining levels before the next one starts, so it stays in L1. Twiddles
 * are computed once per N, in the order the stages read them; a kernel that asks for wide leaves
 * ({@link FftKernel#wideLeaf3}) reads a copy whose leaf entries are rearranged into 8-lane
 * vectors. The kernel (scalar or Vector API)
 * is chosen once per JVM by {@link KernelProvider}.
 *
 * <p>Precision (measured, tested by {@code FftPrecisionTest}; not a proof): for int64 polynomials
 * with {@code ||a||_inf <= 2^A} and {@code ||b||_inf <= 2^B}, the product {@code
 * toZnx(ifft(fft(a) * fft(b)))} (pointwise {@link Reim#mul}) equals the exact negacyclic product
 * whenever {@code A + B + log2(N) <= }{@value #EXACT_PRODUCT_BITS}, for every N from 16 to 131072
 * and either kernel; a sum of K products ({@link Reim#mulAdd}) needs {@code A + B + log2(N) +
 * log2(K) <= }{@value #EXACT_PRODUCT_BITS}. The worst case is all coefficients at the maximum
 * magnitude with aligned signs (one product coefficient is then {@code N 2^{A+B}}); measured, it
 * first rounds wrongly at {@code A + B + log2(N) = 49} (N = 131072) or 50 (N = 16 .. 65536), so
 * the documented bound keeps 1-2 bits of margin. Uniformly random inputs stay exact up to 53.
 * At {@value #EXACT_PRODUCT_BITS}{@code  + 5} worst-case inputs give wrong coefficients for every
 * N. The Vector API and reference kernels differ only by rounding (fused multiply-adds): per
 * output, by at most {@code ||x||_1 log2(N) 2^-50}.
 */
public final class FftPlan {
  /** Smallest supported ring degree. */
  public static final int MIN_N = 16;
  /** Largest supported ring degree. */
  public static final int MAX_N = 1 << 17;
  /** Subtrees of at most this many complex values run depth-first. */
  static final int BLOCK = 2048;
  /** See the class comment: {@code A + B + log2(N)} up to this gives exact products. */
  public static final int EXACT_PRODUCT_BITS = 47;
  /**
   * Beyond {@link #EXACT_PRODUCT_BITS}, up to this many bits ({@code A + B + log2(N) +
   * log2(K)}, so that every sum still fits a long), product sums round back to within {@code
   * 2^(T - EXACT_PRODUCT_BITS - 1)} of the exact integer ({@link #roundedProductError}): the
   * error of the doubles grows with the sums' magnitude. Exact digits are not needed where that
   * error lies far below a ciphertext's noise (a phase-1 row of one wide digit).
   */
  public static final int ROUNDED_PRODUCT_BITS = 62;

  /**
   * The bound on |rounded - exact| of a product sum of {@code t} bits ({@link
   * #ROUNDED_PRODUCT_BITS}): 0 up to {@link #EXACT_PRODUCT_BITS}, else {@code 2^(t - 48)}.
   */
  public static double roundedProductError(int t) {
    if (t > ROUNDED_PRODUCT_BITS) {
      throw new IllegalArgumentException("product sums of " + t + " bits exceed "
          + ROUNDED_PRODUCT_BITS);
    }
    return t <= EXACT_PRODUCT_BITS ? 0 : Math.scalb(1.0, t - EXACT_PRODUCT_BITS - 1);
  }

  /**
   * The cached plans by log2(N): a lookup boxes nothing, so that {@link #of(int)} (and every
   * argument check that calls it) allocates nothing once the plan exists.
   */
  private static final AtomicReferenceArray<FftPlan> PLANS =
      new AtomicReferenceArray<>(Integer.numberOfTrailingZeros(MAX_N) + 1);

  /** The JVM-wide kernel; holder so that the choice happens on first FFT use only. */
  private static final class Default {
    static final FftKernel KERNEL = KernelProvider.get().fftKernel();
  }

  private static final int R4 = 1;
  private static final int LEAF = 2;
  private static final int LEAF3 = 3;

  private final int n;
  private final int m;
  private final FftKernel kernel;
  /** Per stage, top to bottom: kind, tree level of its top, offset of level's entries. */
  private final int[] kind;
  private final int[] level;
  private final int[] twOff;
  /** First stage run per subtree (depth-first), and that stage's level. */
  private final int split;
  /** Forward and inverse tables; identical except for the leaf entries. */
  private final double[] twFwd;
  private final double[] twInv;
  /** The tables the kernel reads: these, or their wide-leaf forms ({@link #widen}). */
  private final double[] useFwd;
  private final double[] useInv;
  /** Doubles per entry of the last (leaf) stage in the tables the kernel reads. */
  private final int leafEntry;

  private FftPlan(int n) {
    this.n = n;
    this.m = n / 2;
    this.kernel = null;
    int lm = Integer.numberOfTrailingZeros(m);
    // the leaf takes 2 or 3 levels so that an even number is left for radix-4 stages
    int leafLevels = (lm & 1) == 1 ? 3 : 2;
    int upper = lm - leafLevels;
    int stages = upper / 2 + 1;
    kind = new int[stages];
    level = new int[stages];
    twOff = new int[stages];
    int s = 0;
    int lv = 0;
    int off = 0;
    while (lv < upper) {
      kind[s] = R4;
      level[s] = lv;
      twOff[s++] = off;
      off += (1 << lv) * FftKernel.R4_ENTRY;
      lv += 2;
    }
    kind[s] = leafLevels == 3 ? LEAF3 : LEAF;
    level[s] = lv;
    // the leaf's lane vectors start on 64-byte boundaries (its entries are multiples of 8)
    off = Aligned.up(off);
    twOff[s] = off;
    off += (1 << lv) * (leafLevels == 3 ? FftKernel.LEAF3_ENTRY : FftKernel.LEAF_ENTRY);
    int sp = 0;
    while ((m >> level[sp]) > BLOCK) {
      sp++;
    }
    split = sp;
    twFwd = new double[off];
    twInv = new double[off];
    for (int i = 0; i < stages; i++) {
      fillStage(i);
    }
    useFwd = twFwd;
    useInv = twInv;
    leafEntry = leafEntry(kind[stages - 1], false);
  }

  private FftPlan(FftPlan p, FftKernel kernel) {
    this.n = p.n;
    this.m = p.m;
    this.kernel = kernel;
    this.kind = p.kind;
    this.level = p.level;
    this.twOff = p.twOff;
    this.split = p.split;
    this.twFwd = p.twFwd;
    this.twInv = p.twInv;
    int last = kind.length - 1;
    boolean wide = kind[last] == LEAF3 && kernel.wideLeaf3();
    if (wide && p.leafEntry == FftKernel.LEAF3_WIDE_ENTRY) {
      this.useFwd = p.useFwd;
      this.useInv = p.useInv;
    } else if (wide) {
      int nodes = 1 << level[last];
      this.useFwd = widen(twFwd, twOff[last], nodes, true);
      this.useInv = widen(twInv, twOff[last], nodes, false);
    } else {
      this.useFwd = twFwd;
      this.useInv = twInv;
    }
    this.leafEntry = leafEntry(kind[last], wide);
  }

  private static int leafEntry(int kind, boolean wide) {
    if (kind == LEAF) {
      return FftKernel.LEAF_ENTRY;
    }
    return wide ? FftKernel.LEAF3_WIDE_ENTRY : FftKernel.LEAF3_ENTRY;
  }

  /**
   * The table {@code t} with its {@code nodes} size-8 leaf entries at {@code off} rewritten from
   * {@link FftKernel#LEAF3_ENTRY} to {@link FftKernel#LEAF3_WIDE_ENTRY} (a rearrangement of the
   * same values: the children's lane vectors side by side, the node's twiddle spread over lanes).
   */
  static double[] widen(double[] t, int off, int nodes, boolean forward) {
    double[] w = java.util.Arrays.copyOf(t, off + nodes * FftKernel.LEAF3_WIDE_ENTRY);
    for (int k = 0; k < nodes; k++) {
      int o = off + k * FftKernel.LEAF3_ENTRY;
      int d = off + k * FftKernel.LEAF3_WIDE_ENTRY;
      double c = t[o];
      double s = t[o + 1];
      for (int l = 0; l < 4; l++) {
        // level 1: forward a + s b, a - s b; inverse a + b, (a - b) conj(s)
        w[d + l] = forward ? c : 1;
        w[d + 4 + l] = forward ? -c : c;
        w[d + 8 + l] = forward ? s : 0;
        w[d + 12 + l] = -s;
        for (int child = 0; child < 2; child++) {
          int src = o + 4 + child * FftKernel.LEAF_ENTRY + l;
          int lane = 4 * child + l;
          // levels 2 and 3: the children's A (at 0, 4) and B (at 8, 12) lane vectors; every
          // level's -Wi is derived below
          w[d + 24 + lane] = t[src];
          w[d + 32 + lane] = t[src + 4];
          w[d + 48 + lane] = t[src + 8];
          w[d + 56 + lane] = t[src + 12];
        }
      }
      if (!forward) {
        // the inverse kernel forms b - a where the right value of a pair stands: negate W there
        for (int v = 0; v < 3; v++) {
          int half = 4 >> v;
          for (int l = 0; l < 8; l++) {
            if ((l & half) != 0) {
              w[d + 24 * v + l] = -w[d + 24 * v + l];
              w[d + 24 * v + 8 + l] = -w[d + 24 * v + 8 + l];
            }
          }
        }
      }
      for (int v = 0; v < 3; v++) {
        for (int l = 0; l < 8; l++) {
          w[d + 24 * v + 16 + l] = -w[d + 24 * v + 8 + l];
        }
      }
    }
    return w;
  }

  /** Node parameter t of node k at level lv: root 1/4, children t/2 and t/2 + 1/2. */
  private static double nodeT(int lv, int k) {
    double t = 0.25;
    for (int b = lv - 1; b >= 0; b--) {
      t = t / 2 + ((k >> b) & 1) * 0.5;
    }
    return t;
  }

  private void fillStage(int i) {
    int lv = level[i];
    for (int k = 0; k < (1 << lv); k++) {
      double t = nodeT(lv, k);
      double c = Math.cos(Math.PI * t);
      double s = Math.sin(Math.PI * t);
      if (kind[i] == R4) {
        double t1 = nodeT(lv + 1, 2 * k);
        double c0 = Math.cos(Math.PI * t1);
        double s0 = Math.sin(Math.PI * t1);
        set(twOff[i] + k * FftKernel.R4_ENTRY, c, s, -s, c0, s0, -s0);
      } else if (kind[i] == LEAF) {
        leafEntry(lv, k, twOff[i] + k * FftKernel.LEAF_ENTRY);
      } else {
        int o = twOff[i] + k * FftKernel.LEAF3_ENTRY;
        set(o, c, s, -s, 0);
        leafEntry(lv + 1, 2 * k, o + 4);
        leafEntry(lv + 1, 2 * k + 1, o + 4 + FftKernel.LEAF_ENTRY);
      }
    }
  }

  /** The {@link FftKernel#LEAF_ENTRY} of node k at level lv (nodes of size 4) at offset o. */
  private void leafEntry(int lv, int k, int o) {
    double t = nodeT(lv, k);
    double c = Math.cos(Math.PI * t);
    double s = Math.sin(Math.PI * t);
    double t1 = nodeT(lv + 1, 2 * k);
    double c0 = Math.cos(Math.PI * t1);
    double s0 = Math.sin(Math.PI * t1);
    double[] f = {c, c, -c, -c, s, s, -s, -s, c0, -c0, -s0, s0, s0, -s0, c0, -c0};
    // inverse: B = [1, conj(s0), 1, conj(i s0)], A = [1, 1, conj(s), conj(s)]
    double[] v = {1, 1, c, c, 0, 0, -s, -s, 1, c0, 1, -s0, 0, -s0, 0, -c0};
    System.arraycopy(f, 0, twFwd, o, 16);
    System.arraycopy(v, 0, twInv, o, 16);
    for (int i = 0; i < 4; i++) {
      twFwd[o + 16 + i] = -f[4 + i];
      twFwd[o + 20 + i] = -f[12 + i];
      twInv[o + 16 + i] = -v[4 + i];
      twInv[o + 20 + i] = -v[12 + i];
    }
  }

  private void set(int o, double... v) {
    System.arraycopy(v, 0, twFwd, o, v.length);
    System.arraycopy(v, 0, twInv, o, v.length);
  }

  /**
   * The cached plan for ring degree {@code n}, using the JVM-wide kernel.
   *
   * @throws IllegalArgumentException if n is not a power of two in [{@value #MIN_N},
   *     {@value #MAX_N}]
   */
  public static FftPlan of(int n) {
    if (n < MIN_N || n > MAX_N || Integer.bitCount(n) != 1) {
      throw new IllegalArgumentException(
          "ring degree N=" + n + " must be a power of two in [" + MIN_N + ", " + MAX_N + "]");
    }
    int lg = Integer.numberOfTrailingZeros(n);
    FftPlan p = PLANS.get(lg);
    if (p == null) {
      // two threads may both build it; the first stored wins and both return that one
      PLANS.compareAndSet(lg, null, new FftPlan(new FftPlan(n), Default.KERNEL));
      p = PLANS.get(lg);
    }
    return p;
  }

  /**
   * The plan for ring degree {@code n} with an explicitly chosen implementation, for benchmarks
   * and comparisons: {@code "ref"} (scalar reference), {@code "panama"} (Vector API at the
   * 256- or 512-bit width {@link KernelProvider} chooses; needs the module {@code
   * jdk.incubator.vector}), {@code "panama128"}, {@code "panama256"} or {@code "panama512"}
   * (Vector API, radix-4 width forced). Shares the cached twiddle tables.
   *
   * @throws IllegalArgumentException for a bad n or an unknown name
   * @throws IllegalStateException for {@code "panama"} when the Vector API is not available
   */
  public static FftPlan of(int n, String implementation) {
    return of(n).withKernel(KernelProvider.fftKernel(implementation));
  }

  /** This plan running on the given kernel (tests). */
  FftPlan withKernel(FftKernel k) {
    return new FftPlan(this, k);
  }

  /** Ring degree N. */
  public int n() {
    return n;
  }

  /** Number of complex slots, N/2. */
  public int m() {
    return m;
  }

  /** Class name of the kernel this plan runs on. */
  public String kernelName() {
    return kernel.getClass().getSimpleName();
  }

  /**
   * Forward transform of the N doubles at {@code off}, in place (layout in the class comment).
   *
   * @throws IllegalArgumentException if {@code buf} is null or too short, or {@code off < 0}
   */
  public void fft(double[] buf, int off) {
    Checks.range("fft buffer", buf, off, n);
    int ro = off;
    int io = off + m;
    int last = kind.length - 1;
    for (int s = 0; s < split; s++) {
      fwdStage(s, buf, ro, io, 0, 1 << level[s]);
    }
    int top = level[split];
    for (int j = 0; j < (1 << top); j++) {
      for (int s = split; s <= last; s++) {
        int d = level[s] - top;
        fwdStage(s, buf, ro, io, j << d, 1 << d);
      }
    }
  }

  /**
   * Inverse transform of the N doubles at {@code off}, in place; {@code ifft(fft(x)) = m*x}.
   *
   * @throws IllegalArgumentException if {@code buf} is null or too short, or {@code off < 0}
   */
  public void ifft(double[] buf, int off) {
    Checks.range("ifft buffer", buf, off, n);
    int ro = off;
    int io = off + m;
    int last = kind.length - 1;
    int top = level[split];
    for (int j = 0; j < (1 << top); j++) {
      for (int s = last; s >= split; s--) {
        int d = level[s] - top;
        invStage(s, buf, ro, io, j << d, 1 << d);
      }
    }
    for (int s = split - 1; s >= 0; s--) {
      invStage(s, buf, ro, io, 0, 1 << level[s]);
    }
  }

  private void fwdStage(int s, double[] buf, int ro, int io, int k0, int count) {
    int size = m >> level[s];
    switch (kind[s]) {
      case R4:
        kernel.fwdR4(buf, ro, io, size, k0, count, useFwd, twOff[s] + k0 * FftKernel.R4_ENTRY);
        break;
      case LEAF:
        kernel.fwdLeaf(buf, ro, io, k0, count, useFwd, twOff[s] + k0 * FftKernel.LEAF_ENTRY);
        break;
      default:
        kernel.fwdLeaf3(buf, ro, io, k0, count, useFwd, twOff[s] + k0 * leafEntry);
    }
  }

  private void invStage(int s, double[] buf, int ro, int io, int k0, int count) {
    int size = m >> level[s];
    switch (kind[s]) {
      case R4:
        kernel.invR4(buf, ro, io, size, k0, count, useInv, twOff[s] + k0 * FftKernel.R4_ENTRY);
        break;
      case LEAF:
        kernel.invLeaf(buf, ro, io, k0, count, useInv, twOff[s] + k0 * FftKernel.LEAF_ENTRY);
        break;
      default:
        kernel.invLeaf3(buf, ro, io, k0, count, useInv, twOff[s] + k0 * leafEntry);
    }
  }
}
