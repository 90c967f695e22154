package org.jpir.core.lwe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Arrays;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.vmp.Znx;
import org.junit.jupiter.api.Test;

class SeededGlweTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SecureRandom RANDOM = new SecureRandom();

  /** A message whose top plaintextLimbs limbs are random digits (the rest zero). */
  static long[] message(Prg prg) {
    long[] m = new long[P.glweLimbs() * P.n()];
    prg.fillUniformDigits(m, 0, P.plaintextLimbs() * P.n(), P.base2k());
    return m;
  }

  /** The GLWE of (b part of body[off..], mask of (seed, stream)), derived directly with Prg. */
  static Glwe direct(short[] body, int off, byte[] seed, long stream) {
    int per = P.glweLimbs() * P.n();
    long[] d = new long[2 * per];
    for (int t = 0; t < per; t++) {
      d[t] = body[off + t];
    }
    new Prg(seed, stream).fillUniformDigits(d, per, per, P.base2k());
    return new Glwe(P.n(), P.glweLimbs(), d);
  }

  @Test
  void seededEncryptionExpandsToTheCiphertextAndDecrypts() {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    GlweOps ops = new GlweOps(P);
    int n = P.n();
    byte[] seed = Prg.newSeed(RANDOM);
    byte[] noiseSeed = Prg.newSeed(RANDOM);
    for (long stream : new long[] {0, 7, (1L << 32) + 3}) {
      long[] msg = message(Prg.fromSecureRandom(RANDOM));
      SeededGlwe s = ops.encryptSeeded(sk, msg, seed, stream, new Prg(noiseSeed, stream));
      assertEquals(stream, s.stream());
      assertEquals(P.glweLimbs() * n, s.body().length);
      Glwe c = s.expand();
      // bit for bit the unseeded encryption with the same mask and noise streams
      assertEquals(ops.encrypt(sk, msg, new Prg(seed, stream), new Prg(noiseSeed, stream)), c);
      // and the direct re-derivation the expanders did inline before
      assertEquals(direct(s.body(), 0, seed, stream), c);
      assertEquals(c, s.expand(), "expansion is deterministic");
      long[] ph = new long[P.glweLimbs() * n];
      ops.phase(sk, c, ph);
      long[] rounded = new long[P.plaintextLimbs() * n];
      Znx.normalize(n, P.base2k(), ph, 0, P.glweLimbs(), rounded, 0, P.plaintextLimbs(),
          new long[n]);
      assertArrayEquals(Arrays.copyOf(msg, rounded.length), rounded, "stream " + stream);
    }
  }

  @Test
  void roundedBodyIsTheRoundedBOfTheCiphertext() {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    GlweOps ops = new GlweOps(P);
    int per = P.glweLimbs() * P.n();
    byte[] seed = Prg.newSeed(RANDOM);
    byte[] noiseSeed = Prg.newSeed(RANDOM);
    long[] msg = message(Prg.fromSecureRandom(RANDOM));
    int bits = 37;
    SeededGlwe s = ops.encryptSeeded(sk, msg, seed, 2, new Prg(noiseSeed, 0), bits);
    Glwe c = ops.encrypt(sk, msg, new Prg(seed, 2), new Prg(noiseSeed, 0));
    BPacking.round(c.data(), 0, P.n(), P.glweLimbs(), P.base2k(), bits);
    short[] expect = new short[per];
    Digits.toShorts(c.data(), 0, expect, 0, per);
    assertArrayEquals(expect, s.body());
    assertEquals(c, s.expand(), "rounded b with the full-precision mask");
    assertThrows(IllegalArgumentException.class,
        () -> ops.encryptSeeded(sk, msg, seed, 2, new Prg(noiseSeed, 0), 0));
  }

  @Test
  void aViewExpandsItsOwnSliceOfALargerBody() {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    GlweOps ops = new GlweOps(P);
    int per = P.glweLimbs() * P.n();
    byte[] seed = Prg.newSeed(RANDOM);
    Prg noise = Prg.fromSecureRandom(RANDOM);
    short[] all = new short[3 * per];
    SeededGlwe[] made = new SeededGlwe[3];
    for (int i = 0; i < 3; i++) {
      made[i] = ops.encryptSeeded(sk, message(noise), seed, 10 + i, noise);
      made[i].copyBodyTo(all, i * per);
    }
    for (int i = 0; i < 3; i++) {
      SeededGlwe v = new SeededGlwe(P, seed, 10 + i, all, i * per);
      assertEquals(i * per, v.offset());
      assertEquals(made[i].expand(), v.expand());
      assertEquals(direct(all, i * per, seed, 10 + i), v.expand());
    }
    assertNotEquals(made[0].expand(), new SeededGlwe(P, seed, 11, all, 0).expand(),
        "another stream gives another mask");
  }

  @Test
  void seededGgswExpandsToTheGgswOfTheSameStreams() {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    GlweOps ops = new GlweOps(P);
    int per = P.glweLimbs() * P.n();
    byte[] seed = Prg.newSeed(RANDOM);
    byte[] noiseSeed = Prg.newSeed(RANDOM);
    for (int mu = 0; mu < 2; mu++) {
      SeededGgsw s = ops.encryptSeededGgsw(sk, mu, seed, q -> 100 + q, new Prg(noiseSeed, mu));
      Ggsw g = ops.encryptGgsw(sk, mu, q -> new Prg(seed, 100 + q), new Prg(noiseSeed, mu));
      assertEquals(2 * P.ggswLevels(), s.rowCount());
      assertEquals(P.ggswLevels(), s.levels());
      Ggsw e = s.expand();
      short[] bodies = new short[s.rowCount() * per];
      s.copyBodiesTo(bodies, 0);
      SeededGgsw view = SeededGgsw.of(P, seed, q -> 100 + q, bodies, 0);
      for (int r = 0; r < g.rowCount(); r++) {
        assertEquals(g.row(r), e.row(r), "mu " + mu + ", row " + r);
        assertEquals(100 + r, s.row(r).stream());
        assertEquals(g.row(r), view.row(r).expand(), "view, row " + r);
      }
      // the GGSW of the polynomial mu, b rounded to every bit it has, is the same GGSW
      long[] m = new long[P.n()];
      m[0] = mu;
      SeededGgsw poly = ops.encryptSeededGgsw(sk, m, seed, q -> 100 + q, new Prg(noiseSeed, mu),
          P.base2k() * P.glweLimbs());
      for (int r = 0; r < g.rowCount(); r++) {
        assertArrayEquals(s.row(r).body(), poly.row(r).body(), "polynomial mu, row " + r);
      }
    }
    assertThrows(IllegalArgumentException.class,
        () -> ops.encryptSeededGgsw(sk, 2, seed, q -> q, Prg.fromSecureRandom(RANDOM)));
  }

  @Test
  void wrongSeedOrSizeIsRefused() {
    int per = P.glweLimbs() * P.n();
    byte[] seed = Prg.newSeed(RANDOM);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SeededGlwe(P, new byte[16], 0, new short[per], 0));
    assertTrue(e.getMessage().contains("32 bytes, got 16"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new SeededGlwe(P, null, 0, new short[per], 0));
    assertTrue(e.getMessage().contains("got null"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new SeededGlwe(P, seed, 0, new short[per - 1], 0));
    assertTrue(e.getMessage().contains("does not fit a body of " + (per - 1)), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new SeededGlwe(P, seed, 0, new short[2 * per], per + 1));
    assertTrue(e.getMessage().contains("at offset " + (per + 1)), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new SeededGlwe(P, seed, 0, new short[per], -1));
    assertThrows(IllegalArgumentException.class,
        () -> new SeededGlwe(P, seed, 0, null, 0));
    SecretKey sk = SecretKey.generate(P, RANDOM);
    e = assertThrows(IllegalArgumentException.class, () -> new GlweOps(P).encryptSeeded(sk,
        null, new byte[31], 0, Prg.fromSecureRandom(RANDOM)));
    assertTrue(e.getMessage().contains("seed must be 32 bytes"), e.getMessage());
    // a GGSW's rows: an even number, none null, one shape
    SeededGlwe row = new SeededGlwe(P, seed, 0, new short[per], 0);
    assertThrows(IllegalArgumentException.class, () -> new SeededGgsw(new SeededGlwe[] {row}));
    assertThrows(IllegalArgumentException.class, () -> new SeededGgsw(new SeededGlwe[0]));
    assertThrows(IllegalArgumentException.class,
        () -> new SeededGgsw(new SeededGlwe[] {row, null}));
    Params other = Presets.TEST_INSECURE_1024;
    SeededGlwe big = new SeededGlwe(other, seed, 0, new short[other.glweLimbs() * other.n()], 0);
    e = assertThrows(IllegalArgumentException.class,
        () -> new SeededGgsw(new SeededGlwe[] {row, big}));
    assertTrue(e.getMessage().contains("N = 1024"), e.getMessage());
    short[] shortBodies = new short[2 * P.ggswLevels() * per - 1];
    assertThrows(IllegalArgumentException.class,
        () -> SeededGgsw.of(P, seed, q -> q, shortBodies, 0));
  }
}
