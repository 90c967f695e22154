package org.jpir.core.lwe;

import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;
import org.jpir.core.params.DigitForm;
import org.jpir.core.params.Gadget;
import org.jpir.core.params.Params;
import org.jpir.core.params.Phase1Digits;
import org.jpir.vmp.Aligned;
import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Reim;
import org.jpir.vmp.Vmp;
import org.jpir.vmp.Znx;

/**
 * GLWE and GGSW operations for one parameter set: encryption (also to the seeded forms {@link
 * SeededGlwe} and {@link SeededGgsw}, whose masks are re-derived from a seed), phase and noise
 * measurement, addition, the external product GLWE x GGSW and CMux. Holds scratch buffers:
 * one instance per thread.
 *
 * <p>Exactness: products of a limb polynomial (digits below 2^(K-1)) with the ternary secret or
 * with a GGSW row limb stay within the FFT's exact-product bound ({@link
 * FftPlan#EXACT_PRODUCT_BITS}): {@code 2(K-1) + log2(N * 2 * ggswLevels) <= 47} for the presets.
 */
public final class GlweOps {
  private final Params p;
  private final int n;
  private final int k;
  private final FftPlan plan;
  private final double[] reim;
  private final long[] prod;
  private final long[] carry;
  private final long[] digits;
  private final Gadget gadget;
  private final Encryptor enc;
  private final long[] gadgetScratch;
  private final double[] vec;
  private final double[] res;
  private final double[] vmpTmp;
  private final Glwe diff;
  /** The form this preset's GGSWs are prepared in ({@link DigitForm#ggswOf}). */
  private final DigitForm ggswForm;
  private long[] wide;

  /** Scratch for the parameters {@code p}. */
  public GlweOps(Params p) {
    this.p = p;
    this.n = p.n();
    this.k = p.base2k();
    this.plan = FftPlan.of(n);
    int lg = p.ggswLevels();
    int cols = p.glweColumns();
    this.reim = new double[n];
    this.prod = new long[n];
    this.carry = new long[n];
    this.digits = new long[2 * lg * n];
    this.gadget = p.ggswGadget();
    this.gadgetScratch = new long[gadget.scratchLength(n)];
    this.enc = new Encryptor(this, p, gadget);
    // the transforms start on 64-byte boundaries (index Aligned.LEAD; N is a multiple of 8)
    this.vec = Aligned.doubles(2 * lg * n);
    this.res = Aligned.doubles(cols * n);
    this.vmpTmp = new double[Vmp.applyDftToDftTmpLength(n, 2 * lg, cols)];
    this.diff = new Glwe(n, p.glweLimbs());
    this.ggswForm = DigitForm.ggswOf(p);
  }

  /** The parameters. */
  public Params params() {
    return p;
  }

  /** {@code out[outOff..+N) = a[aOff..+N) * s}, exactly (a's digits below 2^(K-1)). */
  private void mulBySecret(SecretKey sk, long[] a, int aOff, long[] out, int outOff) {
    Reim.fromZnx(n, a, aOff, reim, 0);
    plan.fft(reim, 0);
    Reim.mul(n, reim, 0, sk.fft(), 0, reim, 0);
    plan.ifft(reim, 0);
    Reim.toZnx(n, reim, 0, out, outOff);
  }

  /**
   * A fresh GLWE of {@code glweLimbs} limbs encrypting the torus polynomial {@code msg} (limb i
   * at {@code msg[i*N]}, any integer digits; null for zero): mask from {@code mask}, noise a
   * rounded Gaussian of {@code sigma} units of the last limb from {@code noise}. Normalized.
   */
  public Glwe encrypt(SecretKey sk, long[] msg, Prg mask, Prg noise) {
    int limbs = p.glweLimbs();
    Glwe c = new Glwe(n, limbs);
    long[] d = c.data();
    mask.fillUniformDigits(d, c.offset(1, 0), limbs * n, k);
    completeB(sk, c, msg, noise);
    return c;
  }

  /**
   * Fills the b part of {@code c} (whose mask is already set): {@code b = -a*s + msg + e},
   * normalized. Used by {@link #encrypt} and by seeded ciphertexts, whose mask is regenerated.
   */
  public void completeB(SecretKey sk, Glwe c, long[] msg, Prg noise) {
    int limbs = c.limbs();
    long[] d = c.data();
    addMaskTimesSecret(sk, c, -1, msg, d);
    int last = c.offset(0, limbs - 1);
    for (int j = 0; j < n; j++) {
      d[last + j] += noise.nextDiscreteGaussian(p.sigma());
    }
    Znx.normalize(n, k, d, 0, limbs, d, 0, limbs, carry);
  }

  /**
   * {@code dst[i*N + j] = src[i*N + j] + sign * (a*s)[i*N + j]} for every limb i of c ({@code src}
   * null: 0); the b part of c is {@code c.data()[i*N + j]}, so dst or src may be it.
   */
  private void addMaskTimesSecret(SecretKey sk, Glwe c, long sign, long[] src, long[] dst) {
    long[] d = c.data();
    for (int i = 0; i < c.limbs(); i++) {
      mulBySecret(sk, d, c.offset(1, i), prod, 0);
      for (int j = 0; j < n; j++) {
        dst[i * n + j] = (src == null ? 0 : src[i * n + j]) + sign * prod[j];
      }
    }
  }

  /** The phase {@code b + a*s} of c, normalized, into {@code out} ({@code c.limbs()*N} longs). */
  public void phase(SecretKey sk, Glwe c, long[] out) {
    int limbs = c.limbs();
    addMaskTimesSecret(sk, c, 1, c.data(), out);
    Znx.normalize(n, k, out, 0, limbs, out, 0, limbs, carry);
  }

  /**
   * The noise of c against the expected torus message {@code msg} (limb i at {@code msg[i*N]},
   * null for zero), per coefficient, as a real number in [-1/2, 1/2).
   */
  public double[] noise(SecretKey sk, Glwe c, long[] msg) {
    int limbs = c.limbs();
    long[] ph = new long[limbs * n];
    phase(sk, c, ph);
    if (msg != null) {
      int ml = Math.min(limbs, msg.length / n);
      for (int i = 0; i < ml * n; i++) {
        ph[i] -= msg[i];
      }
      Znx.normalize(n, k, ph, 0, limbs, ph, 0, limbs, carry);
    }
    double[] e = new double[n];
    for (int j = 0; j < n; j++) {
      double v = 0;
      for (int i = limbs - 1; i >= 0; i--) {
        v = (v + ph[i * n + j]) * Math.pow(2, -k);
      }
      e[j] = v;
    }
    return e;
  }

  /** {@code out = x + y} limb by limb, normalized; all three of x's limb count. */
  public void add(Glwe x, Glwe y, Glwe out) {
    combine(x, y, out, 1);
  }

  /** {@code out = x - y} limb by limb, normalized. */
  public void sub(Glwe x, Glwe y, Glwe out) {
    combine(x, y, out, -1);
  }

  private void combine(Glwe x, Glwe y, Glwe out, int sign) {
    if (x.limbs() != y.limbs() || x.limbs() != out.limbs() || x.n() != n || y.n() != n
        || out.n() != n) {
      throw new IllegalArgumentException("GLWE shapes differ: " + x.limbs() + ", " + y.limbs()
          + ", " + out.limbs() + " limbs at N=" + n);
    }
    long[] a = x.data();
    long[] b = y.data();
    long[] o = out.data();
    for (int i = 0; i < o.length; i++) {
      o[i] = a[i] + sign * b[i];
    }
    normalizeParts(out);
  }

  /** The FFT of every limb polynomial of c, column c at {@code c*N} of a new array. */
  public double[] transform(Glwe c) {
    return transformInto(c, new double[c.data().length]);
  }

  /** The FFT of every limb polynomial of c into {@code out} (column c at {@code c*N}). */
  public double[] transformInto(Glwe c, double[] out) {
    long[] d = c.data();
    for (int col = 0; col < 2 * c.limbs(); col++) {
      Reim.fromZnx(n, d, col * n, out, col * n);
      plan.fft(out, col * n);
    }
    return out;
  }

  /**
   * A GGSW of the bit {@code mu} (0 or 1), rows as in {@link Encryptor}, so that {@link
   * #externalProduct} multiplies a phase by mu.
   */
  public Ggsw encryptGgsw(SecretKey sk, int mu, Prg mask, Prg noise) {
    return encryptGgsw(sk, mu, row -> mask, noise);
  }

  /** As {@link #encryptGgsw(SecretKey, int, Prg, Prg)} with the mask of row r from {@code masks}. */
  public Ggsw encryptGgsw(SecretKey sk, int mu, IntFunction<Prg> masks, Prg noise) {
    return enc.encrypt(sk, mu, masks, noise);
  }

  /**
   * A fresh seeded GLWE of {@code msg} (as {@link #encrypt}) whose mask is stream {@code stream}
   * of {@code seed} ({@link SeededGlwe}): b at full precision, in a new body of glweLimbs*N digits.
   *
   * @throws IllegalArgumentException when the seed is not {@value Prg#SEED_BYTES} bytes
   */
  public SeededGlwe encryptSeeded(SecretKey sk, long[] msg, byte[] seed, long stream, Prg noise) {
    return enc.seeded(sk, msg, seed, stream, noise, 0);
  }

  /**
   * As {@link #encryptSeeded(SecretKey, long[], byte[], long, Prg)} with b rounded to {@code
   * bBits} bits ({@link BPacking#round}) before it is stored: compact queries and keys.
   *
   * @throws IllegalArgumentException when the seed is wrong or bBits is not in [1, K glweLimbs]
   */
  public SeededGlwe encryptSeeded(SecretKey sk, long[] msg, byte[] seed, long stream, Prg noise,
      int bBits) {
    return enc.seeded(sk, msg, seed, stream, noise, enc.checkBits(bBits));
  }

  /**
   * A seeded GGSW of the bit {@code mu} (the rows of {@link #encryptGgsw}), row q's mask stream
   * {@code streams.applyAsLong(q)} of {@code seed}, b at full precision.
   */
  public SeededGgsw encryptSeededGgsw(SecretKey sk, int mu, byte[] seed, IntToLongFunction streams,
      Prg noise) {
    return enc.encryptSeeded(sk, Encryptor.bit(n, mu), seed, streams, noise, 0);
  }

  /**
   * A seeded GGSW of the polynomial {@code m} (N small integer coefficients): row {@code kk*L +
   * j} has phase {@code m * g_j} (kk = 0) or {@code m * s * g_j} (kk = 1), {@code g_j =
   * 2^-(ggswBits (j+1))}, mask
   * stream {@code streams.applyAsLong(kk*L + j)} of {@code seed}, b rounded to {@code bBits} bits.
   *
   * @throws IllegalArgumentException when m does not have N coefficients, or the seed or bBits is
   *     wrong
   */
  public SeededGgsw encryptSeededGgsw(SecretKey sk, long[] m, byte[] seed,
      IntToLongFunction streams, Prg noise, int bBits) {
    return enc.encryptSeeded(sk, m, seed, streams, noise, enc.checkBits(bBits));
  }

  /**
   * The prepared form of a GGSW: a PMAT of nrows = 2 * ggswLevels, ncols = {@link
   * DigitForm#ggswOf}{@code (p).columns()} (each row part re-digited into that form's digits;
   * exact).
   *
   * @throws IllegalArgumentException when its levels are not the preset's
   */
  public PreparedGgsw prepare(Ggsw g) {
    return prepare(g, p.glweLimbs());
  }

  /**
   * {@link #prepare} for the CMux tree: each row in {@link Params#foldLimbs} limbs (rounded to
   * them when it has more), then in the digits of {@link DigitForm#ggswOf}{@code
   * (p.foldParams())} (its PMAT has twice as many columns), as {@code new
   * GlweOps(p.foldParams())} computes with; {@link #prepare} itself where the tree keeps every
   * limb.
   *
   * @throws IllegalArgumentException when its levels are not the preset's
   */
  public PreparedGgsw prepareForFold(Ggsw g) {
    return prepare(g, p.foldLimbs());
  }

  /**
   * The PMAT of g's rows in {@code limbs} limbs (a row of more limbs rounded to them), each part
   * re-digited into the GGSW form of those limbs ({@link DigitForm#ggswOf}; exact).
   */
  private PreparedGgsw prepare(Ggsw g, int limbs) {
    int lg = p.ggswLevels();
    if (g.levels() != lg) {
      throw new IllegalArgumentException("GGSW has " + g.rowCount() + " rows, preset " + p.id()
          + " needs " + 2 * lg);
    }
    DigitForm form = limbs == p.glweLimbs() ? ggswForm : DigitForm.ggswOf(p, limbs);
    boolean own = form.digitBits() == k && form.digits() == limbs;
    Pmat pm = Pmat.allocate(n, 2 * lg, form.columns());
    Glwe dg = own ? null : new Glwe(n, form.digits());
    double[] t = new double[form.columns() * n];
    for (int r = 0; r < g.rowCount(); r++) {
      Glwe row = g.row(r);
      Glwe in = row.limbs() > limbs ? round(row, limbs) : row;
      pm.prepareRow(r, transformInto(own ? in : redigit(in, form.digitBits(), dg), t), 0);
    }
    return new PreparedGgsw(pm);
  }

  /**
   * The external product {@code x (.) G}: a GLWE of glweLimbs limbs whose phase is {@code mu *
   * phase(x)} plus noise, where G (prepared) encrypts mu. x is decomposed by the preset's GGSW
   * gadget ({@link Params#ggswGadget}: rounded to {@code ggswBits * ggswLevels} bits per
   * component, at bits = K its limbs). Writes into {@code out}.
   */
  public void externalProduct(Glwe x, PreparedGgsw g, Glwe out) {
    Pmat ggsw = g.matrix();
    int lg = p.ggswLevels();
    int cols = ggswForm.columns();
    if (out.limbs() != p.glweLimbs() || ggsw.nrows() != 2 * lg || ggsw.ncols() != cols) {
      throw new IllegalArgumentException("external product shapes: GGSW " + ggsw.nrows() + "x"
          + ggsw.ncols() + ", output " + out.limbs() + " limbs; preset " + p.id() + " needs "
          + 2 * lg + "x" + cols + " and " + p.glweLimbs());
    }
    productTransforms(x, ggsw);
    fromProduct(null, out);
  }

  /**
   * The transforms of {@code x (.) G} into {@code res} at {@link Aligned#LEAD} (column c at
   * {@code +c*N}): x (any integer limb digits) decomposed, transformed and multiplied by G's PMAT.
   */
  private void productTransforms(Glwe x, Pmat ggsw) {
    int lg = p.ggswLevels();
    long[] xd = x.data();
    for (int kk = 0; kk < 2; kk++) {
      gadget.decompose(n, xd, x.offset(kk, 0), x.limbs(), digits, kk * lg * n, carry,
          gadgetScratch);
    }
    final int a0 = Aligned.LEAD;
    for (int r = 0; r < 2 * lg; r++) {
      Reim.fromZnx(n, digits, r * n, vec, a0 + r * n);
      plan.fft(vec, a0 + r * n);
    }
    Vmp.get().applyDftToDft(ggsw, vec, a0, 2 * lg, res, a0, ggsw.ncols(), vmpTmp);
  }

  /**
   * The product in {@code res} (the GGSW form's columns) back into out's limbs, plus the limbs
   * of {@code addend} (null: none; may be out), normalized: with the limbs form each column is a
   * limb; with wider digits each part's rounded columns are re-digited ({@link Znx#rebase},
   * exact) and the addend added before the one normalization.
   */
  private void fromProduct(Glwe addend, Glwe out) {
    if (ggswForm.isLimbsOf(p)) {
      fromTransformsPlus(res, Aligned.LEAD, addend, out);
      return;
    }
    // into diff (read by productTransforms, free now), so that out may be the addend
    fromDigitTransforms(res, Aligned.LEAD, ggswForm.digitBits(), ggswForm.digits(), diff);
    long[] dd = diff.data();
    long[] od = out.data();
    if (addend == null) {
      System.arraycopy(dd, 0, od, 0, od.length);
    } else {
      long[] ad = addend.data();
      for (int i = 0; i < od.length; i++) {
        od[i] = dd[i] + ad[i];
      }
    }
    normalizeParts(out);
  }

  /**
   * Inverse-transforms {@code 2*out.limbs()} reim polynomials (column c at {@code c*N}) into
   * {@code out}, rounding and normalizing each component. Overwrites {@code src}.
   */
  public void fromTransforms(double[] src, Glwe out) {
    fromTransforms(src, 0, out);
  }

  /** {@link #fromTransforms(double[], Glwe)} with column c at {@code srcOff + c*N}. */
  public void fromTransforms(double[] src, int srcOff, Glwe out) {
    fromTransformsPlus(src, srcOff, null, out);
  }

  /**
   * {@link #fromTransforms(double[], int, Glwe)} plus the limbs of {@code addend} (null: none;
   * same shape as out, and may be out itself) before the one normalization.
   */
  private void fromTransformsPlus(double[] src, int srcOff, Glwe addend, Glwe out) {
    long[] od = out.data();
    for (int c = 0; c < 2 * out.limbs(); c++) {
      plan.ifft(src, srcOff + c * n);
      if (addend == null) {
        Reim.toZnx(n, src, srcOff + c * n, od, c * n);
      } else {
        Reim.toZnxAdd(n, src, srcOff + c * n, addend.data(), c * n, od, c * n);
      }
    }
    normalizeParts(out);
  }

  /** Normalizes both parts of g in place. */
  private void normalizeParts(Glwe g) {
    long[] d = g.data();
    int limbs = g.limbs();
    Znx.normalize(n, k, d, 0, limbs, d, 0, limbs, carry);
    Znx.normalize(n, k, d, limbs * n, limbs, d, limbs * n, limbs, carry);
  }

  /**
   * As {@link #fromTransforms(double[], int, Glwe)} for transforms of {@code digits} (the
   * server's own limbs: exactly that method): {@code 2 digits.limbs()} reim columns (part kk,
   * digit i at {@code srcOff + (kk digits.limbs() + i) N}) are inverse-transformed, rounded to integers and re-digited ({@link
   * Znx#rebase}; K-bit digits: {@link Znx#normalize}) into out's K-bit limbs, normalized; exact
   * when out holds at least the digits' bits. Overwrites {@code src}.
   */
  public void fromTransforms(double[] src, int srcOff, Phase1Digits digits, Glwe out) {
    if (digits.isLimbsOf(p) && out.limbs() == p.glweLimbs()) {
      fromTransforms(src, srcOff, out);
      return;
    }
    fromDigitTransforms(src, srcOff, digits.limbBits(), digits.limbs(), out);
  }

  /**
   * {@code 2 dl} reim columns of digits of {@code digitBits} bits (part kk, digit i at {@code
   * srcOff + (kk dl + i) N}) inverse-transformed, rounded to integers and re-digited into out's
   * K-bit limbs ({@link Znx#rebase}; K-bit digits: {@link Znx#normalize}), normalized; exact when
   * out holds at least the digits' bits. Overwrites {@code src}.
   */
  private void fromDigitTransforms(double[] src, int srcOff, int digitBits, int dl, Glwe out) {
    if (wide == null || wide.length < 2 * dl * n) {
      wide = new long[2 * dl * n];
    }
    for (int c = 0; c < 2 * dl; c++) {
      plan.ifft(src, srcOff + c * n);
      Reim.toZnx(n, src, srcOff + c * n, wide, c * n);
    }
    long[] od = out.data();
    for (int kk = 0; kk < 2; kk++) {
      if (digitBits == k) {
        Znx.normalize(n, k, wide, kk * dl * n, dl, od, out.offset(kk, 0), out.limbs(), carry);
      } else {
        Znx.rebase(n, digitBits, wide, kk * dl * n, dl, k, od, out.offset(kk, 0), out.limbs());
      }
    }
  }

  /**
   * {@code out} = the GLWE c (any integer digits of K bits, e.g. of more limbs than the server's)
   * re-digited into {@code digits} per part, rounded to their bits ({@link Znx#rebase}; K-bit
   * digits: {@link #roundInto}):
   * the form of a phase-1 row whose digits are not the limbs. Returns out ({@code
   * digits.limbs()} limbs).
   */
  public Glwe toDigits(Glwe c, Phase1Digits digits, Glwe out) {
    if (out.limbs() != digits.limbs() || out.n() != n || c.n() != n) {
      throw new IllegalArgumentException("toDigits: output of " + out.limbs() + " limbs for "
          + digits);
    }
    if (digits.limbBits() == k) {
      return roundInto(c, out);
    }
    return redigit(c, digits.limbBits(), out);
  }

  /**
   * {@code out} = both parts of c (any integer digits of K bits) re-digited into out's {@code
   * out.limbs()} digits of {@code digitBits} bits, rounded to their bits ({@link Znx#rebase}).
   * Returns out.
   */
  public Glwe redigit(Glwe c, int digitBits, Glwe out) {
    for (int kk = 0; kk < 2; kk++) {
      Znx.rebase(n, k, c.data(), c.offset(kk, 0), c.limbs(), digitBits, out.data(),
          out.offset(kk, 0), out.limbs());
    }
    return out;
  }

  /**
   * CMux: {@code out = x0 + (x1 - x0) (.) G}, which is x1 when G encrypts 1 and x0 when it
   * encrypts 0 (plus one external product's noise). All of glweLimbs limbs; out may be x0 or
   * x1.
   */
  public void cmux(PreparedGgsw ggsw, Glwe x0, Glwe x1, Glwe out) {
    Pmat g = ggsw.matrix();
    int limbs = p.glweLimbs();
    if (x0.limbs() != limbs || x1.limbs() != limbs || out.limbs() != limbs || x0.n() != n
        || x1.n() != n || out.n() != n || g.nrows() != 2 * p.ggswLevels()
        || g.ncols() != ggswForm.columns()) {
      throw new IllegalArgumentException("CMux shapes: GLWEs of " + x0.limbs() + ", "
          + x1.limbs() + ", " + out.limbs() + " limbs at N=" + x0.n() + ", GGSW " + g.nrows()
          + "x" + g.ncols() + "; preset " + p.id() + " needs " + limbs + " limbs, "
          + 2 * p.ggswLevels() + "x" + ggswForm.columns());
    }
    // x1 - x0 limb by limb, not normalized: the decomposition takes any integer digits
    long[] a = x1.data();
    long[] b = x0.data();
    long[] d = diff.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = a[i] - b[i];
    }
    productTransforms(diff, g);
    // the product back to limbs plus x0, then one normalization (out may be x0 or x1)
    fromProduct(x0, out);
  }

  /**
   * Rounds c to {@code limbs} limbs per component (the answer's size); the rounding adds at most
   * half a unit of the last kept limb to b and to a.
   */
  public Glwe round(Glwe c, int limbs) {
    return roundInto(c, new Glwe(n, limbs));
  }

  /** {@link #round} into {@code out} (its limbs are the kept ones; not c); returns out. */
  public Glwe roundInto(Glwe c, Glwe out) {
    if (out == c || out.limbs() > c.limbs()) {
      throw new IllegalArgumentException("roundInto: out must be another GLWE of at most "
          + c.limbs() + " limbs, got " + out.limbs());
    }
    int limbs = out.limbs();
    long[] cd = c.data();
    long[] od = out.data();
    for (int kk = 0; kk < 2; kk++) {
      Znx.normalize(n, k, cd, c.offset(kk, 0), c.limbs(), od, out.offset(kk, 0), limbs, carry);
    }
    return out;
  }
}
