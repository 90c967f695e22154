package org.jpir.vmp;

/**
 * The stage primitives of the negacyclic FFT, implemented by {@link RefFft} (scalar reference)
 * and {@code PanamaFft} (Vector API, source root {@code src/main/panama}), handed out by {@link
 * KernelProvider}. Internal: {@link FftPlan} validates arguments, owns the twiddle tables and the
 * schedule, and calls these on ranges of tree nodes.
 *
 * <p>Common arguments: the complex value at position {@code p} is {@code (buf[ro + p], buf[io +
 * p])}. A stage works on {@code count} consecutive nodes of {@code size} complex values each, the
 * first at position {@code k0 * size}; node {@code k0 + j}'s twiddle entry starts at {@code tw[t0
 * + j * E]} with E = {@link #R4_ENTRY}, {@link #LEAF_ENTRY} or {@link #LEAF3_ENTRY}.
 * Implementations never allocate and do not check arguments (the plan does).
 *
 * <p>Tree: node {@code P mod (X^M - e^{2 pi i t})} splits {@code P = A + X^{M/2} B} with {@code
 * s = e^{i pi t}} into {@code A + sB} (left, t/2) and {@code A - sB} (right, t/2 + 1/2), so the
 * right child's twiddle is {@code i} times the left child's.
 */
interface FftKernel {
  /**
   * Doubles per node in a radix-4 entry: {@code c, s, -s, c0, s0, -s0}: the node's twiddle and
   * its left child's (the right child's is {@code i} times that).
   */
  int R4_ENTRY = 6;
  /**
   * Doubles per size-4 leaf node: six 4-lane vectors {@code Ar, Ai, Br, Bi, -Ai, -Bi} (the
   * negated imaginary parts let a complex multiply-add be two fused multiply-adds). Forward:
   * {@code A = [s, s, -s, -s]}, {@code B = [s0, -s0, i s0, -i s0]}. Inverse: {@code B = [1,
   * conj(s0), 1, conj(i s0)]} (applied first), {@code A = [1, 1, conj(s), conj(s)]}.
   */
  int LEAF_ENTRY = 24;

  /**
   * Doubles per size-8 leaf node: {@code c, s, -s, 0} (the node's twiddle, applied as a radix-2
   * level with half-width 4), then the two children's {@link #LEAF_ENTRY} entries.
   */
  int LEAF3_ENTRY = 4 + 2 * LEAF_ENTRY;

  /** Forward: two levels at once on nodes of {@code size >= 16}. */
  void fwdR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw, int t0);

  /** Forward: the last two levels on nodes of size 4. */
  void fwdLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0);

  /** Forward: the last three levels on nodes of size 8. */
  void fwdLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0);

  /** Inverse of {@link #fwdLeaf3} up to the factor 8. */
  void invLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0);

  /** Inverse of {@link #fwdR4} up to the factor 4. */
  void invR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw, int t0);

  /** Inverse of {@link #fwdLeaf} up to the factor 4. */
  void invLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0);
}
