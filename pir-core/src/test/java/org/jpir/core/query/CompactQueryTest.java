package org.jpir.core.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import org.jpir.core.client.CompactClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.NoiseSamples;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.params.Security;
import org.jpir.core.server.ColumnEncoder;
import org.jpir.core.server.ExtremeRecords;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.EvaluationKeys;
import org.jpir.core.wire.Sizes;
import org.jpir.core.wire.Wire;
import org.jpir.vmp.Znx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactQueryTest {
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;
  static final SecureRandom RANDOM = new SecureRandom();

  static double variance(double[] e) {
    return NoiseSamples.variance(e);
  }

  /** Allowed excess of a measured variance over its estimate: 5 standard errors. */
  static double tolerance(int samples) {
    return NoiseSamples.tolerance(samples);
  }

  static Geometry smallGeometry() {
    Params p = CP.server();
    // 1280 bytes per polynomial, 12 records of 100 bytes each; 16 rows x 5 columns
    return Geometry.of(p, 12 * 16 * 5 - 7, 100, 16);
  }

  /** A geometry whose expansion needs every automorphism key (85 rows: 255 phase-1 slots). */
  static Geometry fullDepthGeometry() {
    return Geometry.of(CP.server(), 12 * 85, 100, 85);
  }

  /** The secret of each client these tests made: a client does not hand its own out. */
  private static final Map<CompactClient, SecretKey> SECRETS =
      Collections.synchronizedMap(new IdentityHashMap<>());

  static CompactClient client(Geometry g, String id) {
    return client(CP, g, id);
  }

  /** A client with a fresh secret, which {@link #secret} gives back. */
  static CompactClient client(CompactParams cp, Geometry g, String id) {
    SecretKey sk = CompactClient.generateSecret(cp, RANDOM);
    CompactClient c = new CompactClient(cp, g, sk, id, RANDOM);
    SECRETS.put(c, sk);
    return c;
  }

  /** The secret key of a client made by {@link #client} (tests measure noise with it). */
  static SecretKey secret(CompactClient c) {
    return SECRETS.get(c);
  }

  @Test
  void keySwitchedAutomorphismHasTheAutomorphismOfThePhase() {
    // the keys' b is rounded (test preset: the rounding is most of the estimate)
    assertTrue(CP.keyBits() < CP.keys().logQ(), "keys are rounded");
    double est = Noise.fresh(CP.keys()) + Noise.keySwitch(CP);
    assertTrue(Noise.keySwitch(CP.withRounding(CP.queryBits(), CP.keys().logQ())) < est / 4,
        "the key rounding dominates the key-switch noise at N = 256");
    checkKeySwitch(CP, fullDepthGeometry());
  }

  /**
   * Every automorphism key of a client of cp (its geometry g needs them all) switches a random
   * GLWE to the automorphism of its phase, with noise within the estimate and really there.
   */
  static void checkKeySwitch(CompactParams cp, Geometry g) {
    checkKeySwitch(cp, g, true);
  }

  /**
   * {@link #checkKeySwitch(CompactParams, Geometry)} with every key the client of g uploads,
   * which must be all of cp's automorphisms when {@code allKeys}.
   */
  static void checkKeySwitch(CompactParams cp, Geometry g, boolean allKeys) {
    Params kp = cp.keys();
    int n = kp.n();
    CompactClient c = client(cp, g, "alice");
    int autos = c.evaluationKeys().automorphisms(cp);
    assertTrue(autos >= 1 && autos <= cp.automorphisms());
    if (allKeys) {
      assertEquals(cp.automorphisms(), autos);
    }
    PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(cp, c.evaluationKeys());
    GlweOps ops = new GlweOps(kp);
    CompactExpander ex = new CompactExpander(cp);
    Prg prg = Prg.fromSecureRandom(RANDOM);
    double bound = 16 * Math.sqrt(Noise.fresh(kp) + Noise.keySwitch(cp));
    double sum = 0;
    int count = 0;
    for (int j = 0; j < autos; j++) {
      int p = n / (1 << j) + 1;
      long[] msg = new long[kp.glweLimbs() * n];
      prg.fillUniformDigits(msg, 0, 3 * n, kp.base2k());
      Glwe x = ops.encrypt(secret(c), msg, prg, prg);
      Glwe out = new Glwe(n, kp.glweLimbs());
      ex.automorphism(x, p, keys.ksk()[j], out);
      long[] autMsg = new long[msg.length];
      for (int i = 0; i < kp.glweLimbs(); i++) {
        Znx.automorphism(n, p, msg, i * n, autMsg, i * n);
      }
      double[] e = ops.noise(secret(c), out, autMsg);
      for (double v : e) {
        // 16 estimated standard deviations: far below any wrong phase
        assertTrue(Math.abs(v) < bound, "switched phase is Aut_p(phase) (p=" + p + "): " + v);
      }
      sum += variance(e);
      count++;
    }
    double measured = sum / count;
    double est = Noise.fresh(kp) + Noise.keySwitch(cp);
    System.out.printf(java.util.Locale.ROOT, "%s key switch (%d digits of %d bits, key b at %d"
        + " bits, prepared as %s): measured std 2^%.2f, estimate 2^%.2f%n", cp.id(),
        cp.ksLevels(), cp.ksBits(), cp.keyBits(), cp.ksForm(), Math.log(measured) / Math.log(4),
        Math.log(est) / Math.log(4));
    assertTrue(measured <= est * tolerance(count * n),
        "key-switch noise " + measured + " above estimate " + est);
    assertTrue(measured >= 0.5 * est, "key-switch noise must really be there: " + measured
        + " vs " + est);
  }

  /**
   * The external product with the GGSW of s built from rounded key rows multiplies the phase by
   * s with the noise of {@link Noise#ggswConversion}, from both sides; at N = 256 and 5 levels
   * the rounding of the input to 5 digits times s^2 is most of it (with {@code E[(s^2)_k^2] =
   * 4N/9} the estimate was 0.67 bits below the measurement; 8N/9 is right).
   */
  @Test
  void ggswOfSFromRoundedKeysHasTheEstimatedNoise() {
    checkGgswOfS(CP, smallGeometry());
  }

  /** The product with 12 clients' GGSW(s) of cp multiplies a phase by s with the estimated noise. */
  static void checkGgswOfS(CompactParams cp, Geometry g) {
    Params kp = cp.keys();
    int n = kp.n();
    int limbs = kp.glweLimbs();
    GlweOps ops = new GlweOps(kp);
    Prg prg = Prg.fromSecureRandom(RANDOM);
    double bound = 16 * Math.sqrt(Noise.ggswConversion(cp, Noise.fresh(kp)));
    double sum = 0;
    int count = 0;
    // one product per client: the noise of one client's product depends on its own s (through
    // s^2) and key errors, whose realizations spread a single client's variance by about
    // +-50% around the estimate; 12 clients average that out
    int clients = 12;
    for (int t = 0; t < clients; t++) {
      CompactClient c = client(cp, g, "gina" + t);
      PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(cp,
          Wire.readEvaluationKeys(Wire.writeEvaluationKeys(c.evaluationKeys()), cp));
      long[] s = secret(c).coefficients();
      long[] msg = new long[limbs * n];
      prg.fillUniformDigits(msg, 0, 3 * n, kp.base2k());
      Glwe x = ops.encrypt(secret(c), msg, prg, prg);
      Glwe out = new Glwe(n, limbs);
      ops.externalProduct(x, keys.ggswS(), out);
      long[] expect = new long[limbs * n];
      for (int i = 0; i < 3; i++) {
        for (int a = 0; a < n; a++) {
          for (int b = 0; b < n; b++) {
            long v = msg[i * n + a] * s[b];
            if (a + b < n) {
              expect[i * n + a + b] += v;
            } else {
              expect[i * n + a + b - n] -= v;
            }
          }
        }
      }
      double[] e = ops.noise(secret(c), out, expect);
      for (double v : e) {
        assertTrue(Math.abs(v) < bound, "phase is s times the message: " + v);
        sum += v * v;
        count++;
      }
    }
    double measured = sum / count;
    double est = Noise.ggswConversion(cp, Noise.fresh(kp));
    double unrounded = Noise.ggswConversion(cp.withRounding(cp.queryBits(), kp.logQ()),
        Noise.fresh(kp));
    System.out.printf(java.util.Locale.ROOT, "%s GGSW(s) product (%d digits of %d bits), key b"
        + " at %d bits: measured std 2^%.2f, estimate 2^%.2f (unrounded keys 2^%.2f)%n", cp.id(),
        kp.ggswLevels(), kp.ggswBits(), cp.keyBits(), Math.log(measured) / Math.log(4),
        Math.log(est) / Math.log(4), Math.log(unrounded) / Math.log(4));
    // the spread of the mean over 12 clients' realizations (about +-15%), not the coefficient
    // count, sets the tolerance
    double tol = Math.max(tolerance(count), 1.3);
    assertTrue(measured <= est * tol, measured + " above " + est + " (x " + tol + ")");
    assertTrue(measured >= est * (2 - tol) * 0.8, measured + " far below " + est);
  }

  @Test
  void expansionRecoversEverySlotWithNoiseAtOrBelowEstimate() {
    Params kp = CP.keys();
    int n = kp.n();
    int k = kp.base2k();
    CompactClient c = client(fullDepthGeometry(), "bob");
    PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(CP, c.evaluationKeys());
    GlweOps ops = new GlweOps(kp);
    CompactExpander ex = new CompactExpander(CP);
    Prg prg = Prg.fromSecureRandom(RANDOM);
    for (int slots : new int[] {n, 48, 37}) {
      int l = CompactParams.depth(slots);
      // slot i holds a random 32-bit value v_i at limbs 0..1, pre-scaled by 2^-l
      long[][] values = new long[slots][2];
      long[] msg = new long[kp.glweLimbs() * n];
      for (int i = 0; i < slots; i++) {
        long[] v = new long[2];
        prg.fillUniformDigits(v, 0, 2, k);
        values[i] = v;
        // v0 2^-K + v1 2^-2K, times 2^-l: digits v0 2^(K-l) at limb 1, v1 2^(K-l) at limb 2
        msg[n + i] = v[0] << (k - l);
        msg[2 * n + i] = v[1] << (k - l);
      }
      Glwe packed = ops.encrypt(secret(c), msg, prg, prg);
      CompactExpander.Timings t = new CompactExpander.Timings();
      double[] sum = {0, 0};
      boolean[] seen = new boolean[slots];
      ex.expand(packed, slots, keys.ksk(), (slot, g) -> {
        assertTrue(!seen[slot], "slot " + slot + " once");
        seen[slot] = true;
        long[] expect = new long[kp.glweLimbs() * n];
        expect[0] = values[slot][0];
        expect[n] = values[slot][1];
        Glwe gn = g.copy();
        Znx.normalize(n, k, gn.data(), 0, kp.glweLimbs(), gn.data(), 0, kp.glweLimbs(),
            new long[n]);
        Znx.normalize(n, k, gn.data(), kp.glweLimbs() * n, kp.glweLimbs(), gn.data(),
            kp.glweLimbs() * n, kp.glweLimbs(), new long[n]);
        double[] e = ops.noise(secret(c), gn, expect);
        for (double v : e) {
          assertTrue(Math.abs(v) < Math.pow(2, -40), "slot " + slot + " noise " + v);
        }
        sum[0] += variance(e);
        sum[1] += e[0] * e[0];
      }, t);
      for (int i = 0; i < slots; i++) {
        assertTrue(seen[i], "slot " + i + " expanded");
      }
      assertEquals(slots - 1, t.keySwitches, "a packed ciphertext of S slots costs S-1 switches");
      // the packed ciphertext here is a fresh encryption, its b not rounded
      double est = Noise.expansion(CP.withRounding(CP.keys().logQ(), CP.keyBits()), slots);
      double all = sum[0] / slots;
      double constant = sum[1] / slots;
      System.out.printf(java.util.Locale.ROOT, "expansion of %d slots: measured std 2^%.2f (all"
          + " coefficients), 2^%.2f (constant terms), estimate 2^%.2f%n", slots,
          Math.log(all) / Math.log(4), Math.log(constant) / Math.log(4),
          Math.log(est) / Math.log(4));
      assertTrue(all <= est * tolerance(slots * n), slots + " slots: expansion noise " + all
          + " above estimate " + est);
      if (slots >= 32) {
        assertTrue(constant <= est * tolerance(slots), slots + " slots: constant-term noise "
            + constant + " above estimate " + est);
      }
      assertTrue(constant >= 0.05 * est, "expansion noise must really be there: " + constant
          + " vs " + est);
    }
  }

  /**
   * Expands the phase-1 part of a client's query (through the wire) and returns the mean square
   * noise of the constant terms of every slot against their expected messages (slot {@code r *
   * plaintextLimbs + l}: {@code [r == target row] 2^(-K(l+1))}).
   */
  static double expandedQueryNoise(CompactParams cp, Geometry g, long index) {
    Params kp = cp.keys();
    int n = kp.n();
    int lim = cp.server().plaintextLimbs();
    CompactClient c = client(cp, g, "rnd");
    PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(cp,
        Wire.readEvaluationKeys(Wire.writeEvaluationKeys(c.evaluationKeys(), cp), cp));
    CompactQuery q = Wire.readCompactQuery(Wire.writeCompactQuery(c.query(index), cp), cp, g);
    Glwe packed = q.phase1(cp).expand();
    GlweOps ops = new GlweOps(kp);
    int slots = cp.phase1Slots(g.rows());
    double[] sum = {0};
    new CompactExpander(cp).expand(packed, slots, keys.ksk(), (slot, e) -> {
      long[] expect = new long[kp.glweLimbs() * n];
      if (slot / lim == g.rowOf(index)) {
        expect[(slot % lim) * n] = 1;
      }
      Glwe gn = e.copy();
      Znx.normalize(n, kp.base2k(), gn.data(), 0, kp.glweLimbs(), gn.data(), 0, kp.glweLimbs(),
          new long[n]);
      Znx.normalize(n, kp.base2k(), gn.data(), kp.glweLimbs() * n, kp.glweLimbs(), gn.data(),
          kp.glweLimbs() * n, kp.glweLimbs(), new long[n]);
      double v = ops.noise(secret(c), gn, expect)[0];
      sum[0] += v * v;
    }, null);
    return sum[0] / slots;
  }

  /**
   * The rounding of the query's b grows through expansion exactly as fresh noise does (4^l): at
   * the test preset's derived bits it dominates the expansion noise (N = 256: small key-switch
   * noise), and the measured constant-term noise of a real query (through the wire) matches
   * {@link Noise#expansion} from both sides.
   */
  @Test
  void roundedQueryNoiseAfterExpansionIsWithinTheEstimate() {
    Geometry g = fullDepthGeometry();
    int slots = CP.phase1Slots(g.rows());
    assertTrue(CP.queryBits() < CP.keys().logQ(), "the test preset's query is rounded");
    // keys unrounded here, so that the query's rounding dominates the expansion noise
    for (CompactParams cp : new CompactParams[] {CP.withRounding(CP.queryBits(),
        CP.keys().logQ()), CP}) {
      double est = Noise.expansion(cp, slots);
      boolean dominates = Noise.bRounding(cp.queryBits(), cp.keys().logQ())
          * Math.pow(4, CompactParams.depth(slots)) > 0.99 * est;
      assertTrue(dominates || cp == CP, "rounding dominates");
      double measured = expandedQueryNoise(cp, g, 12 * 40 + 5);
      System.out.printf(java.util.Locale.ROOT, "query b at %d bits, key b at %d bits, %d slots:"
          + " constant-term noise std 2^%.2f, estimate 2^%.2f%n", cp.queryBits(), cp.keyBits(),
          slots, Math.log(measured) / Math.log(4), Math.log(est) / Math.log(4));
      assertTrue(measured <= est * tolerance(slots), "noise " + measured + " above " + est);
      if (dominates) {
        assertTrue(measured >= est * (2 - tolerance(slots)), "the constant terms are 2^l times"
            + " a rounding error each: " + measured + " vs " + est);
      }
    }
  }

  /**
   * Packed layout: one GLWE holds both phases where the noise allows; its slots are distinct;
   * at the production preset the 1 GiB / 3 KiB geometry packs, deeper or wider ones do not.
   */
  @Test
  void sharedSlotsAreChosenOnlyWhenAsked() {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    long count = (1L << 30) / 3072;
    Geometry plain = cp.chooseGeometryWithReason(count, 3072).geometry();
    Geometry shared = cp.chooseGeometryWithReason(count, 3072, true).geometry();
    assertEquals(2, plain.planes(), "3 KiB in 2 KiB planes: two planes, one record per slot");
    assertEquals(1, plain.recordsPerPoly());
    assertEquals(3, shared.planes(), "two 3 KiB records in three 2 KiB planes");
    assertEquals(2, shared.recordsPerPoly());
    assertTrue(shared.polynomials() * shared.planes() < plain.polynomials() * plain.planes(),
        "sharing stores fewer polynomials: " + shared + " against " + plain);
    assertTrue(shared.rows() * (long) shared.cols() * shared.recordsPerPoly() >= count);
    assertEquals(plain, cp.chooseGeometryWithReason(count, 3072, false).geometry());
  }

  @Test
  void packedLayoutIsAPerGeometryChoiceByTheNoiseBudget() {
    CompactParams cp = CompactParams.ONIONPIR_4096_COMPACT;
    Geometry gib = cp.chooseGeometry((1L << 30) / 3072, 3072);
    assertEquals(99, gib.rows());
    CompactParams.Layout l = cp.layout(gib.rows(), gib.cols());
    assertTrue(l.packed(), "1 GiB / 3 KiB packs");
    assertEquals(9, l.phase1Depth());
    assertEquals(0, cp.phase2Glwes(gib.rows(), gib.cols()));
    double lf = Noise.log2FailureProbability(cp.server(),
        Noise.compactAnswer(cp, gib.rows(), gib.cols()));
    assertTrue(lf <= CompactParams.MAX_LOG2_FAILURE, "packed budget closes: 2^" + lf);
    // one level deeper (160 rows: 480 + 64 slots > 512) or 12 CMux levels: unpacked
    assertTrue(!cp.layout(160, 1200).packed());
    assertTrue(!cp.layout(99, 4096).packed());
    assertTrue(!cp.layout(cp.maxRows(), 2).packed(), "not at the largest geometry");
    assertTrue(!cp.layout(20, 1).packed(), "one column: no phase 2");
    for (int[] g : new int[][] {{99, 589}, {16, 5}, {128, 1024}}) {
      CompactParams.Layout x = cp.layout(g[0], g[1]);
      assertTrue(x.packed());
      java.util.BitSet used = new java.util.BitSet();
      for (int i = 0; i < cp.phase1Slots(g[0]); i++) {
        int s = x.phase1Slot(i);
        assertTrue(s < 1 << x.phase1Depth() && !used.get(s) && x.phase1Index(s) == i);
        used.set(s);
      }
      for (int t = 0; t < cp.phase2Slots(g[1]); t++) {
        int s = x.phase2Slot(t);
        assertTrue(s < 1 << x.phase1Depth() && !used.get(s) && x.phase2Index(s) == t);
        used.set(s);
      }
    }
  }

  /**
   * A packed query at the production preset, depth 9 (128 rows x 1024 columns: 384 + 40 slots,
   * the deepest packed layout): every slot's constant term after expansion has the noise of
   * {@link Noise#expansionAtDepth}, from both sides.
   */
  @Test
  void packedQueryExpansionAtDepthNineHasTheEstimatedNoise() {
    CompactParams cp = CompactParams.ONIONPIR_4096_COMPACT;
    Params kp = cp.keys();
    int n = kp.n();
    int rows = 128;
    int cols = 1024;
    Geometry g = Geometry.of(cp.server(), (long) rows * cols, cp.server().bytesPerPolynomial(),
        rows);
    CompactParams.Layout layout = cp.layout(rows, cols);
    assertTrue(layout.packed());
    assertEquals(9, layout.phase1Depth());
    long index = 77L * rows + 41;
    int row = g.rowOf(index);
    int col = g.columnOf(index);
    assertTrue(col > 0 && col < cols - 1 && row > 0, "a column with some bits set");
    CompactClient c = client(cp, g, "pk");
    PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(cp,
        Wire.readEvaluationKeys(Wire.writeEvaluationKeys(c.evaluationKeys()), cp));
    CompactQuery q = Wire.readCompactQuery(Wire.writeCompactQuery(c.query(index)), cp, g);
    assertEquals(0, q.phase2B().length);
    Glwe packed = q.phase1(cp).expand();
    int p1 = cp.phase1Slots(rows);
    int p2 = cp.phase2Slots(cols);
    int lim = cp.server().plaintextLimbs();
    int lg = cp.server().ggswLevels();
    GlweOps ops = new GlweOps(kp);
    double[] sum = {0};
    int[] seen = {0};
    java.util.function.IntPredicate used = s -> {
      int i2 = layout.phase2Index(s);
      int i1 = layout.phase1Index(s);
      return i2 >= 0 ? i2 < p2 : i1 < p1;
    };
    CompactExpander.Timings t = new CompactExpander.Timings();
    new CompactExpander(cp).expand(packed, layout.phase1Depth(), used, used, keys.ksk(),
        (slot, e) -> {
          long[] expect = new long[kp.glweLimbs() * n];
          int i2 = layout.phase2Index(slot);
          if (i2 >= 0) {
            if ((col >> (i2 / lg) & 1) == 1) {
              expect[(i2 % lg) * n] = 1;
            }
          } else {
            int i1 = layout.phase1Index(slot);
            if (i1 / lim == row) {
              expect[(i1 % lim) * n] = 1;
            }
          }
          Glwe gn = e.copy();
          Znx.normalize(n, kp.base2k(), gn.data(), 0, kp.glweLimbs(), gn.data(), 0,
              kp.glweLimbs(), new long[n]);
          Znx.normalize(n, kp.base2k(), gn.data(), kp.glweLimbs() * n, kp.glweLimbs(),
              gn.data(), kp.glweLimbs() * n, kp.glweLimbs(), new long[n]);
          double v = ops.noise(secret(c), gn, expect)[0];
          assertTrue(Math.abs(v) < Math.pow(2, -60), "slot " + slot + ": " + v);
          sum[0] += v * v;
          seen[0]++;
        }, t);
    assertEquals(p1 + p2, seen[0]);
    double measured = sum[0] / seen[0];
    double est = Noise.expansionAtDepth(cp, 9);
    System.out.printf(java.util.Locale.ROOT, "packed query %dx%d (%d + %d slots, depth 9, %d key"
        + " switches): constant-term noise std 2^%.2f, estimate 2^%.2f%n", rows, cols, p1, p2,
        t.keySwitches, Math.log(measured) / Math.log(4), Math.log(est) / Math.log(4));
    assertTrue(measured <= est * tolerance(seen[0]), measured + " above " + est);
    assertTrue(measured >= est * (2 - tolerance(seen[0])), measured + " below " + est);
  }

  /**
   * The phases of a packed query expanded apart (the driver expands phase 2 only) equal the
   * combined expansion bit for bit; phase 2 alone costs at most {@code L - d2 + 2^d2 - 1} key
   * switches.
   */
  @Test
  void packedPhasesExpandedApartEqualTheCombinedExpansion() {
    Geometry g = smallGeometry();
    CompactParams.Layout layout = CP.layout(g.rows(), g.cols());
    assertTrue(layout.packed(), "the small geometry packs");
    CompactClient c = client(g, "split");
    PreparedEvaluationKeys keys = PreparedEvaluationKeys.prepare(CP, c.evaluationKeys());
    CompactQuery q = c.query(70);
    CompactExpander ex = new CompactExpander(CP);
    PreparedQuery all = ex.expand(q, keys, null);
    CompactExpander.Timings t1 = new CompactExpander.Timings();
    org.jpir.vmp.Pmat p1 = ex.expandPhase1(q, keys, t1);
    CompactExpander.Timings t2 = new CompactExpander.Timings();
    PreparedGgsw[] p2 = ex.expandPhase2(q, keys, t2, -1L);
    assertArrayEquals(all.phase1().toArray(), p1.toArray());
    assertEquals(all.ggsw().length, p2.length);
    for (int b = 0; b < p2.length; b++) {
      assertArrayEquals(all.ggsw()[b].matrix().toArray(), p2[b].matrix().toArray(), "GGSW " + b);
    }
    int d2 = CompactParams.depth(CP.phase2Slots(g.cols()));
    assertTrue(t2.keySwitches <= layout.phase2Depth() - d2 + (1 << d2) - 1,
        "phase 2 alone: " + t2.keySwitches + " key switches");
    assertEquals(CP.phase2Slots(g.cols()), t2.externalProducts);
  }

  /** Queries each index through the wire, answers, checks the bytes and the noise estimate. */
  static void roundTrip(CompactParams cp, Geometry g, SyntheticRecords src, long... indices) {
    Params p = cp.server();
    CompactClient client = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM),
        "carol", RANDOM);
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register(client.clientId(), Wire.writeEvaluationKeys(client.evaluationKeys()));
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    PirServer server = new PirServer(p);
    CompactExpander ex = new CompactExpander(cp);
    ColumnEncoder enc = new ColumnEncoder(p, g, src);
    double estimate = Math.sqrt(Noise.compactAnswer(cp, g.rows(), g.cols()));
    for (long i : indices) {
      byte[] qBytes = Wire.writeCompactQuery(client.query(i));
      PreparedQuery pq = ex.expand(Wire.readCompactQuery(qBytes, cp), g, store, null);
      Answer a = Wire.readAnswer(Wire.writeAnswer(server.answer(db, pq, null)), p);
      assertArrayEquals(src.record(i), client.decode(a, i), "record " + i + " of " + g);
      if (g.planes() == 1) {
        long[] digits = new long[p.plaintextLimbs() * p.n()];
        System.arraycopy(enc.digits(0, g.columnOf(i)), g.rowOf(i) * digits.length, digits, 0,
            digits.length);
        double max = client.measureNoise(a, new long[][] {digits});
        System.out.printf(java.util.Locale.ROOT, "%s %dx%d: answer noise max 2^%.2f, estimate"
            + " std 2^%.2f%n", cp.id(), g.rows(), g.cols(), Math.log(max) / Math.log(2),
            Math.log(estimate) / Math.log(2));
        // P(|z| > 6) = 2e-9 per coefficient (4.5 sigma, 7e-6, was hit about once per 10 runs)
        assertTrue(max <= 6 * estimate, "noise " + max + " above 6 x estimate " + estimate);
      }
    }
  }

  @Test
  void pairedTailsDecodeEveryRecordAtBothEncodings() {
    for (CompactParams cp : new CompactParams[] {CP, CompactParams.TEST_INSECURE_256_COMPACT_SCALED}) {
      Params p = cp.server();
      int pb = p.bytesPerPolynomial();
      int size = pb + pb / 2 - 3;
      // 5 rows x 3 columns (the last pair has one member), 2 planes, the last one paired;
      // then 4 columns (pairs full) and 1 column (no column bit to select the half with)
      for (int records : new int[] {14, 20, 3}) {
        Geometry g = Geometry.of(p, records, size, 5).withPairedTail();
        int rows = Math.min(5, records);
        int cols = (records + rows - 1) / rows;
        assertEquals(rows, g.rows());
        assertEquals(cols, g.cols());
        assertEquals(2, g.planes());
        assertEquals((cols + 1) / 2, g.planeColumns(1));
        assertEquals(cols, g.planeColumns(0));
        SyntheticRecords src = new SyntheticRecords(records, size, 21);
        long[] all = java.util.stream.LongStream.range(0, records).toArray();
        roundTrip(cp, g, src, all);
        PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
        assertEquals(rows * p.plaintextLimbs(), db.plane(1)[0].nrows());
        assertEquals((cols + 1) / 2, db.plane(1).length);
        assertEquals((long) rows * (cols + (cols + 1) / 2), g.polynomials(0, cols));
        assertEquals(8L * p.n() * p.plaintextLimbs() * g.polynomials(0, cols), db.sizeBytes());
      }
    }
  }

  @Test
  void pairedTailsAreRefusedWhereTheyDoNotFit() {
    Params p = CP.server();
    int pb = p.bytesPerPolynomial();
    IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
        () -> Geometry.of(p, 10, pb + pb / 2 + 1, 4).withPairedTail());
    assertTrue(big.getMessage().contains("at most half used"), big.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Geometry.of(p, 10, pb / 2, 4)
        .withPairedTail());
    Geometry g = Geometry.of(p, 8, pb + 10, 4).withPairedTail();
    IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
        () -> g.planeColumnRange(1, 1, 2));
    assertTrue(range.getMessage().contains("not inside [0, 2)"), range.getMessage());
  }

  @Test
  void compactQueriesDecodeExactRecords() {
    Geometry g = smallGeometry();
    assertEquals(16, g.rows());
    assertEquals(5, g.cols());
    SyntheticRecords src = new SyntheticRecords(g.recordCount(), 100, 11);
    roundTrip(CP, g, src, 0, 1, 15, 16 * 12, 700, g.recordCount() - 1);
  }

  @Test
  void compactQueriesAtMaximumRowsAndOneColumnAndSeveralPlanes() {
    Params p = CP.server();
    // 85 rows x 3 limbs = 255 slots of 256
    Geometry g = Geometry.of(p, 85 * 2, p.bytesPerPolynomial(), 85);
    roundTrip(CP, g, new SyntheticRecords(g.recordCount(), p.bytesPerPolynomial(), 12), 0, 84,
        85, 169);
    Geometry one = Geometry.of(p, 20, 60, 64);
    assertEquals(1, one.cols());
    roundTrip(CP, one, new SyntheticRecords(20, 60, 13), 0, 19);
    Geometry planes = Geometry.of(p, 9, 3000, 4);
    assertEquals(3, planes.planes());
    roundTrip(CP, planes, new SyntheticRecords(9, 3000, 14), 0, 5, 8);
  }

  @Test
  void productionCompactPresetEndToEndWithSizesWithinTargets() {
    CompactParams cp = CompactParams.ONIONPIR_4096_COMPACT;
    Params p = cp.server();
    int rows = 64;
    int cols = 16;
    Geometry g = Geometry.of(p, (long) rows * cols, p.bytesPerPolynomial(), rows);
    assertEquals(cols, g.cols());
    SyntheticRecords src = new SyntheticRecords(g.recordCount(), p.bytesPerPolynomial(), 21);
    long t0 = System.nanoTime();
    roundTrip(cp, g, src, 0, (long) rows * cols - 1, 777);
    double seconds = (System.nanoTime() - t0) / 1e9;
    CompactClient c = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM), "size",
        RANDOM);
    int queryBytes = Wire.writeCompactQuery(c.query(0)).length;
    int keyBytes = Wire.writeEvaluationKeys(c.evaluationKeys()).length;
    long answerBytes = Wire.maxAnswerBytes(p, g);
    System.out.printf(java.util.Locale.ROOT, "compact %s: query %d B, keys %d B, answer %d B"
        + " per plane, end to end (3 queries, keygen, 20 MiB database) %.1f s%n", cp.id(),
        queryBytes, keyBytes, answerBytes, seconds);
    assertTrue(queryBytes <= 128 * 1024, "query " + queryBytes + " B above 128 KiB");
    assertTrue(answerBytes <= 128 * 1024, "answer " + answerBytes + " B above 128 KiB");
    assertTrue(keyBytes <= 6 * 1024 * 1024, "keys " + keyBytes + " B above 6 MiB");
  }

  @Test
  void productionCompactPresetDecodesAtItsLargestGeometryWithWorstCaseDigits() {
    // the bound charges every coefficient of an expanded row with the constant term's 4^l
    // growth; the others grow less, so at depth 11 it is about 4 bits above the measurement
    checkLargestGeometry(CompactParams.ONIONPIR_4096_COMPACT, 1024);
  }

  /**
   * A record of cp's largest geometry (maxRows x 2 columns of extreme digits) decodes exactly
   * with noise within the estimate and at least {@code 1/slack} of it; returns the measured
   * variance.
   */
  static double checkLargestGeometry(CompactParams cp, double slack) {
    Params p = cp.server();
    int n = p.n();
    int rows = cp.maxRows();
    // two full columns of extreme digits (column 0 all -2^15), about 0.9 GiB at 682 rows
    ExtremeRecords src = new ExtremeRecords(p, 2L * rows, 5, rows);
    Geometry g = Geometry.of(p, src.recordCount(), src.recordSize(), rows);
    assertEquals(2, g.cols());
    CompactClient client = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM),
        "edge", RANDOM);
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register(client.clientId(), Wire.writeEvaluationKeys(client.evaluationKeys()));
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    long index = rows + 77;
    PreparedQuery pq = new CompactExpander(cp).expand(
        Wire.readCompactQuery(Wire.writeCompactQuery(client.query(index)), cp, g), g, store,
        null);
    Answer a = Wire.readAnswer(Wire.writeAnswer(new PirServer(p).answer(db, pq, null)), p, g);
    assertArrayEquals(src.record(index), client.decode(a, index), "record " + index);
    long[] msg = new long[p.plaintextLimbs() * n];
    System.arraycopy(new ColumnEncoder(p, g, src).digits(0, 1), g.rowOf(index)
        * p.plaintextLimbs() * n, msg, 0, p.plaintextLimbs() * n);
    double[] e = client.noise(a, 0, msg);
    double var = variance(e);
    double est = Noise.compactAnswer(cp, g.rows(), g.cols());
    System.out.printf(java.util.Locale.ROOT, "%s edge %dx%d: noise std 2^%.2f, estimate"
        + " 2^%.2f, decoding margin 2^%.0f, failure per coefficient 2^%.0f (estimate)%n",
        cp.id(), g.rows(), g.cols(), Math.log(var) / Math.log(4), Math.log(est) / Math.log(4),
        Math.log(Noise.margin(p)) / Math.log(2), Noise.log2FailureProbability(p, est));
    assertTrue(var <= est * tolerance(n), "noise " + var + " above the estimate " + est);
    assertTrue(var >= est / slack, "the noise is really there: " + var + " vs " + est);
    return var;
  }

  @Test
  void missingOrWrongEvaluationKeysAreRejected() {
    Geometry g = smallGeometry();
    CompactClient alice = client(g, "alice");
    CompactClient mallory = client(g, "mallory");
    EvaluationKeyStore store = new EvaluationKeyStore(CP);
    CompactExpander ex = new CompactExpander(CP);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ex.expand(alice.query(3), g, store, null));
    assertTrue(e.getMessage().contains("no evaluation keys for client 'alice'"), e.getMessage());
    // keys registered under another client's id
    byte[] malloryKeys = Wire.writeEvaluationKeys(mallory.evaluationKeys());
    e = assertThrows(IllegalArgumentException.class, () -> store.register("alice", malloryKeys));
    assertTrue(e.getMessage().contains("belong to client 'mallory'"), e.getMessage());
    // stale keys: alice's query made for keys other than the stored ones
    CompactClient alice2 = new CompactClient(CP, g, secret(alice), "alice", RANDOM);
    store.register(alice2.clientId(), Wire.writeEvaluationKeys(alice2.evaluationKeys()));
    e = assertThrows(IllegalArgumentException.class,
        () -> ex.expand(alice.query(3), g, store, null));
    assertTrue(e.getMessage().contains("was made for evaluation keys"), e.getMessage());
    // keys of another preset
    CompactParams other = CompactParams.TEST_INSECURE_1024_COMPACT;
    CompactClient stranger = new CompactClient(other,
        Geometry.of(other.server(), 100, 100, 4), CompactClient.generateSecret(other, RANDOM),
        "alice", RANDOM);
    byte[] otherKeys = Wire.writeEvaluationKeys(stranger.evaluationKeys());
    e = assertThrows(Wire.WireException.class, () -> store.register("alice", otherKeys));
    assertTrue(e.getMessage().contains("is for preset 'test-insecure-1024-compact'"),
        e.getMessage());
    // corrupted keys
    byte[] good = Wire.writeEvaluationKeys(alice.evaluationKeys());
    byte[] bad = good.clone();
    bad[bad.length / 2] ^= 0x10;
    e = assertThrows(Wire.WireException.class, () -> store.register("alice", bad));
    assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    // a query of a classic preset's shape is refused by the compact reader
    assertThrows(Wire.WireException.class,
        () -> Wire.readCompactQuery(Wire.writeEvaluationKeys(alice.evaluationKeys()), CP));
  }

  @Test
  void evaluationKeysAndCompactQueriesRoundTripAndCorruptionIsRejected() {
    Geometry g = smallGeometry();
    CompactClient c = client(g, "dave");
    EvaluationKeys k = c.evaluationKeys();
    byte[] kb = Wire.writeEvaluationKeys(k);
    EvaluationKeys k2 = Wire.readEvaluationKeys(kb, CP);
    assertEquals(k.clientId(), k2.clientId());
    assertArrayEquals(k.seed(), k2.seed());
    assertArrayEquals(k.kskB(), k2.kskB());
    assertArrayEquals(k.ggswSB(), k2.ggswSB());
    assertEquals(k.fingerprint(), k2.fingerprint());
    CompactQuery q = c.query(5);
    byte[] qb = Wire.writeCompactQuery(q);
    CompactQuery q2 = Wire.readCompactQuery(qb, CP);
    assertEquals(q.clientId(), q2.clientId());
    assertEquals(q.keysFingerprint(), q2.keysFingerprint());
    assertEquals(q.rows(), q2.rows());
    assertEquals(q.cols(), q2.cols());
    assertArrayEquals(q.seed(), q2.seed());
    assertArrayEquals(q.phase1B(), q2.phase1B());
    assertArrayEquals(q.phase2B(), q2.phase2B());
    for (byte[] msg : new byte[][] {kb, qb}) {
      for (int pos : new int[] {5, 20, msg.length / 2, msg.length - 1}) {
        byte[] bad = msg.clone();
        bad[pos] ^= 0x01;
        assertThrows(Wire.WireException.class, () -> {
          if (msg == kb) {
            Wire.readEvaluationKeys(bad, CP);
          } else {
            Wire.readCompactQuery(bad, CP);
          }
        });
      }
      byte[] cut = java.util.Arrays.copyOf(msg, msg.length - 9);
      assertThrows(Wire.WireException.class, () -> {
        if (msg == kb) {
          Wire.readEvaluationKeys(cut, CP);
        } else {
          Wire.readCompactQuery(cut, CP);
        }
      });
    }
    assertThrows(Wire.WireException.class, () -> Wire.readQuery(qb, CP.server()));
  }

  @Test
  void keyStoreInADirectorySurvivesARestart(@TempDir Path dir) throws Exception {
    Geometry g = smallGeometry();
    CompactClient c = client(g, "erin");
    EvaluationKeyStore store = new EvaluationKeyStore(CP, dir);
    long fp = store.register(c.clientId(), Wire.writeEvaluationKeys(c.evaluationKeys()));
    assertTrue(Files.exists(dir.resolve("erin.evk")));
    EvaluationKeyStore restarted = new EvaluationKeyStore(CP, dir);
    assertTrue(restarted.contains("erin"));
    assertEquals(fp, restarted.get("erin").fingerprint());
    restarted.remove("erin");
    assertTrue(!restarted.contains("erin"));
    assertThrows(IllegalArgumentException.class, () -> restarted.get("../etc"));
  }

  @Test
  void compactPresetsAreSecureAndTheirBudgetClosesAtTheStatedMaximumGeometry() {
    for (CompactParams cp : CompactParams.all()) {
      if (cp.server().secure()) {
        assertTrue(Security.meets128(cp.server()), cp.id());
        assertTrue(Security.meets128(cp.keys()), cp.keys().id());
      } else {
        assertTrue(cp.keys().id().contains("insecure"), cp.keys().id());
        assertTrue(!Security.meets128(cp.keys()), cp.keys().id());
      }
      // keys sit exactly at the floor: 2 bits inside the 2024 guideline bound (more noise costs
      // precision)
      if (cp.server().n() == 4096) {
        assertEquals(Security.minNoiseStdTorus(4096), cp.keys().noiseStdTorus(), 0);
        assertEquals(105, Security.effectiveLogQ(cp.keys()), 1e-9);
        assertEquals(682, cp.maxRows(), "depth-11 expansion: rows * 3 <= 2048");
      }
      Params s = cp.server();
      // stated maximum: maxRows (noise budget) and 2^20 columns
      int maxRows = cp.maxRows();
      double v = Noise.compactAnswer(cp, maxRows, CompactParams.BUDGET_COLS);
      double lf = Noise.log2FailureProbability(s, v);
      assertTrue(lf <= CompactParams.MAX_LOG2_FAILURE, cp.id() + ": failure 2^" + lf);
      if (maxRows < s.n() / s.plaintextLimbs()) {
        double lf1 = Noise.log2FailureProbability(s, Noise.compactAnswer(cp, maxRows + 1,
            CompactParams.BUDGET_COLS));
        assertTrue(lf1 > CompactParams.MAX_LOG2_FAILURE, "the cap is tight: " + lf1);
        assertThrows(IllegalArgumentException.class, () -> cp.checkGeometry(maxRows + 1, 2));
      }
      cp.checkGeometry(maxRows, 2);
    }
    // the budget does not close for 56-bit plaintexts with this expansion: the reason for 40
    CompactParams cp = CompactParams.ONIONPIR_4096_COMPACT;
    Params p56 = new Params("x-insecure", 4096, 16, 56, 4, 6, 5, 5, 3.2, 0);
    CompactParams c56 = new CompactParams(p56, new Params("x-insecure-keys", 4096, 16, 56, 4, 7,
        6, 7, 25.6, 0), 6);
    assertTrue(Noise.log2FailureProbability(p56, Noise.compactAnswer(c56, 256, 256)) > -40);
    assertEquals("onionpir-4096-compact-128", cp.id());
    assertEquals(cp.server(), Presets.byId(cp.id()));
  }

  /** Keys cover the geometry's expansion depth only; a deeper query is refused by name. */
  @Test
  void evaluationKeysCoverOnlyTheExpansionDepthTheGeometryUses() {
    Geometry small = smallGeometry(); // 16 rows x 5 columns: 48 and 12 slots, depth 6
    assertEquals(6, CP.keyDepth(small.rows(), small.cols()));
    CompactClient shallow = client(small, "dora");
    EvaluationKeys k = shallow.evaluationKeys();
    assertEquals(6, k.automorphisms(CP));
    byte[] wire = Wire.writeEvaluationKeys(k);
    assertEquals(Sizes.evaluationKeys(CP, small).total() - (64 - 4), wire.length);
    assertTrue(wire.length < Wire.maxEvaluationKeysBytes(CP));
    // the same secret on a deeper database: its query cannot be expanded with the shallow keys
    Geometry deep = fullDepthGeometry();
    CompactClient deepClient = new CompactClient(CP, deep, secret(shallow), "dora", RANDOM);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> deepClient.useEvaluationKeys(k));
    assertTrue(e.getMessage().contains("cover 6 expansion levels"), e.getMessage());
    CompactClient other = new CompactClient(CP, deep, secret(shallow), "dora", RANDOM);
    CompactQuery q = other.query(3);
    PreparedEvaluationKeys prepared = PreparedEvaluationKeys.prepare(CP, k);
    e = assertThrows(IllegalArgumentException.class,
        () -> new CompactExpander(CP).expand(q, prepared, null));
    assertTrue(e.getMessage().contains("needs 8"), e.getMessage());
  }
}
