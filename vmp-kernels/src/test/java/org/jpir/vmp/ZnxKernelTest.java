package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ZnxKernelTest {
  static final ZnxKernel REF = KernelProvider.ref().znxKernel();
  static final ZnxKernel PANAMA = KernelProvider.panama().znxKernel();

  @ParameterizedTest
  @CsvSource({"16,16", "17,16", "1,1", "31,8", "4096,16", "1000,62", "64,33"})
  void vectorNormalizationStepEqualsTheReferenceExactly(int n, int k) {
    long seed = 31L * n + k;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] a = new long[n + 5];
    long[] carry = new long[n];
    for (int i = 0; i < a.length; i++) {
      a[i] = rnd.nextLong() >> rnd.nextInt(0, 4);
    }
    a[5] = Long.MAX_VALUE >> 1;
    for (int i = 0; i < n; i++) {
      carry[i] = rnd.nextLong(-(1L << 40), 1L << 40);
    }
    long[] c1 = carry.clone();
    long[] c2 = carry.clone();
    long[] r1 = new long[n + 3];
    long[] r2 = new long[n + 3];
    REF.normalizeStep(n, k, a, 5, c1, r1, 3);
    PANAMA.normalizeStep(n, k, a, 5, c2, r2, 3);
    assertArrayEquals(r1, r2, "digits, seed " + seed);
    assertArrayEquals(c1, c2, "carries, seed " + seed);
    // carry-only and no-input forms
    REF.normalizeStep(n, k, a, 2, c1, null, 0);
    PANAMA.normalizeStep(n, k, a, 2, c2, null, 0);
    assertArrayEquals(c1, c2, "carry-only, seed " + seed);
    REF.normalizeStep(n, k, null, 0, c1, r1, 0);
    PANAMA.normalizeStep(n, k, null, 0, c2, r2, 0);
    assertArrayEquals(r1, r2, "no input, seed " + seed);
    assertArrayEquals(c1, c2);
  }
}
