package org.jpir.vmp;

/**
 * The hot loop of base-2^K normalization, one limb at a time (internal, handed out by {@link
 * KernelProvider}; implementations {@code RefZnx} and {@code PanamaZnx}). For {@code j < n}:
 * {@code x = (a == null ? 0 : a[aOff + j]) + carry[j]}; {@code d} = the low K bits of x as a
 * signed digit in {@code [-2^(K-1), 2^(K-1))}; {@code carry[j] = (x - d) >> K}; and, when
 * {@code res != null}, {@code res[resOff + j] = d}. Exact integer arithmetic: every
 * implementation gives identical results. No argument checks (done by {@link Znx}).
 */
interface ZnxKernel {
  /** One limb of normalization; see the interface comment. */
  void normalizeStep(int n, int base2k, long[] a, int aOff, long[] carry, long[] res, int resOff);
}
