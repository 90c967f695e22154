package org.jpir.core.lwe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import org.jpir.core.params.DigitForm;
import org.jpir.core.params.Gadget;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.params.Security;
import org.jpir.vmp.Pmat;
import org.junit.jupiter.api.Test;

class GlweOpsTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SecureRandom RANDOM = new SecureRandom();

  static long[] randomMessage(Prg prg, int limbs, int n) {
    long[] m = new long[limbs * n];
    prg.fillUniformDigits(m, 0, limbs * n, P.base2k());
    return m;
  }

  @Test
  void encryptionRoundTripsAndFreshNoiseMatchesEstimate() {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    GlweOps ops = new GlweOps(P);
    Prg prg = Prg.fromSecureRandom(RANDOM);
    int n = P.n();
    int samples = 40;
    double sum = 0;
    for (int t = 0; t < samples; t++) {
      long[] msg = randomMessage(prg, P.plaintextLimbs(), n);
      long[] full = new long[P.glweLimbs() * n];
      System.arraycopy(msg, 0, full, 0, msg.length);
      Glwe c = ops.encrypt(sk, full, prg, prg);
      long[] ph = new long[P.glweLimbs() * n];
      ops.phase(sk, c, ph);
      // the top plaintextLimbs limbs are exactly the message (noise is far below)
      long[] top = new long[msg.length];
      System.arraycopy(ph, 0, top, 0, top.length);
      long[] rounded = new long[msg.length];
      org.jpir.vmp.Znx.normalize(n, P.base2k(), ph, 0, P.glweLimbs(), rounded, 0,
          P.plaintextLimbs(), new long[n]);
      assertArrayEquals(msg, rounded, "message recovered, sample " + t);
      sum += NoiseSamples.variance(ops.noise(sk, c, full));
    }
    double measured = sum / samples;
    double est = Noise.fresh(P);
    assertTrue(measured <= est * NoiseSamples.tolerance(samples * n),
        "fresh noise variance " + measured + " above estimate " + est);
    assertTrue(measured >= est * 0.8, "fresh noise must really be there: " + measured);
  }

  @Test
  void externalProductMultipliesPhaseByBitAndKeepsNoiseBelowEstimate() {
    checkExternalProduct(P);
  }

  /** GGSW digits of 4 bits (the N = 2048 compact shape): the estimate still holds. */
  @Test
  void externalProductWithFourBitDigitsHasTheEstimatedNoise() {
    Params p = Presets.TEST_INSECURE_256_COMPACT_SCALED;
    assertEquals(4, p.ggswBits());
    double ratio = checkExternalProduct(p);
    // the input's rounding to 20 bits dominates here and reaches the result only when the GGSW
    // encrypts 1: averaged over mu = 0 and 1 the measurement is half the (mu = 1) estimate
    assertTrue(ratio >= 0.4, "the noise is really there: measured / estimate = " + ratio);
  }

  /** External products of fresh GGSWs of 0 and 1 at P; returns measured / estimated variance. */
  static double checkExternalProduct(Params P) {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    GlweOps ops = new GlweOps(P);
    Prg prg = Prg.fromSecureRandom(RANDOM);
    int n = P.n();
    int limbs = P.glweLimbs();
    double sum = 0;
    int count = 0;
    for (int mu = 0; mu <= 1; mu++) {
      for (int t = 0; t < 20; t++) {
        // a fresh GGSW per sample: samples sharing one GGSW share its noise realization
        PreparedGgsw g = ops.prepare(ops.encryptGgsw(sk, mu, prg, prg));
        long[] msg = new long[limbs * n];
        prg.fillUniformDigits(msg, 0, P.plaintextLimbs() * n, P.base2k());
        Glwe x = ops.encrypt(sk, msg, prg, prg);
        Glwe out = new Glwe(n, limbs);
        ops.externalProduct(x, g, out);
        long[] expect = mu == 1 ? msg : new long[limbs * n];
        double[] e = ops.noise(sk, out, expect);
        double[] e0 = ops.noise(sk, x, msg);
        // remove the input's own noise (carried when mu = 1) to isolate the product's
        for (int j = 0; j < n; j++) {
          e[j] -= mu * e0[j];
        }
        sum += NoiseSamples.variance(e);
        count++;
      }
    }
    double measured = sum / count;
    double est = Noise.externalProduct(P);
    System.out.printf(java.util.Locale.ROOT, "%s external product (%d digits of %d bits):"
        + " measured / estimate = %.3f%n", P.id(), P.ggswLevels(), P.ggswBits(), measured / est);
    assertTrue(measured <= est * NoiseSamples.tolerance(count * n),
        "external product noise " + measured + " above estimate " + est);
    assertTrue(Math.sqrt(measured) < Noise.margin(P) / 100, "noise far below the margin");
    return measured / est;
  }

  /**
   * With GGSWs prepared in wider digits ({@link DigitForm#ggswOf}: two 24-bit digits per part at
   * the N = 2048 server preset instead of three 16-bit limbs, one 32-bit digit in its CMux tree's
   * two limbs, one 48-bit digit at the N = 256 test shape) the external product's output equals {@code sum_r d_r row_r} computed in integers
   * modulo {@code 2^(K limbs)} (d_r the gadget digits of the input): exactly where the form's
   * products are exact, else within {@link DigitForm#productError}, which must then be nonzero.
   */
  @Test
  void externalProductInWideDigitsIsTheIntegerProductWithinItsBound() {
    for (Params params : new Params[] {Presets.ONIONPIR_2048_COMPACT,
        Presets.TEST_INSECURE_256_COMPACT_SCALED, Presets.ONIONPIR_2048_COMPACT.foldParams(),
        Presets.TEST_INSECURE_256_COMPACT_SCALED.foldParams()}) {
      DigitForm form = DigitForm.ggswOf(params);
      assertTrue(!form.isLimbsOf(params) && form.columns() < params.glweColumns(),
          params.id() + " GGSWs in " + form);
      double error = form.productError(params, 2 * params.ggswLevels(), params.ggswBits());
      long bound = (long) Math.floor(Math.scalb(error, params.base2k() * params.glweLimbs()));
      if (params.n() == 2048) { // the server's GGSWs exact, its CMux tree's rounded
        assertEquals(params.glweLimbs() == 2 ? new DigitForm(32, 1) : new DigitForm(24, 2), form);
        assertEquals(params.glweLimbs() == 2, bound > 0, params.id() + " bound " + bound);
      }
      int n = params.n();
      int limbs = params.glweLimbs();
      int lg = params.ggswLevels();
      int k = params.base2k();
      GlweOps ops = new GlweOps(params);
      Prg prg = Prg.fromSecureRandom(RANDOM);
      Ggsw g = ops.encryptGgsw(SecretKey.generate(params, RANDOM), 1, prg, prg);
      assertEquals(form.columns(), ops.prepare(g).matrix().ncols());
      Glwe x = new Glwe(n, limbs);
      prg.fillUniformDigits(x.data(), 0, x.data().length, k);
      Glwe out = new Glwe(n, limbs);
      ops.externalProduct(x, ops.prepare(g), out);
      long[] dg = new long[2 * lg * n];
      Gadget gadget = params.ggswGadget();
      long[] scratch = new long[gadget.scratchLength(n)];
      for (int kk = 0; kk < 2; kk++) {
        gadget.decompose(n, x.data(), x.offset(kk, 0), limbs, dg, kk * lg * n, new long[n],
            scratch);
      }
      for (int part = 0; part < 2; part++) {
        long[] ref = new long[n];
        for (int r = 0; r < 2 * lg; r++) {
          long[] v = value(g.row(r), part, k);
          for (int i = 0; i < n; i++) {
            long d = dg[r * n + i];
            for (int j = 0; j < n; j++) { // + d X^i v_j X^j, negacyclic
              int t = i + j;
              ref[t % n] += t < n ? d * v[j] : -d * v[j];
            }
          }
        }
        long[] got = value(out, part, k);
        int shift = 64 - k * limbs;
        long worst = 0;
        for (int j = 0; j < n; j++) {
          long diff = ((got[j] - ref[j]) << shift) >> shift; // signed, modulo 2^(K limbs)
          worst = Math.max(worst, Math.abs(diff));
          assertTrue(Math.abs(diff) <= bound, params.id() + " part " + part + " coef " + j
              + ": " + diff + " units from the integer product, bound " + bound);
        }
        System.out.printf(java.util.Locale.ROOT, "%s GGSW as %s: worst %d units from the integer"
            + " product (bound %d)%n", params.id(), form, worst, bound);
      }
    }
  }

  /** Part kk of c as integers {@code sum_l limb_l 2^(K (limbs-1-l))}, modulo 2^64. */
  private static long[] value(Glwe c, int kk, int base2k) {
    int n = c.n();
    long[] v = new long[n];
    for (int l = 0; l < c.limbs(); l++) {
      int off = c.offset(kk, l);
      for (int j = 0; j < n; j++) {
        v[j] = (v[j] << base2k) + c.data()[off + j];
      }
    }
    return v;
  }

  @Test
  void fusedCmuxIsBitwiseTheSubtractProductAndAddItStandsFor() {
    for (Params params : new Params[] {P, Presets.ONIONPIR_2048_COMPACT}) {
      SecretKey sk = SecretKey.generate(params, RANDOM);
      GlweOps ops = new GlweOps(params);
      Prg prg = Prg.fromSecureRandom(RANDOM);
      int n = params.n();
      int limbs = params.glweLimbs();
      for (int mu = 0; mu <= 1; mu++) {
        PreparedGgsw g = ops.prepare(ops.encryptGgsw(sk, mu, prg, prg));
        // normalized GLWEs of uniform limbs (any phase), as the fold's inputs are
        Glwe x0 = new Glwe(n, limbs);
        Glwe x1 = new Glwe(n, limbs);
        prg.fillUniformDigits(x0.data(), 0, x0.data().length, params.base2k());
        prg.fillUniformDigits(x1.data(), 0, x1.data().length, params.base2k());
        Glwe d = new Glwe(n, limbs);
        Glwe prod = new Glwe(n, limbs);
        Glwe expected = new Glwe(n, limbs);
        ops.sub(x1, x0, d);
        ops.externalProduct(d, g, prod);
        ops.add(x0, prod, expected);
        Glwe out = new Glwe(n, limbs);
        ops.cmux(g, x0, x1, out);
        assertArrayEquals(expected.data(), out.data(), params.id() + " mu=" + mu);
        Glwe a0 = x0.copy(); // out aliasing either input
        ops.cmux(g, a0, x1, a0);
        assertArrayEquals(expected.data(), a0.data(), params.id() + " out = x0");
        Glwe a1 = x1.copy();
        ops.cmux(g, x0, a1, a1);
        assertArrayEquals(expected.data(), a1.data(), params.id() + " out = x1");
      }
    }
  }

  @Test
  void cmuxSelectsTheInputNamedByTheBit() {
    SecretKey sk = SecretKey.generate(P, RANDOM);
    GlweOps ops = new GlweOps(P);
    Prg prg = Prg.fromSecureRandom(RANDOM);
    int n = P.n();
    int limbs = P.glweLimbs();
    long[] m0 = new long[limbs * n];
    long[] m1 = new long[limbs * n];
    prg.fillUniformDigits(m0, 0, P.plaintextLimbs() * n, P.base2k());
    prg.fillUniformDigits(m1, 0, P.plaintextLimbs() * n, P.base2k());
    Glwe x0 = ops.encrypt(sk, m0, prg, prg);
    Glwe x1 = ops.encrypt(sk, m1, prg, prg);
    for (int mu = 0; mu <= 1; mu++) {
      PreparedGgsw g = ops.prepare(ops.encryptGgsw(sk, mu, prg, prg));
      Glwe out = new Glwe(n, limbs);
      ops.cmux(g, x0, x1, out);
      double[] e = ops.noise(sk, out, mu == 1 ? m1 : m0);
      double max = 0;
      for (double v : e) {
        max = Math.max(max, Math.abs(v));
      }
      assertTrue(max < Noise.margin(P), "cmux(" + mu + ") noise " + max);
      double[] wrong = ops.noise(sk, out, mu == 1 ? m0 : m1);
      double maxWrong = 0;
      for (double v : wrong) {
        maxWrong = Math.max(maxWrong, Math.abs(v));
      }
      assertTrue(maxWrong > 1e-3, "the other input is not selected");
    }
  }

  @Test
  void securityRuleHoldsForEveryProductionPresetAndFailsForInsecureOnes() {
    for (Params p : Presets.all()) {
      if (p.secure()) {
        Security.check(p);
        assertTrue(Security.meets128(p), p.id());
      } else {
        assertTrue(p.id().contains("insecure"), p.id());
        assertTrue(!Security.meets128(p), p.id() + " would not need 'insecure' in its name");
      }
    }
    assertEquals(109, Security.maxLogQ128(4096));
  }
}
