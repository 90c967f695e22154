package org.jpir.core.lwe;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import org.jpir.core.params.AnswerSwitch;
import org.jpir.core.params.Gadget;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Reim;
import org.jpir.vmp.Vmp;
import org.jpir.vmp.Znx;

/**
 * Answers of records spanning t planes with one shared mask: the t final GLWEs {@code (b_p, a_p)}
 * under s are key-switched into one ciphertext {@code (B_0, .., B_{t-1}, a*)} with {@code B_j +
 * a* s_j = m_j + e}, under t fresh secrets s_j of the client, then modulus-switched as usual
 * ({@link AnswerSwitch}; the server's {@code PirServer.toSharedAnswer} does both). The answer
 * then carries t b parts and one a part instead of t of each.
 *
 * <p>Key ({@link Key}, made by the client, uploaded once): for input plane p and level i &lt; L
 * ({@link #levels} K-bit digits), a row with one uniform mask {@code A_{p,i}} (from a seed) and t
 * b parts {@code B_{p,i,j} = -A_{p,i} s_j + [j == p] s 2^(-K(i+1)) + e}, i.e. GLWE encryptions of
 * {@code [j == p] g_i s} under s_j sharing their mask. Row {@code r = p L + i}, component j &lt; t
 * is {@code B_{p,i,j}}, component t is {@code A_{p,i}}; limb l of component c at {@code (c limbs +
 * l) N} of the row.
 *
 * <p>Packing: with {@code d_{p,i}} the L digits of a_p (a_p rounded to L limbs), {@code a* = sum
 * d_{p,i} A_{p,i}} and {@code B_j = b_j + sum d_{p,i} B_{p,i,j}}: then {@code B_j + a* s_j = b_j +
 * (sum_i d_{j,i} g_i) s + sum d e = m_j + e_j - eps_j s + sum d e}, where eps_j is the rounding
 * of a_j to L limbs. Added variance ({@link #variance}): {@code t L N E[d^2] fresh + N (2/3)
 * u^2/12}, {@code u = 2^(-K L)}. Security: each row is an RLWE sample under s_j; rows of one
 * (p, i) share their mask across independent secrets (multi-secret RLWE, as hard as RLWE), and
 * they encrypt s under the s_j (a key-switching key, the usual assumption).
 */
public final class PlanePacking {
  /**
   * Gadget digits of a_p: {@code glweLimbs - 1} digits of K bits (4 at the compact preset: a_p
   * rounded to 64 bits, truncation std 2^-60 against an answer noise of 2^-44.5; 5 at the classic
   * one, 2^-76 against 2^-60).
   */
  public static int levels(Params p) {
    return p.glweLimbs() - 1;
  }

  /**
   * Most planes one packing covers: the key grows as {@code t^2} ({@code t^2 L glweLimbs N}
   * digits: 10.5 MB at t = 8, N = 4096); records of more planes would need groups of planes.
   */
  public static final int MAX_PLANES = 8;

  private final Params p;
  private final int t;
  private final int n;
  private final int limbs;
  private final int levels;
  private final FftPlan plan;

  /** Packing of {@code planes} planes at parameters {@code p} (the server's). */
  public PlanePacking(Params p, int planes) {
    if (planes < 2 || planes > MAX_PLANES) {
      throw new IllegalArgumentException("plane packing needs 2 to " + MAX_PLANES
          + " planes, got " + planes);
    }
    if (p.glweLimbs() < 2) {
      throw new IllegalArgumentException("plane packing needs 2 limbs, preset " + p.id()
          + " has " + p.glweLimbs());
    }
    this.p = p;
    this.t = planes;
    this.n = p.n();
    this.limbs = p.glweLimbs();
    this.levels = levels(p);
    this.plan = FftPlan.of(n);
  }

  /** Planes packed. */
  public int planes() {
    return t;
  }

  /** Components of a key row and of the packed ciphertext: t b parts and one a. */
  public int components() {
    return t + 1;
  }

  /** Key rows: {@code t L}. */
  public int rows() {
    return t * levels;
  }

  /**
   * The noise variance packing adds to every b part: {@code t L N E[d^2] fresh(p) + N (2/3)
   * u^2/12}, {@code u = 2^(-K L)}.
   */
  public static double variance(Params p, int planes) {
    double u2 = Math.pow(2, -2.0 * p.base2k() * levels(p));
    return (double) planes * levels(p) * p.n() * Noise.uniformDigitSquare(p.base2k())
        * Noise.fresh(p) + p.n() * 2.0 / 3 * u2 / 12;
  }

  /**
   * The client's side: the t answer secrets and the key rows (b parts; masks from {@code seed}).
   *
   * @param secrets the answer secrets s_j (never sent)
   * @param seed mask seed of the rows
   * @param rowsB b parts: row r, component j &lt; t, limb l at {@code ((r t + j) limbs + l) N}
   */
  public record Key(SecretKey[] secrets, byte[] seed, long[] rowsB) {
    /** What the client uploads: the planes, the seed and the rows' b parts (no secret). */
    public Upload upload() {
      return new Upload(secrets.length, seed.clone(), rowsB.clone());
    }
  }

  /**
   * A packing key as the server receives it ({@link org.jpir.core.wire.Wire#writePackingKey}).
   *
   * @param planes t
   * @param seed mask seed of the rows
   * @param rowsB the rows' b parts, layout of {@link Key#rowsB}, normalized K-bit digits
   */
  public record Upload(int planes, byte[] seed, long[] rowsB) {}

  /** Digits of a key's b parts: {@code t L t limbs N}. */
  public long keyDigits() {
    return (long) rows() * t * limbs * n;
  }

  /** Mask stream of key row r. */
  static long stream(int r) {
    return (3L << 32) + r;
  }

  /**
   * The t answer secrets of the client whose query secret is {@code s}: uniform ternary, derived
   * from s (the PRG keyed by {@code SHA-256("jpir plane packing" || s)}, stream j), so a client
   * needs no secret beyond its key file to decode shared-mask answers.
   */
  public SecretKey[] answerSecrets(SecretKey s) {
    if (!s.params().equals(p)) {
      throw new IllegalArgumentException("secret of preset " + s.params().id() + ", packing for "
          + p.id());
    }
    byte[] seed;
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update("jpir plane packing".getBytes(StandardCharsets.UTF_8));
      for (long c : s.coefficients()) {
        md.update((byte) c);
      }
      seed = md.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available in this JVM", e);
    }
    SecretKey[] sj = new SecretKey[t];
    for (int j = 0; j < t; j++) {
      Prg prg = new Prg(seed, j);
      long[] c = new long[n];
      for (int i = 0; i < n; i++) {
        c[i] = prg.nextTernary();
      }
      sj[j] = new SecretKey(p, c);
    }
    Arrays.fill(seed, (byte) 0);
    return sj;
  }

  /**
   * A packing key for the client whose query secret is {@code s}: its answer secrets ({@link
   * #answerSecrets}) and fresh rows (mask seed and noise from {@code random}).
   */
  public Key generate(SecretKey s, SecureRandom random) {
    SecretKey[] sj = answerSecrets(s);
    byte[] seed = Prg.newSeed(random);
    Prg noise = Prg.fromSecureRandom(random);
    GlweOps ops = new GlweOps(p);
    long[] rowsB = new long[rows() * t * limbs * n];
    long[] sCoeffs = s.coefficients();
    long[] msg = new long[limbs * n];
    for (int pl = 0; pl < t; pl++) {
      for (int i = 0; i < levels; i++) {
        int r = pl * levels + i;
        long[] mask = mask(seed, r);
        for (int j = 0; j < t; j++) {
          Glwe c = new Glwe(n, limbs);
          System.arraycopy(mask, 0, c.data(), c.offset(1, 0), limbs * n);
          Arrays.fill(msg, 0);
          if (j == pl) {
            System.arraycopy(sCoeffs, 0, msg, i * n, n);
          }
          ops.completeB(sj[j], c, msg, noise);
          System.arraycopy(c.data(), c.offset(0, 0), rowsB, (r * t + j) * limbs * n, limbs * n);
        }
      }
    }
    return new Key(sj, seed, rowsB);
  }

  /** The mask of key row r: {@code limbs} uniform K-bit digit polynomials from the seed. */
  long[] mask(byte[] seed, int r) {
    long[] m = new long[limbs * n];
    new Prg(seed, stream(r)).fillUniformDigits(m, 0, limbs * n, p.base2k());
    return m;
  }

  /** The server's form of a key: the rows as a PMAT of {@code t L} rows x {@code (t+1) limbs}. */
  public Pmat prepare(Upload u) {
    if (u.planes() != t) {
      throw new IllegalArgumentException("packing key for " + u.planes() + " planes, the"
          + " database has " + t);
    }
    return prepare(u.seed(), u.rowsB());
  }

  /** {@link #prepare(Upload)} from the seed and b parts. */
  public Pmat prepare(byte[] seed, long[] rowsB) {
    if (seed.length != Prg.SEED_BYTES || rowsB.length != (long) rows() * t * limbs * n) {
      throw new IllegalArgumentException("packing key of " + rowsB.length + " digits, needs "
          + (long) rows() * t * limbs * n);
    }
    int cols = components() * limbs;
    Pmat pm = Pmat.allocate(n, rows(), cols);
    double[] row = new double[cols * n];
    for (int r = 0; r < rows(); r++) {
      long[] mask = mask(seed, r);
      for (int c = 0; c < components(); c++) {
        for (int l = 0; l < limbs; l++) {
          long[] src = c < t ? rowsB : mask;
          int off = c < t ? ((r * t + c) * limbs + l) * n : l * n;
          Reim.fromZnx(n, src, off, row, (c * limbs + l) * n);
          plan.fft(row, (c * limbs + l) * n);
        }
      }
      pm.prepareRow(r, row, 0);
    }
    return pm;
  }

  /**
   * Packs the t plane roots (GLWEs of the preset's limbs under s) into {@code (B_0..B_{t-1},
   * a*)}: component c, limb l at {@code (c limbs + l) N} of the result, normalized.
   */
  public long[] pack(Glwe[] roots, Pmat key) {
    if (roots.length != t || key.nrows() != rows() || key.ncols() != components() * limbs) {
      throw new IllegalArgumentException("packing " + roots.length + " planes with a key of "
          + key.nrows() + " x " + key.ncols() + "; needs " + t + " planes, " + rows() + " x "
          + components() * limbs);
    }
    int k = p.base2k();
    long[] digits = new long[rows() * n];
    long[] carry = new long[n];
    double[] vec = new double[rows() * n];
    for (int pl = 0; pl < t; pl++) {
      Glwe c = roots[pl];
      Znx.normalize(n, k, c.data(), c.offset(1, 0), c.limbs(), digits, pl * levels * n, levels,
          carry);
    }
    for (int r = 0; r < rows(); r++) {
      Reim.fromZnx(n, digits, r * n, vec, r * n);
      plan.fft(vec, r * n);
    }
    int cols = components() * limbs;
    double[] res = new double[cols * n];
    Vmp.get().applyDftToDft(key, vec, 0, rows(), res, 0, cols,
        new double[Vmp.applyDftToDftTmpLength(n, rows(), cols)]);
    long[] out = new long[cols * n];
    for (int c = 0; c < cols; c++) {
      plan.ifft(res, c * n);
      Reim.toZnx(n, res, c * n, out, c * n);
    }
    for (int j = 0; j < t; j++) {
      Glwe c = roots[j];
      if (c.limbs() != limbs) {
        throw new IllegalArgumentException("plane root of " + c.limbs() + " limbs, needs "
            + limbs);
      }
      for (int i = 0; i < limbs * n; i++) {
        out[j * limbs * n + i] += c.data()[c.offset(0, 0) + i];
      }
    }
    for (int c = 0; c < components(); c++) {
      Znx.normalize(n, k, out, c * limbs * n, limbs, out, c * limbs * n, limbs, carry);
    }
    return out;
  }
}
