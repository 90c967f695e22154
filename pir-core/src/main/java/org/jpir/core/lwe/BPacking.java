package org.jpir.core.lwe;

import org.jpir.core.params.Noise;

/**
 * Rounding and bit-packing of the b parts of seeded GLWEs (compact queries and evaluation keys).
 * A b coefficient is the torus value {@code x = sum_i d_i 2^(-K(i+1))} of its {@code limbs}
 * digits (limb i of coefficient j at {@code off + i*N + j}); rounded to {@code bits} bits it is
 * the nearest multiple of {@code 2^-bits} (ties upward), its image {@code w = round(x 2^bits) mod
 * 2^bits} travels as {@code bits} bits, most significant first, coefficients in order. The
 * rounding adds an error uniform in {@code [-2^-bits/2, 2^-bits/2]} to the phase ({@link
 * Noise#bRounding}); the mask a is regenerated from its seed at full precision, so only b loses
 * digits. Security is unchanged: the rounded b is a public function of the LWE sample (b, a), so
 * anyone holding the sample could compute it; it reveals nothing more about s.
 */
public final class BPacking {
  private BPacking() {}

  /** Bytes of {@code glwes * N} coefficients of {@code bits} bits each, padded to a byte. */
  public static long bytes(long coefficients, int bits) {
    return (coefficients * bits + 7) / 8;
  }

  /**
   * Rounds every coefficient of the b part {@code d[off + i*N + j]} (i < limbs, j < N; digits of
   * any sign within 2^62) to {@code bits} bits, in place, leaving digits normalized in {@code
   * [-2^(K-1), 2^(K-1))}.
   */
  public static void round(long[] d, int off, int n, int limbs, int k, int bits) {
    check(limbs, k, bits);
    long[] u = new long[limbs];
    int drop = k * limbs - bits;
    for (int j = 0; j < n; j++) {
      toUnsigned(d, off + j, n, limbs, k, u);
      if (drop > 0) {
        int pos = drop - 1;
        u[limbs - 1 - pos / k] += 1L << (pos % k);
        for (int i = limbs - 1; i > 0; i--) {
          u[i - 1] += u[i] >>> k;
          u[i] &= (1L << k) - 1;
        }
        u[0] &= (1L << k) - 1;
        for (int i = limbs - 1; i >= 0; i--) {
          int low = Math.min(k, drop - (limbs - 1 - i) * k);
          if (low <= 0) {
            break;
          }
          u[i] &= ~((1L << low) - 1);
        }
      }
      toCentered(u, k, d, off + j, n);
    }
  }

  private static void check(int limbs, int k, int bits) {
    if (bits < 1 || bits > k * limbs) {
      throw new IllegalArgumentException("b rounded to " + bits + " bits: must be in [1, "
          + k * limbs + "]");
    }
  }

  /** u[i] = the unsigned K-bit chunks of the value d[at + i*N] (u[0] most significant), mod 1. */
  private static void toUnsigned(long[] d, int at, int n, int limbs, int k, long[] u) {
    for (int i = 0; i < limbs; i++) {
      u[i] = d[at + i * n];
    }
    carryToUnsigned(u, limbs, k);
  }

  /** {@link #toUnsigned(long[], int, int, int, int, long[])} of 16-bit digits. */
  private static void toUnsigned(short[] d, int at, int n, int limbs, int k, long[] u) {
    for (int i = 0; i < limbs; i++) {
      u[i] = d[at + i * n];
    }
    carryToUnsigned(u, limbs, k);
  }

  /** Replaces the signed digits in u by the unsigned K-bit chunks of their value, mod 1. */
  private static void carryToUnsigned(long[] u, int limbs, int k) {
    long carry = 0;
    long mask = (1L << k) - 1;
    for (int i = limbs - 1; i >= 0; i--) {
      long v = u[i] + carry;
      u[i] = v & mask;
      carry = v >> k;
    }
  }

  /** Centered digits of the unsigned chunks u (value mod 1) into d[at + i*N]. */
  private static void toCentered(long[] u, int k, long[] d, int at, int n) {
    long carry = 0;
    long half = 1L << (k - 1);
    for (int i = u.length - 1; i >= 0; i--) {
      long v = u[i] + carry;
      if (v >= half) {
        d[at + i * n] = v - (1L << k);
        carry = 1;
      } else {
        d[at + i * n] = v;
        carry = 0;
      }
    }
  }

  /**
   * Packs {@code src.length / (limbs N)} b parts of K-bit digits (16-bit words, already rounded
   * to {@code bits} bits by {@link #round}) into {@code bytes(src.length / limbs, bits)} bytes.
   *
   * @throws IllegalArgumentException when a coefficient has bits below {@code 2^-bits}
   */
  public static byte[] pack(short[] src, int n, int limbs, int k, int bits) {
    check(limbs, k, bits);
    int per = limbs * n;
    if (src.length % per != 0) {
      throw new IllegalArgumentException("b parts of " + src.length + " digits: not a multiple of "
          + per);
    }
    long coefficients = src.length / limbs;
    long size = bytes(coefficients, bits);
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("b parts of " + size + " bytes are too large");
    }
    byte[] out = new byte[(int) size];
    long[] u = new long[limbs];
    long acc = 0;
    int held = 0;
    int pos = 0;
    for (int g = 0; g < src.length; g += per) {
      for (int j = 0; j < n; j++) {
        toUnsigned(src, g + j, n, limbs, k, u);
        int left = bits;
        for (int i = 0; i < limbs; i++) {
          int nb = Math.min(k, left);
          if (nb <= 0) {
            if (u[i] != 0) {
              throw notRounded(bits);
            }
            continue;
          }
          if ((u[i] & ((1L << (k - nb)) - 1)) != 0) {
            throw notRounded(bits);
          }
          acc = (acc << nb) | (u[i] >>> (k - nb));
          held += nb;
          left -= nb;
          while (held >= 8) {
            held -= 8;
            out[pos++] = (byte) (acc >>> held);
          }
        }
      }
    }
    if (held > 0) {
      out[pos] = (byte) (acc << (8 - held));
    }
    return out;
  }

  private static IllegalArgumentException notRounded(int bits) {
    return new IllegalArgumentException("a b coefficient is not rounded to " + bits + " bits");
  }

  /**
   * Unpacks {@code digits / limbs} coefficients of {@code bits} bits from {@code msg[base..]}
   * into normalized K-bit digits (b-part layout); the caller has checked that {@link #bytes}
   * bytes are present.
   *
   * @return the digits, or null when the padding bits after the last coefficient are not zero
   */
  public static short[] unpack(byte[] msg, int base, int digits, int n, int limbs, int k,
      int bits) {
    check(limbs, k, bits);
    int per = limbs * n;
    short[] out = new short[digits];
    long[] u = new long[limbs];
    long[] d = new long[limbs * n];
    long acc = 0;
    int held = 0;
    int pos = base;
    for (int g = 0; g < digits; g += per) {
      for (int j = 0; j < n; j++) {
        int left = bits;
        for (int i = 0; i < limbs; i++) {
          int nb = Math.min(k, left);
          if (nb <= 0) {
            u[i] = 0;
            continue;
          }
          while (held < nb) {
            acc = (acc << 8) | (msg[pos++] & 0xFF);
            held += 8;
          }
          held -= nb;
          u[i] = ((acc >>> held) & ((1L << nb) - 1)) << (k - nb);
          left -= nb;
        }
        toCentered(u, k, d, j, n);
      }
      for (int t = 0; t < per; t++) {
        out[g + t] = (short) d[t];
      }
    }
    if (held > 0 && (acc & ((1L << held) - 1)) != 0) {
      return null;
    }
    return out;
  }
}
