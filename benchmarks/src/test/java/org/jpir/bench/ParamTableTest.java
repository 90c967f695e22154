package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.params.Security;
import org.jpir.core.server.PirServer;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

/** The parameter table's invariants, checked against the code that makes the messages. */
class ParamTableTest {
  static final SecureRandom RANDOM = new SecureRandom();

  @Test
  void everyProductionPresetIsInTheTableAndMeetsItsBounds() {
    List<Params> prod = PresetRows.productionPresets();
    assertTrue(prod.contains(Presets.ONIONPIR_4096) && prod.contains(Presets.ONIONPIR_4096_COMPACT));
    assertEquals(Presets.all().size(), prod.size() + PresetRows.testPresets().size());
    for (Params t : PresetRows.testPresets()) {
      assertFalse(t.secure(), t.id());
      assertTrue(t.id().contains("insecure"), t.id());
    }
    for (Params p : prod) {
      PresetRows.Row r = PresetRows.row(p);
      assertTrue(r.classicalBits() >= 130, p.id() + ": " + r.classicalBits() + " classical bits");
      assertEquals(Math.min(p.estimatedSecurity().classicalBits(), r.compact() == null
          ? Double.MAX_VALUE : r.compact().keys().estimatedSecurity().classicalBits()),
          r.classicalBits(), 1e-9);
      assertTrue(r.quantumBits() < r.classicalBits());
      assertTrue(r.log2Failure() <= Presets.MAX_LOG2_FAILURE, p.id() + ": 2^" + r.log2Failure());
      assertTrue(r.log2FailureShared() <= Presets.MAX_LOG2_FAILURE, p.id() + " shared: 2^"
          + r.log2FailureShared());
      assertTrue(PresetRows.packs(r.largeGeometry()) ? r.largeSharedRate() > r.largeRate()
          : r.largeSharedRate() == r.largeRate() && r.packingKeyBytes() == 0, p.id());
      assertTrue(r.log2Std() < Math.log(Noise.margin(p)) / Math.log(2) - 2, p.id());
      // the largest geometry is the one the preset's budget and geometry checks use
      if (r.compact() != null) {
        assertEquals(r.compact().maxRows(), r.maxRows());
        r.compact().checkGeometry(r.maxRows(), 2);
        assertThrows(IllegalArgumentException.class,
            () -> r.compact().checkGeometry(r.maxRows() + 1, 2));
      } else {
        assertEquals(Geometry.maxRows(p), r.maxRows());
      }
      Security.check(p);
    }
  }

  /** The size columns equal the lengths of real messages from the Wire encoders. */
  @Test
  void sizeColumnsEqualTheWireEncodersMessages() {
    for (Params p : PresetRows.productionPresets()) {
      PresetRows.Row r = PresetRows.row(p);
      Geometry g = r.sizeGeometry();
      assertEquals(g, PresetRows.geometry(p, 1L << 30, 3072));
      CompactParams cp = r.compact();
      if (cp != null) {
        CompactClient c = new CompactClient(cp, g, CompactClient.generateSecret(cp, RANDOM),
            "t".repeat(64), RANDOM);
        assertEquals(Wire.writeCompactQuery(c.query(g.recordCount() - 1)).length,
            r.queryBytes(), p.id() + " query");
        assertEquals(Wire.writeEvaluationKeys(c.evaluationKeys()).length, r.keyBytes(),
            p.id() + " keys");
      } else {
        PirClient c = new PirClient(p, g, SecretKey.generate(p, RANDOM), RANDOM);
        assertEquals(Wire.writeQuery(c.query(g.recordCount() - 1)).length, r.queryBytes(),
            p.id() + " query");
        assertEquals(0, r.keyBytes());
      }
      for (Geometry at : new Geometry[] {g, r.largeGeometry()}) {
        Glwe[] roots = new Glwe[at.planes()];
        for (int i = 0; i < roots.length; i++) {
          roots[i] = new Glwe(p.n(), p.glweLimbs());
        }
        long bytes = Wire.writeAnswer(new PirServer(p).toAnswer(roots, at)).length;
        assertEquals(bytes, at == g ? r.answerBytes() : r.largeAnswerBytes(), p.id() + " answer");
      }
      Geometry large = r.largeGeometry();
      if (!PresetRows.packs(large)) {
        continue; // answers stay per plane there (checked above)
      }
      Glwe[] roots = new Glwe[large.planes()];
      for (int i = 0; i < roots.length; i++) {
        roots[i] = new Glwe(p.n(), p.glweLimbs());
      }
      PlanePacking pk = new PlanePacking(p, large.planes());
      PlanePacking.Upload u = pk.generate(SecretKey.generate(p, RANDOM), RANDOM).upload();
      assertEquals(Wire.writePackingKey(p, u).length, r.packingKeyBytes(), p.id() + " key");
      assertEquals(Wire.writeAnswer(new PirServer(p).toSharedAnswer(roots, large,
          pk.prepare(u))).length, r.largeSharedBytes(), p.id() + " shared answer");
      assertEquals(30 * 1024, r.largeGeometry().recordSize());
      assertEquals((double) r.largeGeometry().recordSize() / r.largeAnswerBytes(),
          r.largeRate(), 1e-12);
    }
  }

  /** docs/parameters.md's generated block is the table of this code (its model columns). */
  @Test
  void parametersPageHoldsTheGeneratedTableOfThisCode() throws Exception {
    Path page = Path.of("..", "docs", "parameters.md");
    String text = Files.readString(page);
    int b = text.indexOf(ParamTable.BEGIN);
    int e = text.indexOf(ParamTable.END);
    assertTrue(b >= 0 && e > b, "docs/parameters.md needs the generated block");
    String block = text.substring(b, e);
    assertTrue(block.contains("Generated "), "the block comes from ParamTable");
    for (Params p : PresetRows.productionPresets()) {
      assertTrue(block.contains(PresetRows.sizeCells(PresetRows.row(p))), p.id()
          + ": the parameter table in docs/parameters.md is stale; regenerate it with ./pir java "
          + ParamTable.class.getName() + " --write docs/parameters.md");
      String revision = "`" + ParameterRevision.hex(ParameterRevision.of(p)) + "` |";
      assertTrue(block.contains(revision), p.id() + ": docs/parameters.md does not show its"
          + " parameter revision " + revision);
    }
    String replaced = ParamTable.replaceBetweenMarkers("a\n" + ParamTable.BEGIN + "\nold\n"
        + ParamTable.END + "\nz", "new\n");
    assertEquals("a\n" + ParamTable.BEGIN + "\nnew\n" + ParamTable.END + "\nz", replaced);
    assertThrows(IllegalArgumentException.class,
        () -> ParamTable.replaceBetweenMarkers("no markers", "x"));
  }
}
