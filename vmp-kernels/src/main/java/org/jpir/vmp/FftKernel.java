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
 * + j * E]} with E = {@link #R4_ENTRY}, {@link #LEAF_ENTRY}, {@link #LEAF3_ENTRY} or {@link
 * #LEAF3_WIDE_ENTRY}.
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

  /**
   * Doubles per size-8 leaf node in the wide layout that a kernel asks for with {@link
   * #wideLeaf3}: for level v = 1, 2, 3 of the node (half-widths 4, 2, 1), the 8-lane vectors
   * {@code Wr, Wi, -Wi} at {@code 24 (v - 1)}, {@code 24 (v - 1) + 8} and {@code 24 (v - 1) +
   * 16}. Lane l of level v multiplies the value at position l of the node after the level's
   * butterfly. Levels 2 and 3 are the children's {@code A} and {@code B} of {@link #LEAF_ENTRY}
   * (lanes 0-3 the left child, 4-7 the right). Level 1: forward {@code [s x4, -s x4]}, inverse
   * {@code [1 x4, conj(s) x4]}. In the inverse table, W is negated at the right value of each
   * pair of the level (lane l with {@code l & (4 >> (v - 1)) != 0}), where the kernel forms
   * {@code b - a}.
   */
  int LEAF3_WIDE_ENTRY = 72;

  /** Forward: two levels at once on nodes of {@code size >= 16}. */
  void fwdR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw, int t0);

  /** Forward: the last two levels on nodes of size 4. */
  void fwdLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0);

  /**
   * True when {@link #fwdLeaf3} and {@link #invLeaf3} read {@link #LEAF3_WIDE_ENTRY} entries
   * instead of {@link #LEAF3_ENTRY}.
   */
  default boolean wideLeaf3() {
    return false;
  }

  /** Forward: the last three levels on nodes of size 8. */
  void fwdLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0);

  /** Inverse of {@link #fwdLeaf3} up to the factor 8. */
  void invLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0);

  /** Inverse of {@link #fwdR4} up to the factor 4. */
  void invR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw, int t0);

  /** Inverse of {@link #fwdLeaf} up to the factor 4. */
  void invLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0);
}
