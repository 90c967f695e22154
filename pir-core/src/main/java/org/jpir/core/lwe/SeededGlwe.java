package org.jpir.core.lwe;

import org.jpir.core.params.Params;

/**
 * A GLWE ciphertext in seeded (compressed) form: its b part as K-bit digits in 16-bit words and
 * the (seed, stream) its mask is re-derived from. Layout: limb i, coefficient j of b at {@code
 * body[offset + i*N + j]} (i < limbs, j < N; the wire records' layout, so a seeded GLWE can be a
 * view of a query's or a key set's array). {@link #expand} gives the {@link Glwe} with {@code
 * data[i*N + j] = body[offset + i*N + j]} and {@code data[limbs*N + t]} = digit t of {@link
 * Prg#fillUniformDigits} on {@code new Prg(seed, stream)} (t < limbs*N): the mask that {@link
 * GlweOps#encryptSeeded} drew. Immutable by convention (the arrays are not copied: do not modify
 * them); a ciphertext, so nothing here is secret.
 */
public final class SeededGlwe {
  private final int n;
  private final int limbs;
  private final int base2k;
  private final byte[] seed;
  private final long stream;
  private final short[] body;
  private final int offset;

  /**
   * The seeded GLWE of preset {@code p} (its N, glweLimbs and K) whose b part is {@code
   * body[offset .. offset + glweLimbs*N)} (not copied) and whose mask is stream {@code stream} of
   * {@code seed}.
   *
   * @throws IllegalArgumentException when the seed is not {@value Prg#SEED_BYTES} bytes or the
   *     body does not hold {@code glweLimbs*N} digits from {@code offset}
   */
  public SeededGlwe(Params p, byte[] seed, long stream, short[] body, int offset) {
    int n = p.n();
    int limbs = p.glweLimbs();
    if (seed == null || seed.length != Prg.SEED_BYTES) {
      throw new IllegalArgumentException("seeded GLWE: the mask seed must be " + Prg.SEED_BYTES
          + " bytes, got " + (seed == null ? "null" : seed.length));
    }
    long per = (long) limbs * n;
    if (body == null || offset < 0 || offset + per > body.length) {
      throw new IllegalArgumentException("seeded GLWE: b part of " + limbs + " limbs x N = " + n
          + " digits at offset " + offset + " does not fit a body of "
          + (body == null ? "null" : body.length + " digits"));
    }
    this.n = n;
    this.limbs = limbs;
    this.base2k = p.base2k();
    this.seed = seed;
    this.stream = stream;
    this.body = body;
    this.offset = offset;
  }

  /** Ring degree N. */
  public int n() {
    return n;
  }

  /** Limbs of b (and of the re-derived mask). */
  public int limbs() {
    return limbs;
  }

  /** The mask seed ({@value Prg#SEED_BYTES} bytes; the backing array, not a copy). */
  public byte[] seed() {
    return seed;
  }

  /** The PRG stream of the mask. */
  public long stream() {
    return stream;
  }

  /** The array holding b (layout in the class comment; the backing array, not a copy). */
  public short[] body() {
    return body;
  }

  /** Where b starts in {@link #body()}. */
  public int offset() {
    return offset;
  }

  /** Copies b to {@code dst[dstOff + i*N + j]} (i < limbs, j < N). */
  public void copyBodyTo(short[] dst, int dstOff) {
    System.arraycopy(body, offset, dst, dstOff, limbs * n);
  }

  /**
   * The full GLWE (a new one): b sign-extended from the body and the mask re-derived from (seed,
   * stream), bit for bit the ciphertext whose b part this is (layout in the class comment).
   */
  public Glwe expand() {
    Glwe c = new Glwe(n, limbs);
    Digits.toLongs(body, offset, c.data(), c.offset(0, 0), limbs * n);
    fillMask(seed, stream, c, base2k);
    return c;
  }

  /**
   * Writes the mask of (seed, stream) into component a of {@code c}: {@code c.data()[c.offset(1,
   * 0) + t]} = digit t of {@code new Prg(seed, stream).fillUniformDigits(.., K)}, t < limbs*N.
   * The one derivation both encryption and {@link #expand} use.
   */
  static void fillMask(byte[] seed, long stream, Glwe c, int base2k) {
    new Prg(seed, stream).fillUniformDigits(c.data(), c.offset(1, 0), c.limbs() * c.n(), base2k);
  }
}
