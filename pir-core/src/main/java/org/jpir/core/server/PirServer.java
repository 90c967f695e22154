package org.jpir.core.server;

import java.lang.ref.SoftReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.AnswerSwitch;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Phase1Digits;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.wire.Answer;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Pvec;
import org.jpir.vmp.Vmp;

/**
 * The server's computation. Phase 1: for a chunk of columns, the batched multi-column VMP pass
 * ({@link Vmp#applyPvecBatch}) of every query's phase-1 PMAT over the chunk's PVECs, then the
 * inverse FFT, rounding and normalization of each column's GLWE, in the CMux tree's limbs
 * ({@link Params#foldLimbs}). Phase 2: the CMux tree over
 * columns, bit t of the column index selecting at level t; a node without a right sibling rises
 * unchanged, so any column count works. Chunks are aligned powers of two, so each chunk folds to
 * one node that the next levels combine; a column range (a Spark partition) folds the same way
 * ({@link #answerRange} then {@link #fold}). Not thread-safe (holds scratch): one per thread.
 */
public final class PirServer {
  /**
   * Overrides {@link #CHUNK} ({@code -Djpir.server.chunkColumns=C}, a power of two from 1 to
   * 4096): larger chunks read the query's PMAT fewer times for more scratch (AMD Zen 4,
   * 2026-12-06, phase 1 at 1 GiB, 137 x 274: 630-639 ms in one pass of 512 against 651-657 in
   * passes of 128, 128 and 18; but 93 x 564: 0.715 s in passes of 512 and 52 against 0.655 s in
   * passes of 128, cause not pinned down). Set it on the driver and the executors alike.
   */
  public static final String CHUNK_PROPERTY = "jpir.server.chunkColumns";

  /**
   * Columns per phase-1 pass (a power of two): the query's PMAT is read from memory once per
   * chunk, so larger chunks read it fewer times (at 1 GiB, 548 x 12 PMAT of 215 MB against 1.15
   * GB of PVECs per 64 columns: 19% extra traffic at 64, 9% at 128); each column of a chunk
   * holds 2*glweLimbs transforms of scratch (384 KiB at N = 4096, 48 MiB per query at 128). The
   * cache tiling inside a pass comes from {@link org.jpir.vmp.Vmp#tiling} (row tiles sized to
   * L1, database-column groups to L2).
   */
  public static final int CHUNK = parseChunk(System.getProperty(CHUNK_PROPERTY));

  /** {@link #CHUNK} from the property's value (128 when null); a clear error when malformed. */
  static int parseChunk(String v) {
    if (v == null) {
      return 128;
    }
    int c;
    try {
      c = Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + CHUNK_PROPERTY + "=" + v + " is not a number");
    }
    if (c < 1 || c > 4096 || Integer.bitCount(c) != 1) {
      throw new IllegalArgumentException("-D" + CHUNK_PROPERTY + "=" + v
          + " must be a power of two from 1 to 4096");
    }
    return c;
  }

  private final Params p;
  private final GlweOps ops;
  /** The CMux tree's operations, in its limbs ({@link Params#foldParams}). */
  private final GlweOps foldOps;
  private final CmuxFold folds;

  /** Time spent in each phase since construction, in nanoseconds. */
  public static final class Timings {
    public long phase1Nanos;
    public long phase2Nanos;
    public long columns;
  }

  public PirServer(Params p) {
    this.p = p;
    this.ops = new GlweOps(p);
    Params fp = p.foldParams();
    this.foldOps = fp == p ? ops : new GlweOps(fp);
    this.folds = new CmuxFold(fp, foldOps);
  }

  /** Answers one query over a whole database. */
  public Answer answer(PreparedDatabase db, PreparedQuery q, Timings t) {
    return answerBatch(db, new PreparedQuery[] {q}, t)[0];
  }

  /** Answers a batch of queries over a whole database in one pass over its columns. */
  public Answer[] answerBatch(PreparedDatabase db, PreparedQuery[] qs, Timings t) {
    Glwe[][] roots = answerRoots(db, qs, t);
    Answer[] out = new Answer[qs.length];
    for (int qi = 0; qi < qs.length; qi++) {
      out[qi] = toAnswer(roots[qi], db.geometry());
    }
    return out;
  }

  /**
   * The plane roots of each query over a whole database, ready for {@link #toAnswer(Glwe[],
   * Geometry)} or {@link #toSharedAnswer}: {@link #answerRange} over the whole grid, then the
   * paired tail's half selected ({@link #selectTailHalf}, timed as phase 2).
   *
   * @throws IllegalArgumentException when db does not hold the whole grid
   */
  public Glwe[][] answerRoots(PreparedDatabase db, PreparedQuery[] qs, Timings t) {
    Geometry g = db.geometry();
    if (db.firstColumn() != 0 || db.columnCount() != g.cols()) {
      throw new IllegalArgumentException("database holds columns [" + db.firstColumn() + ", "
          + (db.firstColumn() + db.columnCount()) + "), not the whole grid of " + g.cols());
    }
    Glwe[][] roots = answerRange(db, qs, t);
    for (int qi = 0; qi < qs.length; qi++) {
      long t0 = System.nanoTime();
      selectTailHalf(roots[qi], g, qs[qi].ggsw());
      if (t != null) {
        t.phase2Nanos += System.nanoTime() - t0;
      }
    }
    return roots;
  }

  /**
   * The answer holding the modulus-switched GLWE of every plane ({@link AnswerSwitch}), with the
   * whole b part (any geometry).
   */
  public Answer toAnswer(Glwe[] planeRoots) {
    return toAnswer(planeRoots, p.n());
  }

  /**
   * The answer for geometry {@code g}: as {@link #toAnswer(Glwe[])} but the last plane's b holds
   * only the {@link AnswerSwitch#bCoefficients} coefficients that carry record bytes.
   */
  public Answer toAnswer(Glwe[] planeRoots, Geometry g) {
    return toAnswer(planeRoots, AnswerSwitch.bCoefficients(p, g));
  }

  /**
   * The shared-mask answer for geometry {@code g} ({@link PlanePacking}): the plane roots packed
   * with the client's prepared packing key into one ciphertext of {@code planes} b parts and one
   * a, modulus-switched, the last b trimmed to {@link AnswerSwitch#bCoefficients}.
   */
  public Answer toSharedAnswer(Glwe[] planeRoots, Geometry g, Pmat packingKey) {
    PlanePacking pk = new PlanePacking(p, planeRoots.length);
    Glwe[] wide = new Glwe[planeRoots.length];
    for (int pl = 0; pl < wide.length; pl++) {
      wide[pl] = widen(planeRoots[pl]);
    }
    return sharedAnswer(pk.pack(wide, packingKey), planeRoots.length,
        AnswerSwitch.bCoefficients(p, g));
  }

  /**
   * The packed ciphertext ({@link PlanePacking#pack}) modulus-switched: b part j as plane j
   * ({@code bLast} coefficients for the last plane, N for the others), then a* once ({@link
   * Answer#sharedA}).
   */
  private Answer sharedAnswer(long[] packed, int planes, int bLast) {
    int n = p.n();
    int k = p.base2k();
    int limbs = p.glweLimbs();
    long[] values = new long[(int) Answer.valueCount(planes, n, bLast, true)];
    int pos = 0;
    for (int j = 0; j < planes; j++) {
      int nb = j == planes - 1 ? bLast : n;
      for (int c = 0; c < nb; c++) {
        values[pos++] = AnswerSwitch.round(AnswerSwitch.fixed64(packed, j * limbs * n + c, n,
            limbs, k), p.answerBitsB());
      }
    }
    for (int c = 0; c < n; c++) {
      values[pos++] = AnswerSwitch.round(AnswerSwitch.fixed64(packed, planes * limbs * n + c, n,
          limbs, k), p.answerBitsA());
    }
    return new Answer(p.id(), planes, n, p.answerBitsB(), p.answerBitsA(), bLast, values, true);
  }

  /** {@link #answer} with a shared-mask answer ({@link #toSharedAnswer}). */
  public Answer answerShared(PreparedDatabase db, PreparedQuery q, Timings t, Pmat packingKey) {
    Glwe[] roots = answerRoots(db, new PreparedQuery[] {q}, t)[0];
    return toSharedAnswer(roots, db.geometry(), packingKey);
  }

  /**
   * c with the server's glweLimbs limbs: c itself, or (a root of the CMux tree, {@link
   * Params#foldLimbs}) its limbs followed by zero limbs, the same torus values.
   */
  private Glwe widen(Glwe c) {
    int limbs = p.glweLimbs();
    if (c.limbs() == limbs) {
      return c;
    }
    if (c.limbs() > limbs) {
      throw new IllegalArgumentException("a root of " + c.limbs() + " limbs, more than the "
          + limbs + " of preset " + p.id());
    }
    Glwe w = new Glwe(c.n(), limbs);
    for (int kk = 0; kk < 2; kk++) {
      System.arraycopy(c.data(), c.offset(kk, 0), w.data(), w.offset(kk, 0), c.limbs() * c.n());
    }
    return w;
  }

  /** The switched answer; the last plane's b keeps {@code nb} coefficients, the others N. */
  private Answer toAnswer(Glwe[] planeRoots, int nb) {
    int n = p.n();
    int k = p.base2k();
    int planes = planeRoots.length;
    long[] values = new long[(int) Answer.valueCount(planes, n, nb)];
    for (int pl = 0; pl < planes; pl++) {
      Glwe r = planeRoots[pl];
      long[] d = r.data();
      int off = pl * 2 * n;
      int bHere = pl == planes - 1 ? nb : n;
      for (int j = 0; j < bHere; j++) {
        values[off + j] = AnswerSwitch.round(AnswerSwitch.fixed64(d, r.offset(0, 0) + j, n,
            r.limbs(), k), p.answerBitsB());
      }
      for (int j = 0; j < n; j++) {
        values[off + bHere + j] = AnswerSwitch.round(AnswerSwitch.fixed64(d, r.offset(1, 0) + j,
            n, r.limbs(), k), p.answerBitsA());
      }
    }
    return new Answer(p.id(), planes, n, p.answerBitsB(), p.answerBitsA(), nb, values);
  }

  /**
   * Phase 1 and the part of phase 2 inside the held column range: for each query and plane, the
   * node at level {@link #rangeLevel} covering the range. The range must start at a multiple of
   * 2^rangeLevel (true for the whole grid and for power-of-two partitions). Over the whole grid
   * these are not yet the roots an answer is made of where the tail is paired: use {@link
   * #answerRoots}, or {@link #selectTailHalf} after merging partitions' nodes.
   */
  public Glwe[][] answerRange(PreparedDatabase db, PreparedQuery[] qs, Timings t) {
    Geometry g = db.geometry();
    checkQueries(g, qs);
    int count = db.columnCount();
    int top = rangeLevel(g.cols(), count);
    if (db.firstColumn() % (1 << top) != 0) {
      throw new IllegalArgumentException("column range starting at " + db.firstColumn()
          + " is not aligned to 2^" + top);
    }
    int chunk = chunkSize(top);
    Phase1 ph1 = new Phase1(g, qs, chunk);
    Glwe[][] out = new Glwe[qs.length][g.planes()];
    for (int pl = 0; pl < g.planes(); pl++) {
      // a paired plane's columns are pairs: nodes of level 1 (of level 0 when the range is one
      // column, whose pair then stands for it: a CMux of two equal nodes is that node)
      int base = g.isPairedPlane(pl) && count > 1 ? 1 : 0;
      Pvec[] units = db.plane(pl);
      int unitChunk = Math.max(1, chunk >> base);
      int chunkLevel = Integer.numberOfTrailingZeros(unitChunk) + base; // a chunk root's level
      List<List<Glwe>> chunkRoots = new ArrayList<>();
      for (int qi = 0; qi < qs.length; qi++) {
        chunkRoots.add(new ArrayList<>());
      }
      for (int c0 = 0; c0 < units.length; c0 += unitChunk) {
        int len = Math.min(unitChunk, units.length - c0);
        long t0 = System.nanoTime();
        List<List<Glwe>> leaves = ph1.run(units, c0, len);
        long t1 = System.nanoTime();
        for (int qi = 0; qi < qs.length; qi++) {
          chunkRoots.get(qi).add(fold(leaves.get(qi), base, chunkLevel, qs[qi].ggsw()).get(0));
        }
        long t2 = System.nanoTime();
        if (t != null) {
          t.phase1Nanos += t1 - t0;
          t.phase2Nanos += t2 - t1;
          t.columns += (long) len * qs.length;
        }
      }
      long t3 = System.nanoTime();
      for (int qi = 0; qi < qs.length; qi++) {
        out[qi][pl] = fold(chunkRoots.get(qi), chunkLevel, top, qs[qi].ggsw()).get(0);
        // one column: the root is then the scratch leaf itself, which the next pass reuses
        if (units.length == 1) {
          out[qi][pl] = out[qi][pl].copy();
        }
      }
      if (t != null) {
        t.phase2Nanos += System.nanoTime() - t3;
      }
    }
    return out;
  }

  /**
   * The last step of a root with paired tails ({@link Geometry}): the paired plane's root R holds
   * the tails of columns 2j and 2j + 1 in its two halves; it becomes {@code CMux(ggsw[0], R, R
   * X^(-N/2))}, the wanted tail at the low coefficients (in place in {@code planeRoots}). Nothing
   * to do without paired tails or with one column. Call it once per root, before the answer.
   */
  public void selectTailHalf(Glwe[] planeRoots, Geometry g, PreparedGgsw[] ggsw) {
    if (!g.pairedTail() || g.cols() < 2) {
      return;
    }
    if (ggsw == null || ggsw.length < 1 || ggsw[0] == null) {
      throw new IllegalArgumentException("the paired tail's half needs the query's GGSW of"
          + " column bit 0");
    }
    int last = g.planes() - 1;
    Glwe r = planeRoots[last];
    int n = p.n();
    int half = n / 2;
    long[] src = r.data();
    Glwe rot = new Glwe(n, r.limbs());
    long[] dst = rot.data();
    for (int o = 0; o < src.length; o += n) { // X^(-N/2): x_i moves to i - N/2, negated below 0
      for (int i = 0; i < half; i++) {
        dst[o + i] = src[o + half + i];
        dst[o + half + i] = -src[o + i];
      }
    }
    Glwe sel = new Glwe(n, r.limbs());
    foldOps.cmux(ggsw[0], r, rot, sel);
    planeRoots[last] = sel;
  }

  private void checkQueries(Geometry g, PreparedQuery[] qs) {
    for (PreparedQuery q : qs) {
      if (!q.paramsId().equals(p.id()) || q.rows() != g.rows() || q.cols() != g.cols()) {
        throw new IllegalArgumentException("prepared query (" + q.paramsId() + ", " + q.rows()
            + "x" + q.cols() + ") does not match the database (" + p.id() + ", " + g.rows() + "x"
            + g.cols() + ")");
      }
    }
  }

  /** Columns per phase-1 pass for a range that folds to level {@code top}: min(CHUNK, 2^top). */
  private static int chunkSize(int top) {
    return Math.min(CHUNK, 1 << top);
  }

  /**
   * Columns per phase-1 pass over a range of {@code columns} columns (the scratch of a pass holds
   * this many columns per query): {@code min(CHUNK, 2^ceil(log2 columns))}.
   */
  public static int chunkColumns(int columns) {
    return chunkSize(Geometry.levels(columns));
  }

  /**
   * Phase 1 alone over all columns of plane 0 (for benchmarks): the batched pass, inverse FFT and
   * normalization; returns the number of GLWEs produced.
   */
  public long phase1Only(PreparedDatabase db, PreparedQuery[] qs) {
    checkQueries(db.geometry(), qs);
    // the chunk answerRange uses: scratch for 64 columns on a 9-column database was 25 MB
    // allocated and zeroed per call, slower than the whole answer
    int chunk = chunkSize(rangeLevel(db.geometry().cols(), db.columnCount()));
    Phase1 ph1 = new Phase1(db.geometry(), qs, chunk);
    long produced = 0;
    for (int c0 = 0; c0 < db.columnCount(); c0 += chunk) {
      int len = Math.min(chunk, db.columnCount() - c0);
      produced += ph1.run(db.plane(0), c0, len).size() * (long) len;
    }
    return produced;
  }

  /**
   * Phase-1 scratch of one thread, kept between calls (and between the Spark tasks a thread runs)
   * while its shape fits: allocating 40-50 MB per call made G1 grow eden into pages never
   * touched, and fresh JVMs then ran phase 1 up to 3x slower on page faults
   * (benchmarks/SLOW-JVM.md). Softly held, so memory pressure can reclaim it between calls.
   */
  private static final ThreadLocal<SoftReference<Scratch>> SCRATCH =
      new ThreadLocal<>();

  /** The pass's scratch: tmp for the batched VMP, res[q][c] transforms, leaves[q][c] GLWEs. */
  private static final class Scratch {
    final int n;
    final int glweLimbs;
    final int cols12;
    final double[] tmp;
    final double[][][] res;
    final Glwe[][] leaves;

    Scratch(int n, int glweLimbs, int cols12, int queries, int chunk, int tmpLength) {
      this.n = n;
      this.glweLimbs = glweLimbs;
      this.cols12 = cols12;
      tmp = new double[tmpLength];
      res = new double[queries][chunk][cols12 * n];
      leaves = new Glwe[queries][chunk];
      for (Glwe[] l : leaves) {
        for (int c = 0; c < chunk; c++) {
          l[c] = new Glwe(n, glweLimbs);
        }
      }
    }

    boolean fits(int n, int glweLimbs, int cols12, int queries, int chunk, int tmpLength) {
      return this.n == n && this.glweLimbs == glweLimbs && this.cols12 == cols12
          && res.length == queries && res[0].length == chunk && tmp.length >= tmpLength;
    }

    static Scratch of(int n, int glweLimbs, int cols12, int queries, int chunk, int tmpLength) {
      SoftReference<Scratch> ref = SCRATCH.get();
      Scratch s = ref == null ? null : ref.get();
      if (s == null || !s.fits(n, glweLimbs, cols12, queries, chunk, tmpLength)) {
        SCRATCH.remove();
        s = null; // let the old one go before allocating the new one
        s = new Scratch(n, glweLimbs, cols12, queries, chunk, tmpLength);
        SCRATCH.set(new SoftReference<>(s));
      }
      return s;
    }
  }

  /**
   * Phase 1 for one batch: the batched VMP pass of a chunk, then back to GLWEs. The GLWEs it
   * returns are the thread's scratch, overwritten by the next {@link #run}: a chunk of two or more
   * columns folds into fresh GLWEs before that; a chunk of one column is its own root and is
   * either combined with the other chunk roots before the next pass or (when it is the whole
   * range) copied.
   */
  private final class Phase1 {
    private final Pmat[] pm;
    private final Scratch sc;
    private final int n;
    private final Phase1Digits digits;

    /** The pass of every plane (a paired tail plane's pairs too: same rows). */
    Phase1(Geometry g, PreparedQuery[] qs, int chunk) {
      n = p.n();
      digits = digitsOf(qs[0]);
      digits.checkProducts(p, g.rows());
      for (PreparedQuery q : qs) {
        if (!digitsOf(q).equals(digits)) {
          throw new IllegalArgumentException("queries of one pass must share their phase-1"
              + " digits: " + digits + " and " + digitsOf(q));
        }
      }
      int cols12 = digits.columns();
      int nrows = g.rows() * p.plaintextLimbs();
      pm = new Pmat[qs.length];
      for (int i = 0; i < qs.length; i++) {
        pm[i] = qs[i].phase1();
      }
      sc = Scratch.of(n, p.foldLimbs(), cols12, qs.length, chunk,
          Vmp.applyPvecBatchTmpLength(qs.length, n, nrows, cols12, chunk));
    }

    /** The query's phase-1 digits (null in the query: the server's limbs). */
    private Phase1Digits digitsOf(PreparedQuery q) {
      return q.phase1Digits() == null ? Phase1Digits.limbsOf(p) : q.phase1Digits();
    }

    /** For each query, the GLWEs of columns [c0, c0 + len) of {@code cols} (scratch). */
    List<List<Glwe>> run(Pvec[] cols, int c0, int len) {
      Pvec[] part = Arrays.copyOfRange(cols, c0, c0 + len);
      double[][][] r = sc.res;
      if (len < r[0].length) {
        r = new double[pm.length][][];
        for (int qi = 0; qi < pm.length; qi++) {
          r[qi] = Arrays.copyOf(sc.res[qi], len);
        }
      }
      Vmp.get().applyPvecBatch(pm, part, r, sc.tmp);
      List<List<Glwe>> leaves = new ArrayList<>(pm.length);
      for (int qi = 0; qi < pm.length; qi++) {
        List<Glwe> l = new ArrayList<>(len);
        for (int c = 0; c < len; c++) {
          Glwe x = sc.leaves[qi][c];
          ops.fromTransforms(r[qi][c], 0, digits, x);
          l.add(x);
        }
        leaves.add(l);
      }
      return leaves;
    }
  }

  /**
   * The level of the node that a range of {@code count} columns folds to inside a grid of
   * {@code cols}: ceil(log2 count), or the whole tree's height when the range is the grid.
   */
  public static int rangeLevel(int cols, int count) {
    return count == cols ? Geometry.levels(cols) : Geometry.levels(count);
  }

  /**
   * Folds nodes at level {@code from} (node j covers columns [j 2^from, (j+1) 2^from) relative
   * to an aligned start) up to level {@code to}: at level t, nodes 2j and 2j+1 become {@code
   * CMux(ggsw[t], node 2j, node 2j+1)}; an unpaired last node rises unchanged ({@link CmuxFold}).
   */
  public List<Glwe> fold(List<Glwe> nodes, int from, int to, PreparedGgsw[] ggsw) {
    return folds.fold(nodes, from, to, ggsw);
  }
}
