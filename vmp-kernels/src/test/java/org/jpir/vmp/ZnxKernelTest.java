package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.Test;
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

  @ParameterizedTest
  @CsvSource({"16,16,3,2", "24,16,3,3", "2048,16,3,2", "2048,16,4,3", "4096,16,5,3", "2048,16,2,3",
      "64,13,4,1", "1000,16,3,2", "32,8,8,8"})
  void fusedNormalizationEqualsTheReferenceExactly(int n, int k, int aSize, int resSize) {
    long seed = 7L * n + 13 * k + aSize * 3 + resSize;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] a = new long[aSize * n + 9];
    for (int i = 0; i < a.length; i++) {
      a[i] = rnd.nextLong() >> rnd.nextInt(18, 40);
    }
    long[] r1 = new long[resSize * n + 5];
    long[] r2 = r1.clone();
    REF.normalize(n, k, a, 9, aSize, r1, 5, resSize, new long[n]);
    PANAMA.normalize(n, k, a, 9, aSize, r2, 5, resSize, new long[n]);
    assertArrayEquals(r1, r2, "seed " + seed);
    // in place
    long[] b1 = a.clone();
    long[] b2 = a.clone();
    REF.normalize(n, k, b1, 9, aSize, b1, 9, Math.min(aSize, resSize), new long[n]);
    PANAMA.normalize(n, k, b2, 9, aSize, b2, 9, Math.min(aSize, resSize), new long[n]);
    assertArrayEquals(b1, b2, "in place, seed " + seed);
  }

  @ParameterizedTest
  @CsvSource({"2048,16,3,2,4,5", "2048,16,4,3,6,8", "4096,16,5,3,4,12", "16,16,3,2,4,5",
      "24,16,3,2,4,5", "2048,16,1,2,4,5", "256,16,4,4,16,4", "1000,16,3,3,7,6",
      "2048,16,4,4,6,8", "2048,16,4,4,8,8", "2048,16,6,4,6,8", "64,16,2,4,6,8", "64,21,3,3,7,9"})
  void vectorGadgetDigitsEqualTheReferenceExactly(int n, int k, int aSize, int topLimbs,
      int bits, int levels) {
    long seed = 11L * n + aSize * 5 + topLimbs * 3 + bits + levels;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] a = new long[aSize * n + 3];
    for (int i = 0; i < a.length; i++) {
      // mostly limbs of up to 45 bits; every 7th at the edges normalize takes (|a| <= 2^62)
      a[i] = i % 7 == 3 ? (rnd.nextBoolean() ? 1L << 62 : -(1L << 62)) + rnd.nextInt(-2, 3)
          : rnd.nextLong() >> rnd.nextInt(1, 45);
    }
    long[] d1 = new long[levels * n + 2];
    long[] d2 = d1.clone();
    REF.gadgetDigits(n, k, a, 3, aSize, topLimbs, bits, levels, d1, 2,
        new long[(topLimbs + 1) * n]);
    PANAMA.gadgetDigits(n, k, a, 3, aSize, topLimbs, bits, levels, d2, 2,
        new long[(topLimbs + 1) * n]);
    assertArrayEquals(d1, d2, "seed " + seed);
    long lo = -(1L << (bits - 1));
    for (int i = 2; i < d1.length; i++) {
      if (d1[i] < lo || d1[i] >= -lo) {
        throw new AssertionError("digit " + d1[i] + " outside " + bits + " signed bits");
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"2048,16,4,21,2", "2048,21,2,16,3", "2048,16,3,21,2", "16,16,4,20,2", "24,21,2,16,3",
      "256,16,3,16,3", "4096,16,5,20,3", "1000,13,4,16,3", "64,32,2,16,4"})
  void vectorRebaseEqualsTheReferenceExactly(int n, int from, int aLimbs, int to, int resLimbs) {
    long seed = 17L * n + from * 7 + aLimbs * 5 + to * 3 + resLimbs;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] a = new long[aLimbs * n + 4];
    for (int i = 0; i < a.length; i++) {
      a[i] = rnd.nextLong() >> rnd.nextInt(0, 40);
    }
    long[] r1 = new long[resLimbs * n + 1];
    long[] r2 = r1.clone();
    REF.rebase(n, from, a, 4, aLimbs, to, r1, 1, resLimbs);
    PANAMA.rebase(n, from, a, 4, aLimbs, to, r2, 1, resLimbs);
    assertArrayEquals(r1, r2, "seed " + seed);
  }

  @ParameterizedTest
  @CsvSource({"16, 1", "16, 8", "64, 4", "64, 8", "256, 1", "256, 64", "2048, 512"})
  void vectorTraceSplitEqualsTheReferenceAndTheRingFormula(int n, int step) {
    SplittableRandom rnd = new SplittableRandom(n * 31L + step);
    long[] k = rnd.longs(n).toArray();
    long[] d0 = rnd.longs(n).toArray();
    long[][] outs = new long[2][];
    long[][] odds = new long[2][];
    ZnxKernel[] kernels = {REF, PANAMA};
    for (int i = 0; i < 2; i++) {
      long[] d = d0.clone();
      long[] odd = new long[n + 3];
      kernels[i].traceSplit(n, step, k, 0, d, 0, odd, 3);
      outs[i] = d;
      odds[i] = odd;
    }
    assertArrayEquals(outs[0], outs[1], "d");
    assertArrayEquals(odds[0], odds[1], "odd");
    long[] diff = new long[n];
    long[] want = new long[n];
    Znx.sub(n, d0, 0, k, 0, diff, 0);
    Znx.rotate(n, -step, diff, 0, want, 0);
    for (int j = 0; j < n; j++) {
      assertEquals(d0[j] + k[j], outs[0][j], "d at " + j);
      assertEquals(want[j], odds[0][3 + j], "odd at " + j);
    }
  }

  /**
   * The conversions to and from transforms equal the scalar reference bitwise: ties (to even),
   * values at and beyond the 2^51 of the rounding trick, huge values and NaN (the scalar cast's
   * saturation and 0), negative zero, with and without the addend, at odd tails.
   */
  @ParameterizedTest
  @CsvSource({"2048,0", "2048,7", "4096,3", "256,1", "16,0", "8,5", "1,0", "40,2"})
  void vectorConversionsEqualTheReferenceBitwise(int n, int off) {
    SplittableRandom rnd = new SplittableRandom(977L * n + off);
    double m = n / 2.0; // toZnx divides by this
    double[] src = new double[off + n];
    for (int j = 0; j < n; j++) {
      double v;
      switch (j % 9) {
        case 0: v = (rnd.nextInt(-1000, 1000) + 0.5) * m; break; // a tie
        case 1: v = rnd.nextLong(-(1L << 51), 1L << 51) * m; break;
        case 2: v = Math.scalb(rnd.nextDouble() - 0.5, rnd.nextInt(40, 70)) * m; break;
        case 3: v = (rnd.nextBoolean() ? 0x1p51 : -0x1p51) * m * (1 + rnd.nextInt(3) * 0x1p-52);
          break;
        case 4: v = rnd.nextBoolean() ? -0.0 : -0.4 * m; break;
        default: v = Math.scalb(rnd.nextDouble() - 0.5, rnd.nextInt(0, 52)) * m;
      }
      src[off + j] = v;
    }
    if (n >= 16) {
      src[off + 13] = Double.NaN;
      src[off + 14] = Double.POSITIVE_INFINITY;
      src[off + 15] = 0x1p80;
    }
    long[] add = new long[off + n];
    for (int j = 0; j < add.length; j++) {
      add[j] = rnd.nextLong() >> rnd.nextInt(0, 63);
    }
    for (boolean withAdd : new boolean[] {false, true}) {
      long[] r1 = new long[off + n];
      long[] r2 = new long[off + n];
      REF.toZnx(n, src, off, withAdd ? add : null, off, r1, off);
      PANAMA.toZnx(n, src, off, withAdd ? add : null, off, r2, off);
      assertArrayEquals(r1, r2, "toZnx add=" + withAdd + " n=" + n);
      long[] alias = add.clone();
      PANAMA.toZnx(n, src, off, alias, off, alias, off);
      long[] expect = add.clone();
      REF.toZnx(n, src, off, expect, off, expect, off);
      assertArrayEquals(expect, alias, "toZnx into its addend, n=" + n);
    }
    double[] d1 = new double[off + n];
    double[] d2 = new double[off + n];
    REF.fromZnx(n, add, off, d1, off);
    PANAMA.fromZnx(n, add, off, d2, off);
    assertArrayEquals(d1, d2, "fromZnx n=" + n);
  }

  /**
   * The automorphism table and both kernels' permutations equal {@code a(X^p)} in {@code
   * Z[X]/(X^N+1)} computed term by term (X^(jp) with X^N = -1), bitwise, extreme values included.
   */
  @ParameterizedTest
  @CsvSource({"2048,5", "2048,4095", "2048,-3", "4096,3", "16,1", "16,7", "32,3", "64,63",
      "256,255"})
  void permutationIsTheRingAutomorphism(int n, int p) {
    SplittableRandom rnd = new SplittableRandom(31L * n + p);
    long[] src = new long[3 + n];
    for (int j = 0; j < src.length; j++) {
      src[j] = rnd.nextLong() >> rnd.nextInt(0, 63);
    }
    src[3] = Long.MIN_VALUE;
    if (n > 1) {
      src[4] = Long.MAX_VALUE;
    }
    long[] expect = new long[n];
    for (int j = 0; j < n; j++) {
      long e = Math.floorMod((long) j * p, 2L * n);
      long v = src[3 + j];
      if (e < n) {
        expect[(int) e] += v;
      } else {
        expect[(int) (e - n)] -= v;
      }
    }
    Znx.Automorphism a = Znx.Automorphism.of(n, p);
    long[] r1 = new long[2 + n];
    long[] r2 = new long[2 + n];
    REF.permute(n, src, 3, a.from(), a.neg(), r1, 2);
    PANAMA.permute(n, src, 3, a.from(), a.neg(), r2, 2);
    assertArrayEquals(expect, java.util.Arrays.copyOfRange(r1, 2, 2 + n), "ref, p=" + p);
    assertArrayEquals(r1, r2, "vector vs ref, p=" + p);
    // added into a destination: the permutation plus what was there, wrapping, both kernels
    long[] base = new long[2 + n];
    for (int j = 0; j < base.length; j++) {
      base[j] = rnd.nextLong();
    }
    long[] a1 = base.clone();
    long[] a2 = base.clone();
    REF.permuteAdd(n, src, 3, a.from(), a.neg(), a1, 2);
    PANAMA.permuteAdd(n, src, 3, a.from(), a.neg(), a2, 2);
    for (int j = 0; j < n; j++) {
      assertEquals(base[2 + j] + expect[j], a1[2 + j], "ref add, p=" + p + ", j=" + j);
    }
    assertArrayEquals(a1, a2, "vector add vs ref, p=" + p);
  }

  /**
   * The fused digits of an automorphism image equal the three steps they replace (permute every
   * limb, gadgetDigits, fromZnx of every digit), bitwise, in both kernels and through {@link
   * Znx#imageGadgetDigits}; the limb edges that normalize takes included.
   */
  @ParameterizedTest
  @CsvSource({"2048,2049,16,3,3,6,8", "2048,5,16,3,3,6,8", "2048,-3,16,4,3,6,8",
      "4096,4097,16,5,3,4,12", "16,3,16,3,2,4,5", "32,7,16,3,2,4,5", "2048,1025,16,1,2,4,5",
      "256,255,16,4,4,16,4", "512,3,16,3,3,7,6", "64,63,21,3,3,7,9"})
  void imageDigitsEqualPermuteThenDigitsThenConversion(int n, int p, int k, int aSize,
      int topLimbs, int bits, int levels) {
    long seed = 17L * n + p * 3 + aSize + topLimbs * 5 + bits * 7 + levels;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] a = new long[aSize * n + 3];
    for (int i = 0; i < a.length; i++) {
      a[i] = i % 7 == 3 ? (rnd.nextBoolean() ? 1L << 62 : -(1L << 62)) + rnd.nextInt(-2, 3)
          : rnd.nextLong() >> rnd.nextInt(1, 45);
    }
    Znx.Automorphism aut = Znx.Automorphism.of(n, p);
    long[] image = new long[aSize * n];
    for (int l = 0; l < aSize; l++) {
      REF.permute(n, a, 3 + l * n, aut.from(), aut.neg(), image, l * n);
    }
    long[] digits = new long[levels * n];
    REF.gadgetDigits(n, k, image, 0, aSize, topLimbs, bits, levels, digits, 0,
        new long[(topLimbs + 1) * n]);
    double[] expect = new double[levels * n + 2];
    for (int i = 0; i < levels; i++) {
      REF.fromZnx(n, digits, i * n, expect, 2 + i * n);
    }
    double[] r1 = new double[expect.length];
    double[] r2 = new double[expect.length];
    double[] r3 = new double[expect.length];
    REF.imageGadgetDigits(n, k, a, 3, aSize, aut.from(), aut.neg(), topLimbs, bits, levels, r1,
        2);
    PANAMA.imageGadgetDigits(n, k, a, 3, aSize, aut.from(), aut.neg(), topLimbs, bits, levels,
        r2, 2);
    Znx.imageGadgetDigits(aut, k, a, 3, aSize, topLimbs, bits, levels, r3, 2);
    assertArrayEquals(expect, r1, "reference, seed " + seed);
    assertArrayEquals(expect, r2, "vector, seed " + seed);
    assertArrayEquals(expect, r3, "dispatch, seed " + seed);
    // both conversions of the digits, whichever this CPU's kernel uses
    for (boolean nativeL2d : new boolean[] {true, false}) {
      double[] r4 = new double[expect.length];
      PanamaZnx.imageGadgetDigits(nativeL2d, n, k, a, 3, aSize, aut.from(), aut.neg(), topLimbs,
          bits, levels, r4, 2);
      assertArrayEquals(expect, r4, "conversion native=" + nativeL2d + ", seed " + seed);
    }
  }

  /**
   * Both lane conversions of the Vector API kernel (the native one and the one by additions that
   * AVX2 gets) equal the cast bitwise, for every magnitude: the extremes, the edges of the
   * 2^51 and 2^53 ranges and ties that round to even.
   */
  @Test
  void laneConversionsEqualTheCastBitwise() {
    SplittableRandom rnd = new SplittableRandom(2026_12_08L);
    long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1,
        (1L << 51) - 1, -(1L << 51) + 1, 1L << 51, -(1L << 51), 1L << 52, -(1L << 52),
        (1L << 53) + 1, (1L << 53) + 3, -(1L << 53) - 1, -(1L << 53) - 3, (1L << 62) + 1025,
        Long.MAX_VALUE - 1024, 0xFFFFFFFFL, 0x100000000L, -0x100000000L, -0xFFFFFFFFL};
    int n = 4096;
    long[] x = new long[n];
    for (int i = 0; i < n; i++) {
      x[i] = i < edges.length ? edges[i] : rnd.nextLong() >> rnd.nextInt(0, 64);
    }
    double[] expect = new double[n + 3];
    for (int i = 0; i < n; i++) {
      expect[3 + i] = (double) x[i];
    }
    for (boolean nativeL2d : new boolean[] {true, false}) {
      double[] got = new double[n + 3];
      PanamaZnx.fromZnx(nativeL2d, n, x, 0, got, 3);
      assertArrayEquals(expect, got, "fromZnx, native=" + nativeL2d);
    }
    // the small form on its range, |x| < 2^51
    VectorSpecies<Long> s = LongVector.SPECIES_PREFERRED;
    long[] small = new long[n];
    for (int i = 0; i < n; i++) {
      small[i] = i < 4 ? new long[] {(1L << 51) - 1, -(1L << 51) + 1, 0, -1}[i]
          : rnd.nextLong(-(1L << 51) + 1, 1L << 51);
    }
    double[] got = new double[n];
    for (int j = 0; j < n; j += s.length()) {
      PanamaZnx.smallToDoubles(LongVector.fromArray(s, small, j)).intoArray(got, j);
    }
    for (int i = 0; i < n; i++) {
      assertEquals((double) small[i], got[i], 0.0, "smallToDoubles(" + small[i] + ")");
    }
  }

  /** The conversion is native on AArch64 and on x86 with AVX-512 enabled, nowhere else. */
  @Test
  void nativeConversionFollowsTheInstructionSet() {
    assertTrue(PanamaZnx.nativeL2d("aarch64", 32));
    assertTrue(PanamaZnx.nativeL2d("amd64", 32));
    assertFalse(PanamaZnx.nativeL2d("amd64", 16));
    assertFalse(PanamaZnx.nativeL2d("x86_64", 16));
    assertFalse(PanamaZnx.nativeL2d("riscv64", 32));
  }
}
