package org.jpir.core.lwe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

/** Rounding of b parts against exact integer arithmetic, and the bit packing round trip. */
class BPackingTest {
  static final SecureRandom RANDOM = new SecureRandom();

  /** The value of coefficient j as an integer mod 2^(K limbs) (exact). */
  static BigInteger value(long[] d, int j, int n, int limbs, int k) {
    BigInteger v = BigInteger.ZERO;
    for (int i = 0; i < limbs; i++) {
      v = v.add(BigInteger.valueOf(d[i * n + j]).shiftLeft(k * (limbs - 1 - i)));
    }
    return v.mod(BigInteger.ONE.shiftLeft(k * limbs));
  }

  @Test
  void roundingIsToTheNearestMultipleAndPackingRoundTrips() {
    int n = 37; // odd, so that some arrays end with padding bits
    int limbs = 7;
    int k = 16;
    BigInteger mod = BigInteger.ONE.shiftLeft(k * limbs);
    Prg prg = Prg.fromSecureRandom(RANDOM);
    for (int bits : new int[] {17, 40, 64, 81, 82, 96, 103, 111, 112}) {
      long[] d = new long[2 * limbs * n];
      prg.fillUniformDigits(d, 0, d.length, k);
      // unnormalized digits, extreme values and a carry across every limb
      d[3] = 1L << 40;
      d[n + 5] = -(1L << 39);
      for (int i = 0; i < limbs; i++) {
        d[i * n + 7] = (1 << (k - 1)) - 1;
      }
      long[] r = d.clone();
      BPacking.round(r, 0, n, limbs, k, bits);
      BPacking.round(r, limbs * n, n, limbs, k, bits);
      BigInteger ulp = BigInteger.ONE.shiftLeft(k * limbs - bits);
      for (int g = 0; g < 2; g++) {
        for (int j = 0; j < n; j++) {
          long[] dg = java.util.Arrays.copyOfRange(d, g * limbs * n, (g + 1) * limbs * n);
          long[] rg = java.util.Arrays.copyOfRange(r, g * limbs * n, (g + 1) * limbs * n);
          BigInteger x = value(dg, j, n, limbs, k);
          BigInteger y = value(rg, j, n, limbs, k);
          assertEquals(BigInteger.ZERO, y.mod(ulp), "a multiple of 2^-" + bits);
          BigInteger err = y.subtract(x).mod(mod);
          if (err.compareTo(mod.shiftRight(1)) >= 0) {
            err = err.subtract(mod);
          }
          assertTrue(err.abs().shiftLeft(1).compareTo(ulp) <= 0, bits + " bits: error " + err
              + " above half of " + ulp);
          for (int i = 0; i < limbs; i++) {
            long digit = rg[i * n + j];
            assertTrue(digit >= -(1 << (k - 1)) && digit < (1 << (k - 1)), "normalized");
          }
        }
      }
      short[] s = new short[r.length];
      Digits.toShorts(r, 0, s, 0, r.length);
      byte[] packed = BPacking.pack(s, n, limbs, k, bits);
      assertEquals((2L * n * bits + 7) / 8, packed.length);
      assertArrayEquals(s, BPacking.unpack(packed, 0, s.length, n, limbs, k, bits));
      if (bits < k * limbs) {
        short[] unrounded = s.clone();
        unrounded[(limbs - 1) * n] ^= 1;
        assertThrows(IllegalArgumentException.class,
            () -> BPacking.pack(unrounded, n, limbs, k, bits));
      }
      if ((2L * n * bits) % 8 != 0) {
        byte[] pad = packed.clone();
        pad[pad.length - 1] |= 1;
        assertNull(BPacking.unpack(pad, 0, s.length, n, limbs, k, bits), "padding is checked");
      }
    }
  }
}
