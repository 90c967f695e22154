package org.jpir.core.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jpir.core.lwe.BPacking;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.Prg;
import org.jpir.core.params.AnswerSwitch;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.DigitForm;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Phase1Digits;

/**
 * The size formulas of the scheme, in one place. On the wire: a breakdown of a query, an answer
 * and a client's keys into their components, computed from the preset and the geometry (the
 * totals are {@link Wire}'s largest valid queries and equal the lengths of real messages;
 * {@code SizesTest}); client ids are counted at their largest (64 bytes). In memory: the
 * prepared database's columns, an expanded query, a client's prepared keys and the phase-1
 * scratch of a task (what the Spark memory plan adds up; {@code SizesTest} compares them with
 * real objects).
 */
public final class Sizes {
  private Sizes() {}

  /**
   * One component of a message: {@code count} items of {@code bytesEach} bytes.
   *
   * @param component what the items are
   * @param count how many
   * @param bytesEach bytes per item
   * @param formula how {@code bytesEach} comes from the parameters
   */
  public record Part(String component, long count, long bytesEach, String formula) {
    /** {@code count * bytesEach}. */
    public long bytes() {
      return count * bytesEach;
    }
  }

  /** A message's parts and their total. */
  public record Breakdown(String message, List<Part> parts) {
    /** The sum of every part. */
    public long total() {
      long t = 0;
      for (Part p : parts) {
        t += p.bytes();
      }
      return t;
    }

    /** One line per part, then the total. */
    public String describe() {
      StringBuilder sb = new StringBuilder();
      sb.append(String.format(Locale.ROOT, "%s: %,d B (%.1f KiB)%n", message, total(),
          total() / 1024.0));
      for (Part p : parts) {
        sb.append(String.format(Locale.ROOT, "  %-56s %6d x %7d B = %,11d B  (%s)%n",
            p.component(), p.count(), p.bytesEach(), p.bytes(), p.formula()));
      }
      return sb.toString();
    }
  }

  private static Part framing(String presetId, long extra, String what) {
    return new Part("framing: header, CRC" + what, 1, Wire.headerBytes(presetId) + Wire.CRC_BYTES
        + extra, "magic 4 + version 2 + type 1 + id " + (2 + presetId.length())
        + " + revision 8 + CRC 4" + (extra > 0 ? " + " + extra : ""));
  }

  /** A classic query ({@link Wire#writeQuery}) for preset {@code p} and geometry {@code g}. */
  public static Breakdown query(Params p, Geometry g) {
    long per = 2L * p.glweLimbs() * p.n();
    List<Part> parts = new ArrayList<>();
    parts.add(framing(p.id(), 4 + 4 + Prg.SEED_BYTES + 4 + 4,
        ", rows, cols, seed, 2 lengths"));
    parts.add(new Part("phase-1 rows (b part, seeded mask)",
        (long) g.rows() * p.plaintextLimbs(), per, "2 B x " + p.glweLimbs() + " limbs x N "
            + p.n()));
    parts.add(new Part("phase-2 GGSW rows (b part, seeded mask)",
        (long) Geometry.levels(g.cols()) * 2 * p.ggswLevels(), per, "2 B x " + p.glweLimbs()
            + " limbs x N " + p.n()));
    return new Breakdown("query (classic, " + p.id() + ")", parts);
  }

  /** A compact query ({@link Wire#writeCompactQuery}) for {@code cp} and geometry {@code g}. */
  public static Breakdown compactQuery(CompactParams cp, Geometry g) {
    Params k = cp.keys();
    long per = BPacking.bytes(k.n(), cp.queryBits());
    List<Part> parts = new ArrayList<>();
    parts.add(framing(cp.id(), 2 + Wire.MAX_CLIENT_ID + 8 + 4 + 4 + Prg.SEED_BYTES + 1 + 4 + 4,
        ", client id, fingerprint, rows, cols, seed, bits, 2 lengths"));
    boolean packed = cp.layout(g.rows(), g.cols()).packed();
    parts.add(new Part((packed ? "one GLWE, phase-1 and phase-2 slots" : "packed phase-1 GLWE")
        + " (b part rounded, seeded mask)", 1, per,
        "N " + k.n() + " x " + cp.queryBits() + " bits of " + k.logQ()));
    parts.add(new Part("packed phase-2 GLWE (b part rounded, seeded mask)",
        cp.phase2Glwes(g.rows(), g.cols()), per, "N " + k.n() + " x " + cp.queryBits()
            + " bits of " + k.logQ() + (packed ? "; none: packed with phase 1" : "")));
    return new Breakdown("compact query (" + cp.id() + ")", parts);
  }

  /**
   * An answer ({@link Wire#writeAnswer}) of preset {@code p} made for geometry {@code g} ({@link
   * org.jpir.core.server.PirServer#toAnswer(Glwe[], Geometry)}: the last plane's b trimmed to
   * {@link AnswerSwitch#bCoefficients}).
   */
  public static Breakdown answer(Params p, Geometry g) {
    int nb = AnswerSwitch.bCoefficients(p, g);
    int n = p.n();
    List<Part> parts = new ArrayList<>();
    parts.add(framing(p.id(), 4 + 4 + 1 + 1 + 4, ", planes, N, 2 bit widths, b count"));
    if (g.planes() > 1) {
      long full = Answer.planeBytes(n, p.answerBitsB(), p.answerBitsA(), n);
      long fullB = (long) n * p.answerBitsB() / 8;
      parts.add(new Part("b parts (modulus switched), planes before the last", g.planes() - 1,
          fullB, n + " coefficients x " + p.answerBitsB() + " bits"));
      parts.add(new Part("a parts (modulus switched), planes before the last", g.planes() - 1,
          full - fullB, n + " coefficients x " + p.answerBitsA() + " bits, + padding"));
    }
    long plane = Answer.planeBytes(n, p.answerBitsB(), p.answerBitsA(), nb);
    long bBytes = (long) nb * p.answerBitsB() / 8;
    parts.add(new Part("b part (modulus switched), " + (g.planes() > 1 ? "last plane" : "plane"),
        1, bBytes, nb + " coefficients x " + p.answerBitsB() + " bits (those holding record"
            + " bytes)"));
    parts.add(new Part("a part (modulus switched), " + (g.planes() > 1 ? "last plane" : "plane"),
        1, plane - bBytes, n + " coefficients x " + p.answerBitsA() + " bits, + padding"));
    return new Breakdown("answer (" + p.id() + ", " + g.planes() + " plane"
        + (g.planes() == 1 ? "" : "s") + ")", parts);
  }

  /**
   * A shared-mask answer ({@link PlanePacking}, {@link Wire#writeAnswer}) of preset {@code p} for
   * a geometry of at least 2 planes: every plane's b (the last trimmed) and one a.
   */
  public static Breakdown sharedAnswer(Params p, Geometry g) {
    if (g.planes() < 2) {
      throw new IllegalArgumentException("a shared-mask answer needs at least 2 planes, the"
          + " geometry has " + g.planes());
    }
    int nb = AnswerSwitch.bCoefficients(p, g);
    int n = p.n();
    long bits = ((long) (g.planes() - 1) * n + nb) * p.answerBitsB();
    List<Part> parts = new ArrayList<>();
    parts.add(framing(p.id(), 4 + 4 + 1 + 1 + 4, ", planes, N, 2 bit widths, b count"));
    parts.add(new Part("b parts (modulus switched), one per plane, the last trimmed", 1,
        bits / 8, ((long) (g.planes() - 1) * n + nb) + " coefficients x " + p.answerBitsB()
            + " bits"));
    parts.add(new Part("a part shared by every plane (modulus switched)", 1,
        Answer.sharedPayloadBytes(g.planes(), n, p.answerBitsB(), p.answerBitsA(), nb)
            - bits / 8, n + " coefficients x " + p.answerBitsA() + " bits, + padding"));
    return new Breakdown("shared-mask answer (" + p.id() + ", " + g.planes() + " planes)",
        parts);
  }

  /** A client's plane-packing key ({@link Wire#writePackingKey}) for {@code planes} planes. */
  public static Breakdown packingKey(Params p, int planes) {
    PlanePacking pk = new PlanePacking(p, planes);
    List<Part> parts = new ArrayList<>();
    parts.add(framing(p.id(), 1 + Prg.SEED_BYTES + 4, ", planes, seed, length"));
    parts.add(new Part("key rows: " + planes + " planes x " + PlanePacking.levels(p)
        + " levels, " + planes + " b parts each (seeded mask)", (long) pk.rows() * planes,
        2L * p.glweLimbs() * p.n(), "2 B x " + p.glweLimbs() + " limbs x N " + p.n()));
    return new Breakdown("plane-packing key (" + p.id() + ", " + planes + " planes, once per"
        + " client)", parts);
  }

  /** A client's evaluation keys ({@link Wire#writeEvaluationKeys}) for {@code cp}. */
  public static Breakdown evaluationKeys(CompactParams cp, Geometry g) {
    Params k = cp.keys();
    int depth = cp.keyDepth(g.rows(), g.cols());
    long per = (long) k.n() * cp.keyBits();
    String f = "N " + k.n() + " x " + cp.keyBits() + " bits of " + k.logQ()
        + (per % 8 == 0 ? "" : ", /8 rounded up per array");
    List<Part> parts = new ArrayList<>();
    parts.add(framing(cp.id(), 2 + Wire.MAX_CLIENT_ID + Prg.SEED_BYTES + 1 + 4 + 4,
        ", client id, seed, bits, 2 lengths"));
    long rows = (long) depth * cp.ksLevels();
    parts.add(new Part("automorphism keys: " + depth + " (expansion depth) x " + cp.ksLevels()
        + " levels (b part rounded)", 1, BPacking.bytes(rows * k.n(), cp.keyBits()),
        rows + " rows x " + f));
    parts.add(new Part("GGSW(s): 2 x " + k.ggswLevels() + " rows (b part rounded)", 1,
        BPacking.bytes(2L * k.ggswLevels() * k.n(), cp.keyBits()), 2 * k.ggswLevels()
            + " rows x " + f));
    return new Breakdown("evaluation keys (" + cp.id() + ", once per client)", parts);
  }

  // ---- in memory -------------------------------------------------------------------------------

  /**
   * Bytes of one prepared database column of one plane (its PVEC): {@code 8 N rows
   * plaintextLimbs}.
   */
  public static long preparedColumnPlane(Params p, Geometry g) {
    return 8L * p.n() * g.rows() * p.plaintextLimbs();
  }

  /**
   * Bytes of the prepared grid columns {@code [first, first + count)} over every plane: {@code 8
   * N plaintextLimbs} per polynomial ({@link Geometry#polynomials}; a paired tail plane holds
   * column pairs).
   */
  public static long preparedColumns(Params p, Geometry g, int first, int count) {
    return 8L * p.n() * p.plaintextLimbs() * g.polynomials(first, count);
  }

  /**
   * Bytes of the expanded classic query of preset {@code p} for geometry {@code g}: {@code 8 N
   * (rows*limbs*2L + levels*2*ggswLevels*2F)}, L = glweLimbs, 2F the columns of the CMux tree's
   * GGSWs ({@link DigitForm#ggswOf} at {@link Params#foldLimbs}).
   */
  public static long preparedQuery(Params p, Geometry g) {
    return preparedQuery(p, Phase1Digits.limbsOf(p), g);
  }

  /**
   * Bytes of the expanded compact query of {@code cp} for geometry {@code g}: as a classic one of
   * its server preset, with the phase-1 matrices' 2L columns its phase-1 digits' ({@link
   * CompactParams#phase1}).
   */
  public static long preparedQuery(CompactParams cp, Geometry g) {
    return preparedQuery(cp.server(), cp.phase1(), g);
  }

  private static long preparedQuery(Params p, Phase1Digits digits, Geometry g) {
    // the GGSWs are the CMux tree's (Params#foldLimbs), in its GGSW digits
    long ncols = DigitForm.ggswOf(p, p.foldLimbs()).columns();
    return 8L * p.n() * ((long) g.rows() * p.plaintextLimbs() * digits.columns()
        + (long) Geometry.levels(g.cols()) * 2 * p.ggswLevels() * ncols);
  }

  /**
   * The most bytes a client's prepared evaluation keys of {@code cp} hold (keys for every
   * automorphism): {@code 8 N (ksLevels automorphisms 2D + 2 ggswLevels 2G)}, 2D the columns of
   * {@link CompactParams#ksForm}, 2G those of {@link DigitForm#ggswOf} of the keys.
   */
  public static long preparedKeys(CompactParams cp) {
    return preparedKeys(cp, cp.automorphisms());
  }

  /** Bytes of a client's prepared evaluation keys of {@code cp} for {@code depth} automorphisms. */
  public static long preparedKeys(CompactParams cp, int depth) {
    Params kp = cp.keys();
    return 8L * kp.n() * ((long) cp.ksLevels() * depth * cp.ksForm().columns()
        + 2L * kp.ggswLevels() * DigitForm.ggswOf(kp).columns());
  }

  /**
   * Phase-1 scratch of one task answering {@code batch} queries in passes of {@code chunk}
   * columns: per query and column of a pass, the batched result and the normalized leaves
   * ({@code 2 * 8 N 2L} bytes).
   */
  public static long phase1Scratch(Params p, int batch, long chunk) {
    return 2L * batch * chunk * 8L * p.n() * 2 * p.glweLimbs();
  }
}
