package org.jpir.core.params;

/**
 * How a compact preset's roundings are derived from its noise budget (for {@link CompactParams}'s
 * presets): the phase-1 digits, the answer switch, then the query's and the keys' b bits, each the
 * fewest that keep the failure probability per coefficient at {@link CompactParams#maxRows} x
 * {@link CompactParams#BUDGET_COLS} within 2^{@value CompactParams#MAX_LOG2_FAILURE}.
 */
final class CompactDerivation {
  private static final int BUDGET_COLS = CompactParams.BUDGET_COLS;
  private static final double MAX_LOG2_FAILURE = CompactParams.MAX_LOG2_FAILURE;

  private CompactDerivation() {}

  /** The preset of these parts with every rounding derived (see the class comment). */
  static CompactParams switched(Params server, Params keys, int ksLevels, int ksBits) {
    CompactParams own = new CompactParams(server, keys, ksLevels, keys.logQ(), keys.logQ(),
        ksBits);
    Phase1Digits digits = derivePhase1(own);
    CompactParams base = own.withPhase1(digits);
    int rows = base.maxRows();
    double v = Noise.compactAnswerBeforeSwitch(base, rows, BUDGET_COLS);
    CompactParams a = new CompactParams(AnswerSwitch.derive(server, v, MAX_LOG2_FAILURE), keys,
        ksLevels, keys.logQ(), keys.logQ(), ksBits, digits);
    CompactParams q = a.withRounding(deriveQueryBits(a, rows), a.keyBits());
    return q.withRounding(q.queryBits(), deriveKeyBits(q, rows));
  }

  /**
   * The fewest phase-1 digits per GLWE part whose rounding keeps {@link CompactParams#maxRows} and
   * the failure probability at {@code maxRows} x {@link CompactParams#BUDGET_COLS} within 2^{@value
   * CompactParams#MAX_LOG2_FAILURE}: one digit as wide as {@link Phase1Digits#maxRoundedLimbBits}
   * allows at {@code maxRows} (sums within a long, rounded by the FFT within {@link
   * Phase1Digits#productError}, which the budget adds), else several as wide as {@link
   * Phase1Digits#maxLimbBits} allows (every product exact; at most 64 bits in all), or K-bit limbs
   * where that is narrower (products as exact as the server's own limbs); the server's own limbs
   * when no fewer digits close.
   */
  static Phase1Digits derivePhase1(CompactParams cp) {
    Phase1Digits own = Phase1Digits.limbsOf(cp.server());
    int k = cp.server().base2k();
    int rows = cp.maxRows();
    int widest = Math.min(Phase1Digits.maxLimbBits(cp.server(), rows), 62);
    int widestOne = Math.min(Phase1Digits.maxRoundedLimbBits(cp.server(), rows), 62);
    for (int limbs = 1; limbs < own.limbs(); limbs++) {
      int bits = Math.max(k, Math.min(limbs == 1 ? widestOne : widest, 64 / limbs));
      if (bits * limbs > cp.keys().logQ() || (bits > k && bits * limbs > 64)) {
        continue;
      }
      CompactParams c = cp.withPhase1(new Phase1Digits(bits, limbs));
      if (c.maxRows() == rows && closes(c, rows)) {
        return c.phase1();
      }
    }
    return own;
  }

  /**
   * The fewest query bits with {@link Noise#compactAnswer} at {@code rows} x {@link
   * CompactParams#BUDGET_COLS} failing with probability at most 2^{@value
   * CompactParams#MAX_LOG2_FAILURE} (the rest of {@code cp} as given).
   */
  static int deriveQueryBits(CompactParams cp, int rows) {
    for (int b = minBits(cp); b < cp.keys().logQ(); b++) {
      if (closes(cp.withRounding(b, cp.keyBits()), rows)) {
        return b;
      }
    }
    return cp.keys().logQ();
  }

  /** As {@link #deriveQueryBits}, for the key bits. */
  static int deriveKeyBits(CompactParams cp, int rows) {
    for (int b = minBits(cp); b < cp.keys().logQ(); b++) {
      if (closes(cp.withRounding(cp.queryBits(), b), rows)) {
        return b;
      }
    }
    return cp.keys().logQ();
  }

  private static int minBits(CompactParams cp) {
    return cp.keys().base2k() + 1;
  }

  private static boolean closes(CompactParams cp, int rows) {
    return Noise.log2FailureProbability(cp.server(), Noise.compactAnswer(cp, rows, BUDGET_COLS))
        <= MAX_LOG2_FAILURE;
  }
}
