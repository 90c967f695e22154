package org.jpir.core.query;

import java.util.function.IntPredicate;
import org.jpir.core.lwe.Ggsw;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Params;
import org.jpir.core.params.Phase1Digits;
import org.jpir.vmp.Pmat;

/**
 * Where {@link CompactExpander}'s expanded values go: the phase-1 PMAT rows and the phase-2 GGSW
 * rows, and which packed slots hold a value of a phase asked for.
 */
final class ExpansionSinks {
  private final CompactParams cp;
  private final GlweOps kops;
  private final GlweOps sops;
  private final Params sp;
  private final int n;
  private final int limbs;

  ExpansionSinks(CompactParams cp, GlweOps kops, GlweOps sops) {
    this.cp = cp;
    this.kops = kops;
    this.sops = sops;
    this.sp = cp.server();
    this.n = cp.keys().n();
    this.limbs = cp.keys().glweLimbs();
  }

  /** Whether the packed slot s holds a value of a phase asked for. */
  static boolean wanted(CompactParams.Layout layout, int s, int p1, int p2, boolean one,
      boolean two) {
    int i2 = layout.phase2Index(s);
    if (i2 >= 0) {
      return two && i2 < p2;
    }
    int i1 = layout.phase1Index(s);
    return one && i1 >= 0 && i1 < p1;
  }

  /**
   * The phase-2 slots to expand: those of phase-2 values ({@link #wanted}) whose GGSW level is in
   * {@code levels} (bit t: level t).
   */
  IntPredicate phase2Wanted(CompactParams.Layout layout, int p1, int p2, long levels) {
    int lg = sp.ggswLevels();
    return s -> wanted(layout, s, p1, p2, false, true)
        && (levels >>> (layout.phase2Index(s) / lg) & 1) != 0;
  }

  /** The sink that lays each phase-1 value, rounded to the phase-1 digits, into its PMAT row. */
  CompactExpander.Sink phase1(CompactParams.Layout layout, Pmat phase1, TailPairs tails) {
    // one rounded GLWE and one transform per sink, reused row after row: prepareRow copies out
    // (allocating them per row was half of the expansion's allocation, each page a fresh fault)
    Phase1Digits digits = cp.phase1();
    Glwe rounded = new Glwe(n, digits.limbs());
    double[] reim = new double[rounded.data().length];
    return (slot, c) -> {
      int row = layout.phase1Index(slot);
      double[] x = sops.transformInto(kops.toDigits(c, digits, rounded), reim);
      phase1.prepareRow(row, x, 0);
      if (tails != null) {
        tails.accept(row, x);
      }
    };
  }

  /**
   * The sink that makes each phase-2 value a GGSW row pair: the value and its external product
   * with the GGSW of s, both rounded to the server's limbs.
   */
  CompactExpander.Sink phase2(CompactParams.Layout layout, Glwe[][] rows,
      PreparedEvaluationKeys keys, CompactExpander.Timings t) {
    int sl = sp.glweLimbs();
    int lg = sp.ggswLevels();
    Glwe prod = new Glwe(n, limbs);
    return (slot, c) -> {
      int v = layout.phase2Index(slot);
      int bit = v / lg;
      int j = v % lg;
      rows[bit][j] = kops.round(c, sl);
      kops.externalProduct(c, keys.ggswS(), prod);
      rows[bit][lg + j] = kops.round(prod, sl);
      if (t != null) {
        t.externalProducts++;
      }
    };
  }

  /** The GGSWs of the rows of the levels {@code levels} names (bit b: level b), prepared. */
  PreparedGgsw[] prepare(Glwe[][] rows, long levels) {
    PreparedGgsw[] ggsw = new PreparedGgsw[rows.length];
    for (int b = 0; b < rows.length; b++) {
      ggsw[b] = (levels >>> b & 1) == 0 ? null : sops.prepare(new Ggsw(rows[b]));
    }
    return ggsw;
  }
}
