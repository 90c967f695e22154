package org.jpir.core.lwe;

import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;
import org.jpir.core.params.Gadget;
import org.jpir.core.params.Params;

/**
 * The fresh encryptions behind {@link GlweOps}: seeded GLWEs (mask from a seed's stream, b at
 * full precision or rounded to bBits), and GGSWs, whose 2 ggswLevels rows {@code kk*L + j} are
 * fresh GLWEs (plain or seeded) with phase {@code m * g_j} (kk = 0) or {@code m * s * g_j} (kk =
 * 1), {@code g_j = 2^-(ggswBits (j+1))}.
 */
final class Encryptor {
  private final GlweOps ops;
  private final Params p;
  private final Gadget gadget;
  private final int n;
  private final int k;

  Encryptor(GlweOps ops, Params p, Gadget gadget) {
    this.ops = ops;
    this.p = p;
    this.gadget = gadget;
    this.n = p.n();
    this.k = p.base2k();
  }

  /** A GGSW of the bit mu, the mask of row r from {@code masks}. */
  Ggsw encrypt(SecretKey sk, int mu, IntFunction<Prg> masks, Prg noise) {
    long[][] msgs = messages(sk, bit(n, mu));
    Glwe[] rows = new Glwe[msgs.length];
    for (int r = 0; r < rows.length; r++) {
      rows[r] = ops.encrypt(sk, msgs[r], masks.apply(r), noise);
    }
    return new Ggsw(rows);
  }

  /** A seeded GGSW of m, row q's mask stream {@code streams.applyAsLong(q)} of seed. */
  SeededGgsw encryptSeeded(SecretKey sk, long[] m, byte[] seed, IntToLongFunction streams,
      Prg noise, int bBits) {
    long[][] msgs = messages(sk, m);
    SeededGlwe[] rows = new SeededGlwe[msgs.length];
    for (int r = 0; r < rows.length; r++) {
      rows[r] = seeded(sk, msgs[r], seed, streams.applyAsLong(r), noise, bBits);
    }
    return new SeededGgsw(rows);
  }

  /** bBits, when it is in [1, K glweLimbs]. */
  int checkBits(int bBits) {
    if (bBits < 1 || bBits > k * p.glweLimbs()) {
      throw new IllegalArgumentException("b rounded to " + bBits + " bits: must be in [1, "
          + k * p.glweLimbs() + "]");
    }
    return bBits;
  }

  /** {@link GlweOps#encryptSeeded}; {@code bBits == 0} keeps b at full precision. */
  SeededGlwe seeded(SecretKey sk, long[] msg, byte[] seed, long stream, Prg noise,
      int bBits) {
    int limbs = p.glweLimbs();
    SeededGlwe out = new SeededGlwe(p, seed, stream, new short[limbs * n], 0);
    Glwe c = new Glwe(n, limbs);
    SeededGlwe.fillMask(seed, stream, c, k);
    ops.completeB(sk, c, msg, noise);
    if (bBits > 0) {
      BPacking.round(c.data(), c.offset(0, 0), n, limbs, k, bBits);
    }
    Digits.toShorts(c.data(), c.offset(0, 0), out.body(), 0, limbs * n);
    return out;
  }

  /** The polynomial {@code mu} (a bit): N coefficients, {@code mu} at 0. */
  static long[] bit(int n, int mu) {
    if (mu != 0 && mu != 1) {
      throw new IllegalArgumentException("GGSW message must be a bit, got " + mu);
    }
    long[] m = new long[n];
    m[0] = mu;
    return m;
  }

  /**
   * The messages of the 2 ggswLevels rows of a GGSW of m: row {@code kk*L + j} holds m (kk = 0)
   * or {@code m * s mod X^N + 1} (kk = 1, exact) times the gadget value {@code 2^-(ggswBits
   * (j+1))} (at limb j when the digits are the limbs).
   */
  private long[][] messages(SecretKey sk, long[] m) {
    if (m.length != n) {
      throw new IllegalArgumentException("GGSW message has " + m.length + " coefficients, N = "
          + n);
    }
    int lg = p.ggswLevels();
    long[] ms = negacyclicProduct(m, sk.coefficients());
    long[][] msgs = new long[2 * lg][];
    for (int kk = 0; kk < 2; kk++) {
      for (int j = 0; j < lg; j++) {
        long[] msg = new long[p.glweLimbs() * n];
        gadget.addScaled(msg, n, j, kk == 0 ? m : ms, 0);
        msgs[kk * lg + j] = msg;
      }
    }
    return msgs;
  }

  /** {@code x * y mod X^N + 1}, exactly, by the schoolbook product (zero terms of x skipped). */
  static long[] negacyclicProduct(long[] x, long[] y) {
    int len = x.length;
    long[] out = new long[len];
    for (int i = 0; i < len; i++) {
      if (x[i] == 0) {
        continue;
      }
      for (int j = 0; j < len; j++) {
        int t = i + j;
        if (t < len) {
          out[t] += x[i] * y[j];
        } else {
          out[t - len] -= x[i] * y[j];
        }
      }
    }
    return out;
  }
}
