package org.jpir.core.params;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

class SecurityTest {
  /** Largest integer log2 q whose estimate at sigma 3.2 is still at least 128 bits classical. */
  static int largestLogQ128(int n) {
    int lq = 10;
    while (Security.estimate(n, lq + 1, 3.2).classicalBits() >= 128) {
      lq++;
    }
    return lq;
  }

  @Test
  void estimateReproducesThe2018HeStandardTableWithinOneBitOfLogQ() {
    int[] ns = {1024, 2048, 4096, 8192};
    for (int n : ns) {
      int table = Security.maxLogQ128(n);
      int est = largestLogQ128(n);
      Security.Estimate at = Security.estimate(n, table, 3.2);
      System.out.printf(Locale.ROOT, "N=%d: table log2 q <= %d, estimate %d (at the table's q:"
          + " beta %d, d %d, core-SVP %.1f, calibrated %.1f bits)%n", n, table, est, at.beta(),
          at.dimension(), at.coreSvpClassical(), at.classicalBits());
      assertTrue(Math.abs(est - table) <= 1, "N=" + n + ": estimate " + est + " vs table "
          + table);
      // the calibration offset 16.4 + log2(8d) is what separates core-SVP from the table
      assertTrue(at.coreSvpClassical() < 105 && at.coreSvpClassical() > 90, "core-SVP "
          + at.coreSvpClassical());
      assertEquals(at.coreSvpClassical() / 0.292 * 0.265, at.coreSvpQuantum(), 1e-9);
    }
    // monotone: more modulus (or less noise) is less security
    assertTrue(Security.estimate(4096, 96, 3.2).beta() > Security.estimate(4096, 109, 3.2).beta());
    assertTrue(Security.estimate(4096, 112, 3.2 * 128).beta()
        > Security.estimate(4096, 112, 3.2 * 8).beta());
    // the same q / sigma is the same problem up to a fraction of a block size
    assertEquals(Security.estimate(4096, 105, 3.2).beta(),
        Security.estimate(4096, 112, 3.2 * 128).beta(), 2);
  }

  @Test
  void everyProductionParameterSetKeepsTwoBitsInsideThe2024GuidelinesAndEstimates128Bits() {
    List<Params> sets = new ArrayList<>(Presets.all());
    for (CompactParams cp : CompactParams.all()) {
      sets.add(cp.keys());
    }
    int production = 0;
    for (Params p : sets) {
      Security.Estimate e = p.estimatedSecurity();
      System.out.printf(Locale.ROOT, "%s: log2(q * 3.2 / sigma) = %.2f; %s%n", p.id(),
          Security.effectiveLogQ(p), e.describe());
      if (p.secure()) {
        production++;
        Security.check(p);
        assertTrue(Security.effectiveLogQ(p)
            <= Security.maxLogQ2024(p.n()) - Security.MARGIN_BITS + 1e-9, p.id());
        assertTrue(e.classicalBits() >= 128, p.id() + " " + e.describe());
        assertTrue(e.quantumBits() >= 118, p.id() + " " + e.describe());
      } else {
        assertTrue(p.id().contains("insecure"), p.id());
        assertTrue(!Security.meets128(p), p.id());
        assertTrue(e.classicalBits() < 64, p.id() + " " + e.describe());
      }
    }
    assertEquals(5, production, "classic, compact server and keys at N = 4096 and N = 2048");
    // the old compact keys (sigma 3.2 * 2^3 at q = 2^112: 109) are refused by the rule
    Params old = new Params("old-keys", 4096, 16, 40, 3, 7, 6, 7, 3.2 * 8, 128);
    assertTrue(!Security.meets128(old));
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
        () -> Security.check(old));
    assertTrue(x.getMessage().contains("109.00 exceeds 105"), x.getMessage());
  }

  /** Runs {@code body} with {@value Security#ALLOW_INSECURE_PROPERTY} cleared. */
  static void withoutAllowInsecure(Runnable body) {
    String before = System.getProperty(Security.ALLOW_INSECURE_PROPERTY);
    System.clearProperty(Security.ALLOW_INSECURE_PROPERTY);
    try {
      body.run();
    } finally {
      if (before != null) {
        System.setProperty(Security.ALLOW_INSECURE_PROPERTY, before);
      }
    }
  }

  static void refused(Supplier<?> s) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::get);
    assertTrue(e.getMessage().contains("-D" + Security.ALLOW_INSECURE_PROPERTY + "=true"),
        e.getMessage());
    assertTrue(e.getMessage().contains("insecure"), e.getMessage());
  }

  @Test
  void clientAndServerPathsRefuseInsecurePresetsUnlessTheTestFlagIsSet() {
    SecureRandom rnd = new SecureRandom();
    Params p = Presets.TEST_INSECURE_256;
    Geometry g = Geometry.of(p, 100, 100, 4);
    SecretKey sk = SecretKey.generate(p, rnd);
    byte[] query = Wire.writeQuery(new PirClient(p, g, sk, rnd).query(3));
    byte[] key = Wire.writeSecretKey(sk);
    CompactParams cp = CompactParams.TEST_INSECURE_256_COMPACT;
    withoutAllowInsecure(() -> {
      refused(() -> Presets.byId(p.id()));
      refused(() -> CompactParams.byId(cp.id()));
      refused(() -> new PirClient(p, g, sk, rnd));
      refused(() -> new QueryExpander(p));
      refused(() -> new CompactExpander(cp));
      refused(() -> new EvaluationKeyStore(cp));
      refused(() -> Wire.readQuery(query, p));
      refused(() -> Wire.readSecretKey(key, p));
      // production presets are not affected
      assertEquals(Presets.ONIONPIR_4096, Presets.byId("onionpir-4096-128"));
      assertEquals(CompactParams.ONIONPIR_4096_COMPACT,
          CompactParams.byId("onionpir-4096-compact-128"));
      new QueryExpander(Presets.ONIONPIR_4096);
    });
    assertEquals(p, Presets.byId(p.id()), "allowed again with the flag");
  }
}
