package org.jpir.core.wire;

import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SeededGgsw;
import org.jpir.core.lwe.SeededGlwe;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;

/**
 * The query a client sends: the b parts of every ciphertext (K-bit digits as 16-bit words) and
 * one seed from which the server regenerates every mask. Phase-1 ciphertext {@code (r, l)} (row
 * r, plaintext limb l) is mask stream {@code r*plaintextLimbs + l} and its b part starts at
 * {@code (r*plaintextLimbs + l) * glweLimbs * N} in {@link #phase1B()}; GGSW t (column bit t,
 * least significant first), row q, is stream {@code rows*plaintextLimbs + t*2L + q} with b part
 * at {@code (t*2L + q) * glweLimbs * N} in {@link #ggswB()}. {@link #phase1} and {@link #ggsw}
 * give them as seeded ciphertexts.
 */
public record ClientQuery(String paramsId, int rows, int cols, byte[] seed, short[] phase1B,
    short[] ggswB) {

  /** Checks every length against the parameters; the message names the mismatch. */
  public void validate(Params p) {
    if (!p.id().equals(paramsId)) {
      throw new IllegalArgumentException("query is for preset '" + paramsId + "', server runs '"
          + p.id() + "'");
    }
    if (seed == null || seed.length != Prg.SEED_BYTES) {
      throw new IllegalArgumentException("query seed must be " + Prg.SEED_BYTES + " bytes");
    }
    long per = (long) p.glweLimbs() * p.n();
    long expect1 = (long) rows * p.plaintextLimbs() * per;
    if (phase1B == null || phase1B.length != expect1) {
      throw new IllegalArgumentException("query phase-1 part has "
          + (phase1B == null ? 0 : phase1B.length) + " digits, expected " + expect1 + " for "
          + rows + " rows");
    }
    long expect2 = (long) Geometry.levels(cols) * 2 * p.ggswLevels() * per;
    if (ggswB == null || ggswB.length != expect2) {
      throw new IllegalArgumentException("query phase-2 part has "
          + (ggswB == null ? 0 : ggswB.length) + " digits, expected " + expect2 + " for " + cols
          + " columns");
    }
  }

  /**
   * Mask stream of phase-1 ciphertext (row, limb): {@code row*plaintextLimbs + limb}, the stream
   * the client encrypts with and {@link #phase1} regenerates.
   */
  public static long phase1Stream(Params p, int row, int limb) {
    return (long) row * p.plaintextLimbs() + limb;
  }

  /**
   * Mask stream of GGSW {@code bit}, row {@code q}: {@code rows*plaintextLimbs + bit*2L + q},
   * after every phase-1 stream, the stream {@link #ggsw} regenerates.
   */
  public static long ggswStream(Params p, int rows, int bit, int q) {
    return (long) rows * p.plaintextLimbs() + (long) bit * 2 * p.ggswLevels() + q;
  }

  /**
   * Phase-1 ciphertext (row, limb) as a view of {@link #phase1B()}: stream {@code
   * row*plaintextLimbs + limb}, b at {@code (row*plaintextLimbs + limb) * glweLimbs * N}.
   *
   * @throws IllegalArgumentException when the seed or the array is too short for it
   */
  public SeededGlwe phase1(Params p, int row, int limb) {
    return new SeededGlwe(p, seed, phase1Stream(p, row, limb), phase1B,
        (row * p.plaintextLimbs() + limb) * p.glweLimbs() * p.n());
  }

  /**
   * GGSW of column bit {@code bit} as a view of {@link #ggswB()}: row q is stream {@code
   * rows*plaintextLimbs + bit*2L + q}, b at {@code (bit*2L + q) * glweLimbs * N}.
   *
   * @throws IllegalArgumentException when the seed or the array is too short for it
   */
  public SeededGgsw ggsw(Params p, int bit) {
    return SeededGgsw.of(p, seed, q -> ggswStream(p, rows, bit, q), ggswB,
        bit * 2 * p.ggswLevels() * p.glweLimbs() * p.n());
  }

  /** Bytes on the wire (payload only). */
  public long sizeBytes() {
    return 2L * (phase1B.length + ggswB.length) + seed.length;
  }
}
