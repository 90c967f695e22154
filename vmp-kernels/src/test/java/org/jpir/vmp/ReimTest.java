package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReimTest {

  static double[] random(SplittableRandom rnd, int len) {
    double[] x = new double[len];
    for (int i = 0; i < len; i++) {
      x[i] = rnd.nextDouble(-10, 10);
    }
    return x;
  }

  @ParameterizedTest
  @ValueSource(ints = {16, 64, 4096})
  void pointwiseOperationsFollowTheirFormulas(int n) {
    long seed = 5L * n;
    SplittableRandom rnd = new SplittableRandom(seed);
    int m = n / 2;
    int ao = 1;
    int bo = 2;
    int ro = 3;
    double[] a = random(rnd, n + ao);
    double[] b = random(rnd, n + bo);
    double[] r0 = random(rnd, n + ro);
    double[] mul = r0.clone();
    double[] mulAdd = r0.clone();
    double[] add = r0.clone();
    double[] sub = r0.clone();
    Reim.mul(n, a, ao, b, bo, mul, ro);
    Reim.mulAdd(n, a, ao, b, bo, mulAdd, ro);
    Reim.add(n, a, ao, b, bo, add, ro);
    Reim.sub(n, a, ao, b, bo, sub, ro);
    for (int j = 0; j < m; j++) {
      double ar = a[ao + j];
      double ai = a[ao + m + j];
      double br = b[bo + j];
      double bi = b[bo + m + j];
      String at = "slot " + j + " seed " + seed;
      assertEquals(ar * br - ai * bi, mul[ro + j], at);
      assertEquals(ar * bi + ai * br, mul[ro + m + j], at);
      assertEquals(r0[ro + j] + (ar * br - ai * bi), mulAdd[ro + j], at);
      assertEquals(r0[ro + m + j] + (ar * bi + ai * br), mulAdd[ro + m + j], at);
    }
    for (int k = 0; k < n; k++) {
      assertEquals(a[ao + k] + b[bo + k], add[ro + k], "index " + k + " seed " + seed);
      assertEquals(a[ao + k] - b[bo + k], sub[ro + k], "index " + k + " seed " + seed);
    }
    for (int k = 0; k < ro; k++) {
      assertEquals(r0[k], mul[k], "prefix untouched");
    }
  }

  @Test
  void mulMayWriteOverAnInput() {
    int n = 64;
    SplittableRandom rnd = new SplittableRandom(3);
    double[] a = random(rnd, n);
    double[] b = random(rnd, n);
    double[] want = new double[n];
    Reim.mul(n, a, 0, b, 0, want, 0);
    Reim.mul(n, a, 0, b, 0, a, 0);
    assertArrayEquals(want, a);
  }

  @Test
  void roundTripThroughZnxIsExact() {
    int n = 256;
    long[] p = new long[n];
    SplittableRandom rnd = new SplittableRandom(9);
    for (int i = 0; i < n; i++) {
      p[i] = rnd.nextLong(-(1L << 40), 1L << 40);
    }
    double[] buf = new double[n];
    Reim.fromZnx(n, p, 0, buf, 0);
    FftPlan plan = FftPlan.of(n);
    plan.fft(buf, 0);
    plan.ifft(buf, 0);
    long[] back = new long[n];
    Reim.toZnx(n, buf, 0, back, 0);
    assertArrayEquals(p, back);
  }

  @Test
  void toZnxAddIsToZnxPlusTheAddendAlsoInPlace() {
    int n = 64;
    java.util.SplittableRandom rnd = new SplittableRandom(7);
    double[] src = new double[n + 3];
    long[] add = new long[n + 5];
    for (int j = 0; j < src.length; j++) {
      src[j] = (rnd.nextLong(1L << 40) - (1L << 39)) * (n / 2.0) + rnd.nextDouble() - 0.5;
    }
    for (int j = 0; j < add.length; j++) {
      add[j] = rnd.nextLong(1L << 20) - (1L << 19);
    }
    long[] plain = new long[n];
    Reim.toZnx(n, src, 3, plain, 0);
    long[] out = new long[n + 1];
    Reim.toZnxAdd(n, src, 3, add, 5, out, 1);
    long[] inPlace = add.clone();
    Reim.toZnxAdd(n, src, 3, inPlace, 5, inPlace, 5);
    for (int j = 0; j < n; j++) {
      assertEquals(plain[j] + add[5 + j], out[1 + j], "j=" + j);
      assertEquals(plain[j] + add[5 + j], inPlace[5 + j], "in place, j=" + j);
    }
    assertThrows(IllegalArgumentException.class,
        () -> Reim.toZnxAdd(n, src, 4, add, 0, out, 0));
  }

  @Test
  void badArgumentsAreNamed() {
    double[] x = new double[64];
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Reim.mul(64, x, 0, x, 1, x, 0));
    assertTrue(e.getMessage().contains("mul b") && e.getMessage().contains("offset 1"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Reim.add(48, x, 0, x, 0, x, 0));
    assertTrue(e.getMessage().contains("N=48"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> Reim.mulAdd(64, x, 0, x, 0, new double[10], 0));
    assertTrue(e.getMessage().contains("mulAdd res"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Reim.sub(64, x, -1, x, 0, x, 0));
    assertTrue(e.getMessage().contains("sub a") && e.getMessage().contains("offset -1"),
        e.getMessage());
  }
}
