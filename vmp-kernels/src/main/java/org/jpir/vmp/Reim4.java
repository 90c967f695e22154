package org.jpir.vmp;

/**
 * The reim4 block layout. Block {@code b} ({@code 0 <= b < N/8}) of a reim vector is the 8
 * doubles {@code re[4b..4b+3], im[4b..4b+3]}, i.e. {@code x[4b + k]} and {@code x[N/2 + 4b + k]}
 * for k &lt; 4.
 */
public final class Reim4 {
  private Reim4() {}

  /**
   * Extracts block {@code block} of {@code nrows} reim vectors stored back to back (row r at
   * {@code srcOff + r*N}): {@code dst[dstOff + 8r + k] = src[srcOff + r*N + 4*block + k]},
   * {@code dst[dstOff + 8r + 4 + k] = src[srcOff + r*N + N/2 + 4*block + k]}.
   */
  public static void extractBlock(
      int n, int block, int nrows, double[] src, int srcOff, double[] dst, int dstOff) {
    check(n, block, nrows, "nrows");
    Checks.range("extractBlock source", src, srcOff, (long) nrows * n);
    Checks.range("extractBlock destination", dst, dstOff, 8L * nrows);
    KernelProvider.get().vmpKernel().extractBlock(n, block, nrows, src, srcOff, dst, dstOff);
  }

  /**
   * The inverse of {@link #extractBlock}: writes block {@code block} of {@code ncols} reim
   * vectors (column c at {@code dstOff + c*N}) from {@code src[srcOff + 8c ..]}; the other
   * entries of dst are untouched.
   */
  public static void saveBlock(
      int n, int block, int ncols, double[] src, int srcOff, double[] dst, int dstOff) {
    check(n, block, ncols, "ncols");
    Checks.range("saveBlock source", src, srcOff, 8L * ncols);
    Checks.range("saveBlock destination", dst, dstOff, (long) ncols * n);
    KernelProvider.get().vmpKernel().saveBlock(n, block, ncols, src, srcOff, dst, dstOff);
  }

  private static void check(int n, int block, int count, String what) {
    Checks.ringDegree(n);
    if (block < 0 || block >= n / 8) {
      throw new IllegalArgumentException(
          "block = " + block + " out of range [0, " + n / 8 + ") for N=" + n);
    }
    Checks.atLeast(what, count, 0);
  }
}
