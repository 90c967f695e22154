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
  void theN2048PresetCarriesItsRowsInOneRoundedWideDigit() {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    Phase1Digits d = cp.phase1();
    int rows = cp.maxRows();
    assertEquals(1, d.limbs(), "phase-1 digits " + d);
    assertEquals(2, d.columns());
    // as wide as a long holds the sums: (w-1) + 7 + log2 N + log2 rows <= 62 at the largest
    // geometry, beyond the 47 bits of exact products
    assertEquals(Phase1Digits.maxRoundedLimbBits(cp.server(), rows), d.limbBits());
    assertEquals(FftPlan.ROUNDED_PRODUCT_BITS, d.productBits(cp.server(), rows));
    assertTrue(d.limbBits() > Phase1Digits.maxLimbBits(cp.server(), rows));
    d.checkProducts(cp.server(), rows);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> d.checkProducts(cp.server(), 2 * rows));
    assertTrue(e.getMessage().contains("fit a long"), e.getMessage());
    // the rounding keeps the budget and the row bound of the preset in its own limbs
    CompactParams own = cp.withPhase1(Phase1Digits.limbsOf(cp.server()));
    assertEquals(own.maxRows(), rows);
    assertTrue(log2Failure(cp, rows) <= CompactParams.MAX_LOG2_FAILURE, "" + log2Failure(cp, rows));
    // the FFT's rounding of the sums is in the budget, and small beside the phase-1 noise
    double err = d.productError(cp.server(), rows);
    assertEquals(Math.scalb(1.0, 14 - 36), err);
    double withErr = Noise.compactPhase1(cp, rows);
    double exactShare = withErr - err * err * (1 + cp.server().n() * 2.0 / 3);
    assertTrue(withErr > exactShare && withErr < 1.01 * exactShare, withErr + " " + exactShare);
    // one digit as wide as exactness allows (21 bits) does not close: the width needs rounding
    CompactParams exactOne = cp.withPhase1(new Phase1Digits(
        Phase1Digits.maxLimbBits(cp.server(), rows), 1));
    assertTrue(log2Failure(exactOne, rows) > CompactParams.MAX_LOG2_FAILURE
        || exactOne.maxRows() < rows, "one exact digit closes: " + log2Failure(exactOne, rows));
    // rounding to 36 bits adds noise far below the expansion's
    double extra = Noise.compactRow(cp, rows) - Noise.compactRow(own, rows);
    assertTrue(extra > 0 && extra < 0.05 * Noise.compactRow(own, rows), "extra variance " + extra);
  }

  @Test
  void formsThePassCannotRunFailTheBudgetInsteadOfOverflowing() {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    int rows = cp.maxRows();
    // two inexact digits, or one whose sums exceed a long: infinite error, so the budget fails
    Phase1Digits two = new Phase1Digits(Phase1Digits.maxLimbBits(cp.server(), rows) + 1, 2);
    assertEquals(Double.POSITIVE_INFINITY, two.productError(cp.server(), rows));
    assertThrows(IllegalArgumentException.class, () -> two.checkProducts(cp.server(), rows));
    Phase1Digits wide = new Phase1Digits(Phase1Digits.maxRoundedLimbBits(cp.server(), rows) + 1,
        1);
    assertEquals(Double.POSITIVE_INFINITY, wide.productError(cp.server(), rows));
    assertTrue(log2Failure(cp.withPhase1(wide), rows) > CompactParams.MAX_LOG2_FAILURE);
    // exact forms add nothing
    assertEquals(0.0, new Phase1Digits(21, 2).productError(cp.server(), rows));
    assertEquals(0.0, Phase1Digits.limbsOf(cp.server()).productError(cp.server(), rows));
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
