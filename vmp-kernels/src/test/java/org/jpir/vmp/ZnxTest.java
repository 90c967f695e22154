package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ZnxTest {

  private static long[] random(SplittableRandom rnd, int len, long bound) {
    long[] a = new long[len];
    for (int i = 0; i < len; i++) {
      a[i] = rnd.nextLong(-bound, bound);
    }
    return a;
  }

  /** Exact negacyclic product, naive. */
  static long[] negacyclic(long[] a, long[] b) {
    int n = a.length;
    long[] r = new long[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (i + j < n) {
          r[i + j] += a[i] * b[j];
        } else {
          r[i + j - n] -= a[i] * b[j];
        }
      }
    }
    return r;
  }

  @Test
  void addSubNegateCopyAreCoefficientwise() {
    int n = 64;
    SplittableRandom rnd = new SplittableRandom(1);
    long[] a = random(rnd, n, 1L << 40);
    long[] b = random(rnd, n, 1L << 40);
    long[] s = new long[n];
    long[] d = new long[n];
    long[] ng = new long[n];
    long[] c = new long[n];
    Znx.add(n, a, 0, b, 0, s, 0);
    Znx.sub(n, a, 0, b, 0, d, 0);
    Znx.negate(n, a, 0, ng, 0);
    Znx.copy(n, a, 0, c, 0);
    for (int j = 0; j < n; j++) {
      assertEquals(a[j] + b[j], s[j]);
      assertEquals(a[j] - b[j], d[j]);
      assertEquals(-a[j], ng[j]);
      assertEquals(a[j], c[j]);
    }
    // in place
    Znx.add(n, a, 0, b, 0, a, 0);
    assertArrayEquals(s, a);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 5, 16, 31, 32, 33, 63, 64, -1, -65, 1000})
  void rotateEqualsMultiplicationByMonomial(int k) {
    int n = 32;
    SplittableRandom rnd = new SplittableRandom(k + 100);
    long[] a = random(rnd, n, 1000);
    long[] mono = new long[n];
    int e = Math.floorMod(k, 2 * n);
    mono[e % n] = e < n ? 1 : -1;
    long[] got = new long[n];
    Znx.rotate(n, k, a, 0, got, 0);
    assertArrayEquals(negacyclic(a, mono), got, "k=" + k);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3, 5, 17, 33, -1, 63, 127})
  void automorphismIsARingHomomorphism(int p) {
    int n = 64;
    SplittableRandom rnd = new SplittableRandom(p + 7);
    long[] a = random(rnd, n, 100);
    long[] b = random(rnd, n, 100);
    long[] ab = negacyclic(a, b);
    long[] fa = new long[n];
    long[] fb = new long[n];
    long[] fab = new long[n];
    Znx.automorphism(n, p, a, 0, fa, 0);
    Znx.automorphism(n, p, b, 0, fb, 0);
    Znx.automorphism(n, p, ab, 0, fab, 0);
    assertArrayEquals(fab, negacyclic(fa, fb), "phi(ab) = phi(a) phi(b), p=" + p);
    // X -> X^p sends X to X^p: check directly on a = X
    long[] x = new long[n];
    x[1] = 1;
    long[] fx = new long[n];
    Znx.automorphism(n, p, x, 0, fx, 0);
    long[] one = new long[n];
    one[0] = 1;
    long[] xp = new long[n];
    Znx.rotate(n, p, one, 0, xp, 0);
    assertArrayEquals(xp, fx);
  }

  @Test
  void automorphismRejectsEvenExponentAndAliasing() {
    long[] a = new long[16];
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Znx.automorphism(16, 4, a, 0,
            new long[16], 0));
    assertTrue(e.getMessage().contains("odd"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Znx.rotate(16, 1, a, 0, a, 0));
    assertTrue(e.getMessage().contains("overlaps"), e.getMessage());
  }

  private static BigInteger value(long[] x, int off, int size, int n, int j, int k) {
    BigInteger v = BigInteger.ZERO;
    for (int i = 0; i < size; i++) {
      v = v.shiftLeft(k).add(BigInteger.valueOf(x[off + i * n + j]));
    }
    return v;
  }

  @ParameterizedTest
  @CsvSource({"16,4,4", "16,3,6", "12,5,5", "16,6,3", "20,2,8", "1,4,4"})
  void normalizeKeepsTorusValueAndBoundsDigits(int k, int aSize, int resSize) {
    int n = 16;
    SplittableRandom rnd = new SplittableRandom(31L * k + aSize);
    long[] a = random(rnd, aSize * n, 1L << 50);
    a[0] = Long.MAX_VALUE >> 2;
    a[n] = Long.MIN_VALUE >> 2;
    long[] res = new long[resSize * n];
    Znx.normalize(n, k, a, 0, aSize, res, 0, resSize, new long[n]);
    long half = 1L << (k - 1);
    for (long d : res) {
      assertTrue(d >= -half && d < half, "digit " + d + " out of range for K=" + k);
    }
    BigInteger mod = BigInteger.ONE.shiftLeft(k * Math.max(aSize, resSize));
    for (int j = 0; j < n; j++) {
      BigInteger va = value(a, 0, aSize, n, j, k);
      BigInteger vr = value(res, 0, resSize, n, j, k);
      if (resSize >= aSize) {
        BigInteger scaled = va.shiftLeft(k * (resSize - aSize));
        assertEquals(scaled.mod(mod), vr.mod(mod), "coefficient " + j);
      } else {
        int d = aSize - resSize;
        BigInteger diff = va.subtract(vr.shiftLeft(k * d)).mod(mod);
        if (diff.compareTo(mod.shiftRight(1)) >= 0) {
          diff = diff.subtract(mod);
        }
        // rounding error of at most half a unit of the last kept limb (plus one unit for ties)
        assertTrue(diff.abs().compareTo(BigInteger.ONE.shiftLeft(k * d)) <= 0,
            "coefficient " + j + " rounding error " + diff);
      }
    }
  }

  @Test
  void normalizeInPlace() {
    int n = 16;
    SplittableRandom rnd = new SplittableRandom(5);
    long[] a = random(rnd, 3 * n, 1L << 30);
    long[] expect = new long[3 * n];
    Znx.normalize(n, 16, a, 0, 3, expect, 0, 3, new long[n]);
    Znx.normalize(n, 16, a, 0, 3, a, 0, 3, new long[n]);
    assertArrayEquals(expect, a);
  }

  @Test
  void badArgumentsAreNamed() {
    long[] a = new long[16];
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Znx.add(24, a, 0, a, 0, a, 0));
    assertTrue(e.getMessage().contains("N=24"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Znx.add(16, a, 8, a, 0, a, 0));
    assertTrue(e.getMessage().contains("add input"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Znx.normalize(16, 0, a, 0, 1, a, 0, 1, new long[16]));
    assertTrue(e.getMessage().contains("base2k"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Znx.normalize(16, 16, a, 0, 2, a, 0, 1, new long[16]));
    assertTrue(e.getMessage().contains("normalize input"), e.getMessage());
  }

  /** V(x) = sum_l x_l 2^(bits (limbs-1-l)) as an exact integer. */
  private static BigInteger digitsValue(long[] x, int off, int n, int j, int limbs, int bits) {
    BigInteger v = BigInteger.ZERO;
    for (int l = 0; l < limbs; l++) {
      v = v.shiftLeft(bits).add(BigInteger.valueOf(x[off + l * n + j]));
    }
    return v;
  }

  @ParameterizedTest
  @CsvSource({"64,16,4,21,2", "64,21,2,16,3", "32,16,3,20,2", "16,20,3,16,4", "64,16,2,16,3"})
  void rebaseRoundsTheTorusValueToTheTargetDigits(int n, int from, int aLimbs, int to,
      int resLimbs) {
    SplittableRandom rnd = new SplittableRandom(n * 31L + from + to);
    long[] a = random(rnd, aLimbs * n, 1L << 40); // unnormalized digits
    long[] r = new long[resLimbs * n];
    Znx.rebase(n, from, a, 0, aLimbs, to, r, 0, resLimbs);
    int shift = to * resLimbs - from * aLimbs;
    BigInteger mod = BigInteger.ONE.shiftLeft(to * resLimbs);
    for (int j = 0; j < n; j++) {
      BigInteger v = digitsValue(a, 0, n, j, aLimbs, from);
      BigInteger want = shift >= 0 ? v.shiftLeft(shift)
          : v.add(BigInteger.ONE.shiftLeft(-shift - 1)).shiftRight(-shift);
      assertEquals(want.mod(mod), digitsValue(r, 0, n, j, resLimbs, to).mod(mod), "coefficient " + j);
      for (int i = 0; i < resLimbs; i++) {
        long d = r[i * n + j];
        assertTrue(d >= -(1L << (to - 1)) && d < (1L << (to - 1)), "digit " + d);
      }
    }
    assertThrows(IllegalArgumentException.class, () -> Znx.rebase(n, 16, a, 0, 5, 16, r, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> Znx.rebase(n, 16, a, 0, 1, 16, a, 0, 1));
  }
}
