package org.jpir.core.params;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jpir.core.query.PreparedQuery;
import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Pmat;
import org.junit.jupiter.api.Test;

class Phase1DigitsTest {
  private static double log2Failure(CompactParams cp, int rows) {
    return Noise.log2FailureProbability(cp.server(),
        Noise.compactAnswer(cp, rows, CompactParams.BUDGET_COLS));
  }

  @Test
  void theN2048PresetCarriesItsRowsInTwoExactWideDigits() {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    Phase1Digits d = cp.phase1();
    int rows = cp.maxRows();
    assertEquals(2, d.limbs(), "phase-1 digits " + d);
    assertEquals(4, d.columns());
    // exact: (w-1) + 7 + log2 N + log2 rows <= 47 at the largest geometry
    assertEquals(Phase1Digits.maxLimbBits(cp.server(), rows), d.limbBits());
    assertTrue((d.limbBits() - 1) + 7 + 11 + 32 - Integer.numberOfLeadingZeros(rows - 1)
        <= FftPlan.EXACT_PRODUCT_BITS, "digits of " + d.limbBits() + " bits at " + rows + " rows");
    // the rounding keeps the budget and the row bound of the preset in its own limbs
    CompactParams own = cp.withPhase1(Phase1Digits.limbsOf(cp.server()));
    assertEquals(own.maxRows(), rows);
    assertTrue(log2Failure(cp, rows) <= CompactParams.MAX_LOG2_FAILURE, "" + log2Failure(cp, rows));
    // and it is the fewest: one digit (as wide as exactness allows) does not close
    CompactParams one = cp.withPhase1(new Phase1Digits(d.limbBits(), 1));
    assertTrue(log2Failure(one, rows) > CompactParams.MAX_LOG2_FAILURE
        || one.maxRows() < rows, "one digit closes: " + log2Failure(one, rows));
    // rounding to 42 bits adds noise far below the expansion's
    double extra = Noise.compactRow(cp, rows) - Noise.compactRow(own, rows);
    assertTrue(extra > 0 && extra < 1e-3 * Noise.compactRow(own, rows), "extra variance " + extra);
  }

  @Test
  void theN4096PresetKeepsItsLimbsBecauseFewerDoNotClose() {
    CompactParams cp = CompactParams.ONIONPIR_4096_COMPACT;
    assertTrue(cp.phase1().isLimbsOf(cp.server()), "" + cp.phase1());
    int rows = cp.maxRows();
    CompactParams four = cp.withPhase1(new Phase1Digits(16, cp.server().glweLimbs() - 1));
    assertTrue(four.maxRows() < rows || log2Failure(four, rows) > CompactParams.MAX_LOG2_FAILURE);
  }

  @Test
  void badFormsAreRefusedWithTheirRule() {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> cp.withPhase1(new Phase1Digits(21, 3)));
    assertTrue(e.getMessage().contains("fewer than"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> cp.withPhase1(new Phase1Digits(40, 2)));
    assertThrows(IllegalArgumentException.class, () -> cp.withPhase1(new Phase1Digits(12, 2)));
    assertThrows(IllegalArgumentException.class, () -> new Phase1Digits(0, 2));
    Pmat six = Pmat.allocate(16, 2, 6);
    e = assertThrows(IllegalArgumentException.class, () -> new PreparedQuery("x", 2, 1, six,
        new org.jpir.core.lwe.PreparedGgsw[0], new Phase1Digits(21, 2)));
    assertTrue(e.getMessage().contains("need 4"), e.getMessage());
  }
}
