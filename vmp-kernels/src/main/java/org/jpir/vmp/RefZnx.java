package org.jpir.vmp;

/** Scalar reference of {@link ZnxKernel}. */
final class RefZnx implements ZnxKernel {
  @Override
  public void normalizeStep(int n, int base2k, long[] a, int aOff, long[] carry, long[] res,
      int resOff) {
    int shift = 64 - base2k;
    for (int j = 0; j < n; j++) {
      long x = (a == null ? 0 : a[aOff + j]) + carry[j];
      long d = (x << shift) >> shift;
      carry[j] = (x - d) >> base2k;
      if (res != null) {
        res[resOff + j] = d;
      }
    }
  }
}
