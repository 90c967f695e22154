package org.jpir.vmp;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** Vector API {@link ZnxKernel}: the same integer operations, lanes of the preferred width. */
final class PanamaZnx implements ZnxKernel {
  private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;

  @Override
  public void normalizeStep(int n, int base2k, long[] a, int aOff, long[] carry, long[] res,
      int resOff) {
    int shift = 64 - base2k;
    int bound = S.loopBound(n);
    int j = 0;
    for (; j < bound; j += S.length()) {
      LongVector x = LongVector.fromArray(S, carry, j);
      if (a != null) {
        x = x.add(LongVector.fromArray(S, a, aOff + j));
      }
      LongVector d = x.lanewise(VectorOperators.LSHL, shift)
          .lanewise(VectorOperators.ASHR, shift);
      x.sub(d).lanewise(VectorOperators.ASHR, base2k).intoArray(carry, j);
      if (res != null) {
        d.intoArray(res, resOff + j);
      }
    }
    for (; j < n; j++) {
      long x = (a == null ? 0 : a[aOff + j]) + carry[j];
      long d = (x << shift) >> shift;
      carry[j] = (x - d) >> base2k;
      if (res != null) {
        res[resOff + j] = d;
      }
    }
  }
}
