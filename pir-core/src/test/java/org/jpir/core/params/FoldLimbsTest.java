package org.jpir.core.params;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FoldLimbsTest {
  @Test
  void theTreeKeepsTheDecomposedBitsPlusGuardInWholeLimbs() {
    Params fine = CompactParams.ONIONPIR_2048_COMPACT.server();
    // 5 digits of 4 bits = 20 bits, + 8 guard bits = 28: two limbs of 16 of the three
    assertEquals(3, fine.glweLimbs());
    assertEquals(2, fine.foldLimbs());
    Params fp = fine.foldParams();
    assertEquals(2, fp.glweLimbs());
    assertEquals(fine.id(), fp.id());
    assertEquals(fine.ggswBits(), fp.ggswBits());
    assertEquals(fine.ggswLevels(), fp.ggswLevels());
    assertTrue(fp.answerBitsB() <= 32 && fp.answerBitsA() <= 32, fp.toString());
    assertEquals(2, CompactParams.TEST_INSECURE_256_COMPACT_SCALED.server().foldLimbs());
    // digits that are the limbs: the tree keeps every limb, and the parameters are the same
    for (Params p : new Params[] {CompactParams.ONIONPIR_4096_COMPACT.server(),
        Presets.TEST_INSECURE_256}) {
      assertEquals(p.glweLimbs(), p.foldLimbs(), p.id());
      assertSame(p, p.foldParams(), p.id());
    }
  }

  @Test
  void theTreesRoundingIsInTheEstimateOnlyWhereLimbsAreCut() {
    Params fine = CompactParams.ONIONPIR_2048_COMPACT.server();
    assertEquals(Noise.rounding(fine, 2), Noise.foldRounding(fine), 0);
    assertEquals(0, Noise.foldRounding(CompactParams.ONIONPIR_4096_COMPACT.server()), 0);
  }
}
