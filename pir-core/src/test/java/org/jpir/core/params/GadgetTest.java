package org.jpir.core.params;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.jpir.vmp.Znx;
import org.junit.jupiter.api.Test;

class GadgetTest {
  static final int N = 16;

  /** The torus value of limbs (limb l weighs 2^-K(l+1)) as an integer times 2^-(K limbs). */
  static BigInteger value(long[] a, int off, int limbs, int k, int j) {
    BigInteger v = BigInteger.ZERO;
    for (int l = 0; l < limbs; l++) {
      v = v.shiftLeft(k).add(BigInteger.valueOf(a[off + l * N + j]));
    }
    return v;
  }

  /**
   * Against exact integers: the digits are in range and sum to x rounded to bits * levels bits
   * (within half a unit there, modulo 1), for unnormalized inputs, at every digit size and level
   * count the limbs allow, including bits = K (the limbs themselves).
   */
  @Test
  void digitsSumToTheRoundedValueModuloOne() {
    SplittableRandom r = new SplittableRandom(7);
    int k = 16;
    int limbs = 5;
    for (int bits = 1; bits <= k; bits++) {
      for (int levels = 1; levels * bits <= (bits == k ? limbs * k : 62); levels++) {
        Gadget g = new Gadget(k, bits, levels);
        long[] src = new long[limbs * N];
        for (int i = 0; i < src.length; i++) {
          src[i] = r.nextLong(-(1L << 40), 1L << 40); // unnormalized, as expansion leaves them
        }
        long[] dst = new long[levels * N];
        g.decompose(N, src, 0, limbs, dst, 0, new long[N], new long[g.scratchLength(N)]);
        int precision = bits * levels;
        int total = k * limbs;
        BigInteger one = BigInteger.ONE.shiftLeft(total);
        for (int j = 0; j < N; j++) {
          BigInteger sum = BigInteger.ZERO;
          for (int i = 0; i < levels; i++) {
            long d = dst[i * N + j];
            assertTrue(d >= -(1L << (bits - 1)) && d < (1L << (bits - 1)),
                "digit " + d + " of " + bits + " bits");
            sum = sum.add(BigInteger.valueOf(d).shiftLeft(total - bits * (i + 1)));
          }
          BigInteger diff = value(src, 0, limbs, k, j).subtract(sum).mod(one);
          if (diff.compareTo(one.shiftRight(1)) >= 0) {
            diff = diff.subtract(one);
          }
          // |x - sum| <= half a unit of the digits' last bit (plus one unit of the limbs below
          // it when bits < K: the input is first rounded to the limbs that hold the digits)
          BigInteger half = precision >= total ? BigInteger.ZERO
              : BigInteger.ONE.shiftLeft(total - precision - 1);
          BigInteger slack = bits == k ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(
              Math.max(0, total - k * ((precision + k - 1) / k) - 1));
          assertTrue(diff.abs().compareTo(half.add(slack)) <= 0, bits + " x " + levels
              + ": |x - sum of digits| = " + diff.abs() + " units of 2^-" + total);
        }
      }
    }
  }

  /** At bits = K the digits are Znx.normalize's limbs, bit for bit (the presets before). */
  @Test
  void limbDigitsAreNormalizedLimbs() {
    SplittableRandom r = new SplittableRandom(3);
    long[] src = new long[4 * N];
    for (int i = 0; i < src.length; i++) {
      src[i] = r.nextLong(-(1L << 40), 1L << 40);
    }
    long[] viaGadget = new long[3 * N];
    long[] viaNormalize = new long[3 * N];
    new Gadget(16, 16, 3).decompose(N, src, 0, 4, viaGadget, 0, new long[N], new long[0]);
    Znx.normalize(N, 16, src, 0, 4, viaNormalize, 0, 3, new long[N]);
    assertArrayEquals(viaNormalize, viaGadget);
  }

  /** Gadget row messages: m 2^-(bits (level+1) + extra) lands on the limb holding that power. */
  @Test
  void addScaledPlacesThePowerOfTwo() {
    int k = 16;
    Gadget g = new Gadget(k, 5, 6);
    long[] m = new long[N];
    m[3] = -1;
    m[5] = 2;
    for (int level = 0; level < 6; level++) {
      long[] msg = new long[4 * N];
      g.addScaled(msg, N, level, m, 2);
      int e = 5 * (level + 1) + 2;
      for (int j = 0; j < N; j++) {
        BigInteger expect = BigInteger.valueOf(m[j]).shiftLeft(4 * k - e);
        assertEquals(expect, value(msg, 0, 4, k, j), "level " + level + " coefficient " + j);
      }
    }
    assertThrows(IllegalArgumentException.class, () -> Gadget.addPowerOfTwo(new long[N], N, k,
        17, 0, 1), "2^-17 lies below one 16-bit limb");
    assertThrows(IllegalArgumentException.class, () -> new Gadget(16, 5, 13),
        "65 bits of digits below K");
    assertThrows(IllegalArgumentException.class, () -> new Gadget(16, 17, 1), "bits above K");
  }
}
