package org.jpir.core.query;

import java.util.function.IntPredicate;
import org.jpir.core.lwe.Ggsw;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Phase1Digits;
import org.jpir.core.params.Security;
import org.jpir.core.wire.CompactQuery;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Znx;

/**
 * Server side of the compact scheme: expands a {@link CompactQuery} with the client's evaluation
 * keys into the {@link PreparedQuery} that the server computes with.
 *
 * <p>Key switching of an automorphism ({@link KeySwitcher}): {@code KS(Aut_p(c))} has the phase
 * {@code phase(c)(X^p)} plus {@link Noise#keySwitch}.
 *
 * <p>Expansion (trace): for levels j = 0 .. l-1, each ciphertext c_k (k < 2^j) becomes {@code t
 * = KS(Aut_{N/2^j+1}(c_k))}, {@code c_k <- c_k + t}, {@code c_{k+2^j} <- (c_k - t) X^(-2^j)};
 * after l levels the constant coefficient of c_k is {@code 2^l m_k} (the client pre-scaled by
 * 2^-l) and the others are 0 (unused slots are 0); {@link ExpansionTree} orders the work. A
 * subtree holding one used slot k is finished by multiplying by {@code 2^(levels left)} (no key
 * switch), so a packed ciphertext of S slots costs S - 1 key switches. Phase-1 outputs are
 * rounded to the server's limbs and stacked as the PMAT; phase-2 output (t, j) is the GGSW row
 * {@code GLWE(bit_t g_j)}, and {@code externalProduct(row, GGSW(s))} is the row {@code
 * GLWE(bit_t g_j s)}. Not thread-safe (holds scratch): one per thread.
 */
public final class CompactExpander {
  private final CompactParams cp;
  private final Params kp;
  private final Params sp;
  private final GlweOps kops;
  private final GlweOps sops;
  private final int n;
  private final int limbs;
  private final long[] carry;
  private final KeySwitcher switcher;
  private final ExpansionSinks sinks;
  private final ExpansionTree tree;

  /** Time spent and work done since construction. */
  public static final class Timings {
    public long expandNanos;
    public long keySwitches;
    public long externalProducts;
  }

  /**
   * An expander for {@code cp}.
   *
   * @throws IllegalArgumentException for an insecure test preset without {@value
   *     Security#ALLOW_INSECURE_PROPERTY}
   */
  public CompactExpander(CompactParams cp) {
    this(cp, KeySwitcher.defaultGroup(), ExpansionTree.defaultDepth(cp.keys().n(),
        cp.keys().glweLimbs()));
  }

  /**
   * An expander whose key switches go in groups of up to {@code group} over subtrees of at most
   * {@code levelOrderDepth} levels (tests: every choice gives the same prepared query bitwise).
   */
  CompactExpander(CompactParams cp, int group, int levelOrderDepth) {
    Security.requireAllowed(cp.server());
    this.cp = cp;
    this.kp = cp.keys();
    this.sp = cp.server();
    this.kops = new GlweOps(kp);
    this.sops = new GlweOps(sp);
    this.n = kp.n();
    this.limbs = kp.glweLimbs();
    this.carry = new long[n];
    this.switcher = new KeySwitcher(cp, group);
    this.sinks = new ExpansionSinks(cp, kops, sops);
    this.tree = new ExpansionTree(n, limbs, kp.base2k(), switcher, levelOrderDepth);
  }

  /**
   * {@code out = KS(Aut_p(c))}: a GLWE under s whose phase is {@code phase(c)(X^p)}, normalized;
   * c and out are of the key parameters' limbs and must differ. c may be unnormalized (digits of
   * at most 40 bits).
   */
  public void automorphism(Glwe c, int p, Pmat ksk, Glwe out) {
    switcher.keySwitch(c, p, ksk, out);
    long[] od = out.data();
    Znx.normalize(n, kp.base2k(), od, 0, limbs, od, 0, limbs, carry);
    Znx.normalize(n, kp.base2k(), od, limbs * n, limbs, od, limbs * n, limbs, carry);
  }

  /** Receives expanded ciphertexts: slot index and its GLWE (valid only during the call). */
  public interface Sink {
    void accept(int slot, Glwe c);
  }

  /**
   * Expands the packed ciphertext {@code c} (overwritten) of {@code slots} used slots, calling
   * {@code sink} once with each slot's GLWE (key parameters' limbs, digits not normalized; valid
   * only during the call), not in slot order.
   */
  public void expand(Glwe c, int slots, Pmat[] ksk, Sink sink, Timings t) {
    if (slots < 1 || slots > n) {
      throw new IllegalArgumentException("cannot expand " + slots + " slots at N=" + n);
    }
    expand(c, CompactParams.depth(slots), s -> s < slots, s -> s < slots, ksk, sink, t);
  }

  /**
   * Expands {@code c} (overwritten) to depth l, delivering only the slots {@code s < 2^l} that
   * {@code wanted} accepts; {@code occupied} (which must accept every wanted slot) tells which
   * slots hold a non-zero message. A subtree without a wanted slot is skipped (its key switches
   * are saved); one whose only occupied slot is wanted is finished by a rotation and a
   * multiplication by 2^(levels left) (its other coefficients then hold zero messages, as after
   * the full trace).
   */
  public void expand(Glwe c, int l, IntPredicate wanted,
      IntPredicate occupied, Pmat[] ksk, Sink sink, Timings t) {
    if (l < 0 || (1 << l) > n || l > ksk.length) {
      throw new IllegalArgumentException("cannot expand to depth " + l + " at N=" + n + " with "
          + ksk.length + " automorphism keys");
    }
    tree.run(c, l, wanted, occupied, ksk, sink, t);
  }

  /**
   * The prepared query of a compact query.
   *
   * @throws IllegalArgumentException when the query does not match the preset, the geometry or
   *     the client's evaluation keys
   */
  public PreparedQuery expand(CompactQuery q, Geometry g, EvaluationKeyStore store, Timings t) {
    q.validate(cp);
    if (store.params() != cp && !store.params().equals(cp)) {
      throw new IllegalArgumentException("key store is for preset " + store.params().id()
          + ", expander for " + cp.id());
    }
    if (q.rows() != g.rows() || q.cols() != g.cols()) {
      throw new IllegalArgumentException("compact query was made for " + q.rows() + " rows x "
          + q.cols() + " columns, the database has " + g.rows() + " x " + g.cols());
    }
    return expand(q, store.keysFor(q), t);
  }

  /**
   * The prepared query of a compact query with the given (matching) prepared keys (any geometry:
   * a paired tail plane uses the same phase-1 matrix).
   */
  public PreparedQuery expand(CompactQuery q, PreparedEvaluationKeys keys, Timings t) {
    checkKeys(q, keys);
    long t0 = System.nanoTime();
    CompactParams.Layout layout = cp.layout(q.rows(), q.cols());
    Phase1Digits digits = cp.phase1();
    Pmat phase1 = Pmat.allocate(n, q.rows() * sp.plaintextLimbs(), digits.columns());
    Glwe[][] rows = new Glwe[Geometry.levels(q.cols())][2 * sp.ggswLevels()];
    if (layout.packed()) {
      int p1 = cp.phase1Slots(q.rows());
      int p2 = cp.phase2Slots(q.cols());
      Glwe c = q.phase1(cp).expand();
      Sink one = sinks.phase1(layout, phase1);
      Sink two = sinks.phase2(layout, rows, keys, t);
      expand(c, layout.phase1Depth(), s -> ExpansionSinks.wanted(layout, s, p1, p2, true, true),
          s -> ExpansionSinks.wanted(layout, s, p1, p2, true, true), keys.ksk(), (slot, g) -> {
            if (layout.phase2Index(slot) >= 0) {
              two.accept(slot, g);
            } else {
              one.accept(slot, g);
            }
          }, t);
    } else {
      fillPhase1(q, keys, layout, phase1, t);
      fillPhase2(q, keys, layout, rows, -1L, t);
    }
    PreparedGgsw[] ggsw = sinks.prepare(rows, -1L);
    if (t != null) {
      t.expandNanos += System.nanoTime() - t0;
    }
    return new PreparedQuery(sp.id(), q.rows(), q.cols(), phase1, ggsw,
        digits.isLimbsOf(sp) ? null : digits);
  }

  private void checkKeys(CompactQuery q, PreparedEvaluationKeys keys) {
    q.validate(cp);
    if (!keys.paramsId().equals(cp.id()) || !keys.clientId().equals(q.clientId())) {
      throw new IllegalArgumentException("evaluation keys of client '" + keys.clientId()
          + "' (" + keys.paramsId() + ") cannot expand a query of client '" + q.clientId()
          + "' (" + q.paramsId() + ")");
    }
    int need = cp.keyDepth(q.rows(), q.cols());
    if (keys.ksk().length < need) {
      throw new IllegalArgumentException("evaluation keys of client '" + keys.clientId()
          + "' cover " + keys.ksk().length + " expansion levels, a query of " + q.rows() + " x "
          + q.cols() + " needs " + need + ": upload keys made for this database's geometry");
    }
  }

  private void fillPhase1(CompactQuery q, PreparedEvaluationKeys keys,
      CompactParams.Layout layout, Pmat phase1, Timings t) {
    Glwe c1 = q.phase1(cp).expand();
    int p1 = cp.phase1Slots(q.rows());
    if (layout.packed()) {
      int p2 = cp.phase2Slots(q.cols());
      expand(c1, layout.phase1Depth(), s -> ExpansionSinks.wanted(layout, s, p1, p2, true, false),
          s -> ExpansionSinks.wanted(layout, s, p1, p2, true, true), keys.ksk(),
          sinks.phase1(layout, phase1), t);
    } else {
      expand(c1, p1, keys.ksk(), sinks.phase1(layout, phase1), t);
    }
  }

  private void fillPhase2(CompactQuery q, PreparedEvaluationKeys keys,
      CompactParams.Layout layout, Glwe[][] rows, long levels, Timings t) {
    if (rows.length == 0) {
      return;
    }
    int p2 = cp.phase2Slots(q.cols());
    if (layout.packed()) {
      int p1 = cp.phase1Slots(q.rows());
      expand(q.phase1(cp).expand(), layout.phase2Depth(), sinks.phase2Wanted(layout, p1, p2,
          levels), s -> ExpansionSinks.wanted(layout, s, p1, p2, true, true), keys.ksk(),
          sinks.phase2(layout, rows, keys, t), t);
    } else {
      expand(q.phase2(cp).expand(), CompactParams.depth(p2), sinks.phase2Wanted(layout, 0, p2,
          levels), s -> s < p2, keys.ksk(), sinks.phase2(layout, rows, keys, t), t);
    }
  }

  /** Phase 1 only: the selection values expanded and stacked into the phase-1 PMAT. */
  public Pmat expandPhase1(CompactQuery q, PreparedEvaluationKeys keys, Timings t) {
    checkKeys(q, keys);
    long t0 = System.nanoTime();
    Pmat phase1 = Pmat.allocate(n, q.rows() * sp.plaintextLimbs(), cp.phase1().columns());
    fillPhase1(q, keys, cp.layout(q.rows(), q.cols()), phase1, t);
    if (t != null) {
      t.expandNanos += System.nanoTime() - t0;
    }
    return phase1;
  }

  /**
   * Phase 2 only: the prepared GGSW of each column level that {@code levels} names (bit t; -1:
   * all; the others null), expanding only their slots, each as the full expansion makes it.
   */
  public PreparedGgsw[] expandPhase2(CompactQuery q, PreparedEvaluationKeys keys, Timings t,
      long levels) {
    checkKeys(q, keys);
    long t0 = System.nanoTime();
    Glwe[][] rows = new Glwe[Geometry.levels(q.cols())][2 * sp.ggswLevels()];
    fillPhase2(q, keys, cp.layout(q.rows(), q.cols()), rows, levels, t);
    PreparedGgsw[] ggsw = sinks.prepare(rows, levels);
    if (t != null) {
      t.expandNanos += System.nanoTime() - t0;
    }
    return ggsw;
  }

  /**
   * Where {@link CompactExpander}'s expanded values go: the phase-1 PMAT rows and the phase-2 GGSW
   * rows, and which packed slots hold a value of a phase asked for.
   */
  static final class ExpansionSinks {
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
    Sink phase1(CompactParams.Layout layout, Pmat phase1) {
      // one rounded GLWE and one transform per sink, reused row after row: prepareRow copies out
      // (allocating them per row was half of the expansion's allocation, each page a fresh fault)
      Phase1Digits digits = cp.phase1();
      Glwe rounded = new Glwe(n, digits.limbs());
      double[] reim = new double[rounded.data().length];
      return (slot, c) -> {
        int row = layout.phase1Index(slot);
        double[] x = sops.transformInto(kops.toDigits(c, digits, rounded), reim);
        phase1.prepareRow(row, x, 0);
      };
    }

    /**
     * The sink that makes each phase-2 value a GGSW row pair: the value and its external product
     * with the GGSW of s, both rounded to the CMux tree's limbs ({@link Params#foldLimbs}).
     */
    Sink phase2(CompactParams.Layout layout, Glwe[][] rows,
        PreparedEvaluationKeys keys, Timings t) {
      int sl = sp.foldLimbs();
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
        ggsw[b] = (levels >>> b & 1) == 0 ? null : sops.prepareForFold(new Ggsw(rows[b]));
      }
      return ggsw;
    }
  }
}
