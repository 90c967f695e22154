package org.jpir.core.query;

import java.util.HashMap;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Gadget;
import org.jpir.core.params.DigitForm;
import org.jpir.vmp.Aligned;
import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Reim;
import org.jpir.vmp.Vmp;
import org.jpir.vmp.Znx;

/**
 * Key switching of automorphisms for {@link CompactExpander}: {@code out = KS(Aut_p(c))}, one
 * ciphertext at a time or a group of ciphertexts under the same key, whose outputs equal the
 * one-at-a-time outputs bitwise while the key (a PMAT of ksLevels x 2 digits transforms in the
 * server's {@link CompactParams#ksForm}: 512 KiB at N = 2048, two 29-bit digits per part) is
 * read from memory once per group instead of once per ciphertext.
 *
 * <p>For c = (b, a) under s, {@code Aut_p(c) = (b(X^p), a(X^p))} is under s(X^p); with d_i the
 * ksLevels gadget digits of a(X^p) ({@link CompactParams#ksGadget}), {@code b' = b(X^p) + sum_i
 * d_i KSK_i.b}, {@code a' = sum_i d_i KSK_i.a} (one {@code applyDftToDft} against the prepared
 * key, whose digits the inverse transforms return and {@link Znx#rebase} turns into limbs).
 * Outputs are left unnormalized. Not thread-safe (holds scratch): one per thread.
 */
final class KeySwitcher {
  /**
   * The most ciphertexts switched in one group ({@code -Djpir.expand.group=G}, 1 .. 64, default
   * 8), read when called: an expander made after the property changes uses the new value.
   */
  static int defaultGroup() {
    return Math.max(1, Math.min(64, Integer.getInteger("jpir.expand.group", 8)));
  }

  private final int maxGroup;
  private final int n;
  private final int limbs;
  private final int levels;
  private final int base2k;
  /** The prepared keys' digits per part ({@link CompactParams#ksForm}) and their bits. */
  private final int keyDigits;
  private final int keyDigitBits;
  /** Whether the keys are prepared in their own limbs (a column of products is a limb). */
  private final boolean ownForm;
  private final FftPlan plan;
  private final Gadget ksGadget;
  /** Whether a(X^p)'s digits come from {@link Gadget#decomposeImage} (one pass). */
  private final boolean imageDigits;
  private final long[] digits;
  private final long[] carry;
  private final long[] gadgetScratch;
  /** The automorphism image's a limbs (shared: only the digits of each member are kept). */
  private final long[] autA;
  /** The members' inputs, whose b the outputs add ({@link #part}). */
  private final Glwe[] inputs;
  private Znx.Automorphism current;
  private final double[][] vec;
  private final double[][] res;
  private final double[] tmp;
  private final long[] kpart;
  private final long[] wide;
  private final HashMap<Integer, Znx.Automorphism> autTables = new HashMap<>();

  /** A switcher with groups of up to {@link #defaultGroup}. */
  KeySwitcher(CompactParams cp) {
    this(cp, defaultGroup());
  }

  /** A switcher with groups of up to maxGroup (1 .. 64) ciphertexts. */
  KeySwitcher(CompactParams cp, int maxGroup) {
    if (maxGroup < 1 || maxGroup > 64) {
      throw new IllegalArgumentException("key-switch group of " + maxGroup + " not in 1 .. 64");
    }
    this.maxGroup = maxGroup;
    this.n = cp.keys().n();
    this.limbs = cp.keys().glweLimbs();
    this.levels = cp.ksLevels();
    this.base2k = cp.keys().base2k();
    DigitForm form = cp.ksForm();
    this.keyDigits = form.digits();
    this.keyDigitBits = form.digitBits();
    this.ownForm = form.isLimbsOf(cp.keys());
    this.plan = FftPlan.of(n);
    this.ksGadget = cp.ksGadget();
    // the permuted copy and long digits serve only gadgets whose digits are the limbs (or
    // -Djpir.expand.imageDigits=false, read per switcher: the three passes, for A/B runs)
    this.imageDigits = ksGadget.decomposesImages()
        && Boolean.parseBoolean(System.getProperty("jpir.expand.imageDigits", "true"));
    boolean copies = !imageDigits;
    this.digits = new long[copies ? levels * n : 0];
    this.carry = new long[copies ? n : 0];
    this.gadgetScratch = new long[copies ? ksGadget.scratchLength(n) : 0];
    this.autA = new long[copies ? limbs * n : 0];
    this.inputs = new Glwe[maxGroup];
    this.vec = new double[maxGroup][];
    this.res = new double[maxGroup][];
    // the transforms start on 64-byte boundaries (index Aligned.LEAD; N is a multiple of 8)
    this.tmp = new double[Vmp.applyDftToDftTmpLength(n, levels, 2 * keyDigits)];
    this.kpart = new long[limbs * n];
    this.wide = new long[keyDigits * n];
  }

  /** The most ciphertexts one group may hold. */
  int maxGroup() {
    return maxGroup;
  }

  /** {@code out = KS(Aut_p(c))}, unnormalized; c and out must differ. */
  void keySwitch(Glwe c, int p, Pmat ksk, Glwe out) {
    transformGroup(new Glwe[] {c}, 1, p, ksk, new Glwe[] {out});
    long[] od = out.data();
    for (int kk = 0; kk < 2; kk++) {
      part(0, kk, od, kk * limbs * n);
    }
  }

  /**
   * One level of the trace for {@code m < count}: with {@code t = KS(Aut_p(cs[m]))}, {@code
   * odds[m] = (cs[m] - t) X^(-step)} and {@code cs[m] += t} (m below {@link #maxGroup()}),
   * bitwise as {@link #keySwitch}
   * followed by those sums, one part at a time while it is in L1 (t is never stored).
   */
  void switchAndSplit(Glwe[] cs, int count, int p, Pmat ksk, Glwe[] odds, int step) {
    transformGroup(cs, count, p, ksk, odds);
    for (int m = 0; m < count; m++) {
      long[] d = cs[m].data();
      long[] od = odds[m].data();
      for (int kk = 0; kk < 2; kk++) {
        part(m, kk, kpart, 0);
        for (int l = 0; l < limbs; l++) {
          int col = kk * limbs + l;
          Znx.traceSplit(n, step, kpart, l * n, d, col * n, od, col * n);
        }
      }
    }
  }

  /**
   * The shared front of a group: checks, then for each member the gadget digits of its
   * automorphism image's a and their transforms, and the products with the key ({@code
   * res[m]}); the image's b is added later, from the input ({@link #part}), so no output may be
   * an input.
   */
  private void transformGroup(Glwe[] cs, int count, int p, Pmat ksk, Glwe[] outs) {
    if (count < 1 || count > maxGroup || ksk.nrows() != levels
        || ksk.ncols() != 2 * keyDigits) {
      throw new IllegalArgumentException("key switch of " + count + " ciphertexts (at most "
          + maxGroup + ") with a key of " + ksk.nrows() + "x" + ksk.ncols());
    }
    Znx.Automorphism a = autTable(p); // refuses an even p
    current = a;
    final int a0 = Aligned.LEAD;
    for (int m = 0; m < count; m++) {
      Glwe c = cs[m];
      if (c.limbs() != limbs || outs[m].limbs() != limbs || c == outs[m]) {
        throw new IllegalArgumentException("key switch shapes: " + c.limbs() + "/"
            + outs[m].limbs() + " limbs, " + limbs + " expected, input and output distinct");
      }
      for (int j = 0; j < count; j++) { // the outputs add b(X^p) from the inputs, read late
        if (outs[j] == c) {
          throw new IllegalArgumentException("key switch: output " + j + " is input " + m);
        }
      }
      scratch(m);
      inputs[m] = c;
      long[] cd = c.data();
      double[] v = vec[m];
      if (imageDigits) { // a(X^p)'s digits in one pass, no permuted copy
        ksGadget.decomposeImage(a, cd, limbs * n, limbs, v, a0);
      } else {
        for (int l = 0; l < limbs; l++) { // a(X^p): the digits' input only
          Znx.permute(a, cd, (limbs + l) * n, autA, l * n);
        }
        ksGadget.decompose(n, autA, 0, limbs, digits, 0, carry, gadgetScratch);
        for (int r = 0; r < levels; r++) {
          Reim.fromZnx(n, digits, r * n, v, a0 + r * n);
        }
      }
      for (int r = 0; r < levels; r++) {
        plan.fft(v, a0 + r * n);
      }
    }
    Vmp.get().applyDftToDftGroup(ksk, vec, a0, levels, res, a0, 2 * keyDigits, count, tmp);
  }

  /**
   * Part kk (0: b, 1: a) of member m's key-switch output, its {@code limbs} limbs into {@code
   * dst[off + l N ..]}: the inverse transforms of its products, rounded (with the keys' own form,
   * each is a limb; with wider digits, they are re-digited into the limbs, {@link Znx#rebase}),
   * plus the automorphism image's b limbs.
   */
  private void part(int m, int kk, long[] dst, int off) {
    double[] rs = res[m];
    int at = Aligned.LEAD + kk * keyDigits * n;
    if (ownForm) {
      for (int l = 0; l < limbs; l++) {
        plan.ifft(rs, at + l * n);
        Reim.toZnx(n, rs, at + l * n, dst, off + l * n);
      }
    } else {
      for (int i = 0; i < keyDigits; i++) {
        plan.ifft(rs, at + i * n);
        Reim.toZnx(n, rs, at + i * n, wide, i * n);
      }
      Znx.rebase(n, keyDigitBits, wide, 0, keyDigits, base2k, dst, off, limbs);
    }
    if (kk == 0) { // + b(X^p), limb by limb from the member's input (not yet changed)
      long[] cd = inputs[m].data();
      for (int l = 0; l < limbs; l++) {
        Znx.permuteAdd(current, cd, l * n, dst, off + l * n);
      }
    }
  }

  /** Member m's scratch (transformed digits, product), made on first use. */
  private void scratch(int m) {
    if (vec[m] == null) {
      vec[m] = Aligned.doubles(levels * n);
      res[m] = Aligned.doubles(2 * keyDigits * n);
    }
  }

  /** The table of X -> X^p, made once per p. */
  private Znx.Automorphism autTable(int p) {
    Znx.Automorphism a = autTables.get(p);
    if (a == null) {
      a = Znx.Automorphism.of(n, p);
      autTables.put(p, a);
    }
    return a;
  }
}
