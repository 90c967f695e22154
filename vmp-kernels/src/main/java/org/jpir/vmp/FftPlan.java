package org.jpir.vmp;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Negacyclic FFT over {@code Z[X]/(X^N+1)} in the spqlios "reim" layout, in place, unscaled.
 *
 * <p>Layout: a buffer of N doubles at {@code off}; {@code re[j] = buf[off + j]},
 * {@code im[j] = buf[off + m + j]}, {@code m = N/2}. A coefficient polynomial p is loaded as
 * {@code c_j = p_j + i*p_{j+m}} (see {@link Reim#fromZnx}). After {@link #fft}, slot j holds
 * {@code c(w_{rev(j)})} with {@code w_k = exp(i*pi*(1+4k)/N)} and {@code rev} reversing the low
 * log2(m) bits. {@code ifft(fft(x)) = m*x}. Plans are immutable, cached per N and thread-safe.
 */
public final class FftPlan {
  /** Smallest supported ring degree. */
  public static final int MIN_N = 16;
  /** Largest supported ring degree. */
  public static final int MAX_N = 1 << 17;

  private static final ConcurrentHashMap<Integer, FftPlan> PLANS = new ConcurrentHashMap<>();

  private final int n;
  private final int m;
  /** Twiddle s of every tree node, level by level from the root: cos at 2i, sin at 2i+1. */
  private final double[] tw;

  private FftPlan(int n) {
    this.n = n;
    this.m = n / 2;
    this.tw = new double[2 * (m - 1)];
    // node (level L, index k) has parameter t; root t = 1/4; children t/2 and t/2 + 1/2
    double[] t = {0.25};
    int idx = 0;
    for (int nodes = 1; nodes < m; nodes *= 2) {
      double[] next = new double[2 * nodes];
      for (int k = 0; k < nodes; k++) {
        double angle = Math.PI * t[k];
        tw[2 * idx] = Math.cos(angle);
        tw[2 * idx + 1] = Math.sin(angle);
        idx++;
        next[2 * k] = t[k] / 2;
        next[2 * k + 1] = t[k] / 2 + 0.5;
      }
      t = next;
    }
  }

  /**
   * The cached plan for ring degree {@code n}.
   *
   * @throws IllegalArgumentException if n is not a power of two in [{@value #MIN_N},
   *     {@value #MAX_N}]
   */
  public static FftPlan of(int n) {
    if (n < MIN_N || n > MAX_N || Integer.bitCount(n) != 1) {
      throw new IllegalArgumentException(
          "ring degree N=" + n + " must be a power of two in [" + MIN_N + ", " + MAX_N + "]");
    }
    return PLANS.computeIfAbsent(n, FftPlan::new);
  }

  /** Ring degree N. */
  public int n() {
    return n;
  }

  /** Number of complex slots, N/2. */
  public int m() {
    return m;
  }

  /** Forward transform of the N doubles at {@code off}, in place. */
  public void fft(double[] buf, int off) {
    Checks.range("fft buffer", buf, off, n);
    int ro = off;
    int io = off + m;
    int idx = 0;
    for (int size = m, nodes = 1; size >= 2; size >>= 1, nodes <<= 1) {
      int h = size >> 1;
      for (int k = 0; k < nodes; k++, idx++) {
        double c = tw[2 * idx];
        double s = tw[2 * idx + 1];
        int base = k * size;
        for (int j = base; j < base + h; j++) {
          double ar = buf[ro + j];
          double ai = buf[io + j];
          double br = buf[ro + j + h];
          double bi = buf[io + j + h];
          double tr = br * c - bi * s;
          double ti = br * s + bi * c;
          buf[ro + j] = ar + tr;
          buf[io + j] = ai + ti;
          buf[ro + j + h] = ar - tr;
          buf[io + j + h] = ai - ti;
        }
      }
    }
  }

  /** Inverse transform of the N doubles at {@code off}, in place; multiplies by m. */
  public void ifft(double[] buf, int off) {
    Checks.range("ifft buffer", buf, off, n);
    int ro = off;
    int io = off + m;
    int idx = m - 1;
    for (int size = 2, nodes = m / 2; size <= m; size <<= 1, nodes >>= 1) {
      idx -= nodes;
      int h = size >> 1;
      for (int k = 0; k < nodes; k++) {
        double c = tw[2 * (idx + k)];
        double s = tw[2 * (idx + k) + 1];
        int base = k * size;
        for (int j = base; j < base + h; j++) {
          double ar = buf[ro + j];
          double ai = buf[io + j];
          double br = buf[ro + j + h];
          double bi = buf[io + j + h];
          double dr = ar - br;
          double di = ai - bi;
          buf[ro + j] = ar + br;
          buf[io + j] = ai + bi;
          buf[ro + j + h] = dr * c + di * s;
          buf[io + j + h] = di * c - dr * s;
        }
      }
    }
  }
}
