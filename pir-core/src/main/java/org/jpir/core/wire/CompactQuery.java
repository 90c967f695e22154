package org.jpir.core.wire;

import org.jpir.core.lwe.BPacking;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SeededGlwe;
import org.jpir.core.params.CompactParams;

/**
 * A compact query: two packed GLWEs at the key parameters with seeded masks (stream 0: phase 1,
 * stream 1: phase 2), their b parts rounded to {@code queryBits} bits ({@link BPacking}) as
 * K-bit digits in 16-bit words, the client id and the fingerprint of the evaluation keys it was
 * made for.
 *
 * <p>Phase-1 packed message: slot {@code r * plaintextLimbs + l} holds {@code [r == target row] *
 * 2^(-K(l+1)) * 2^-l1}; phase-2: slot {@code t * ggswLevels + j} holds {@code bit_t(target
 * column) * 2^(-K(j+1)) * 2^-l2}, where {@code l = ceil(log2 slots)} is the expansion depth
 * (the expansion multiplies by 2^l). {@link #phase2B()} is empty when the database has one
 * column, and when the layout is packed ({@link CompactParams#layout}): then the phase-1 GLWE
 * holds both phases' values at the layout's slots, scaled by its depth L.
 */
public record CompactQuery(String paramsId, String clientId, long keysFingerprint, int rows,
    int cols, byte[] seed, short[] phase1B, short[] phase2B) {

  /** Mask stream of the phase-1 packed ciphertext, the one {@link #phase1} regenerates. */
  public static final long PHASE1_STREAM = 0;
  /** Mask stream of the phase-2 packed ciphertext, the one {@link #phase2} regenerates. */
  public static final long PHASE2_STREAM = 1;

  /** Checks every length against the parameters; the message names the mismatch. */
  public void validate(CompactParams cp) {
    if (!cp.id().equals(paramsId)) {
      throw new IllegalArgumentException("compact query is for preset '" + paramsId
          + "', server runs '" + cp.id() + "'");
    }
    EvaluationKeys.checkClientId(clientId);
    cp.checkGeometry(rows, cols);
    if (seed == null || seed.length != Prg.SEED_BYTES) {
      throw new IllegalArgumentException("compact query seed must be " + Prg.SEED_BYTES
          + " bytes");
    }
    int per = cp.keys().glweLimbs() * cp.keys().n();
    if (phase1B == null || phase1B.length != per) {
      throw new IllegalArgumentException("compact query phase-1 part has "
          + (phase1B == null ? 0 : phase1B.length) + " digits, expected " + per);
    }
    int e2 = cp.phase2Glwes(rows, cols) * per;
    if (phase2B == null || phase2B.length != e2) {
      throw new IllegalArgumentException("compact query phase-2 part has "
          + (phase2B == null ? 0 : phase2B.length) + " digits, expected " + e2 + " for " + cols
          + " columns");
    }
  }

  /**
   * The phase-1 packed ciphertext (a view of {@link #phase1B()}, mask stream 0),
   * at the key parameters.
   *
   * @throws IllegalArgumentException when the seed or the array has the wrong size
   */
  public SeededGlwe phase1(CompactParams cp) {
    return new SeededGlwe(cp.keys(), seed, PHASE1_STREAM, phase1B, 0);
  }

  /**
   * The phase-2 packed ciphertext (a view of {@link #phase2B()}, mask stream 1);
   * only when the query has one ({@code phase2B} not empty).
   *
   * @throws IllegalArgumentException when the seed or the array has the wrong size
   */
  public SeededGlwe phase2(CompactParams cp) {
    return new SeededGlwe(cp.keys(), seed, PHASE2_STREAM, phase2B, 0);
  }

  /** Bytes of the b parts on the wire at {@code cp.queryBits()} bits per coefficient. */
  public long sizeBytes(CompactParams cp) {
    int limbs = cp.keys().glweLimbs();
    return BPacking.bytes(phase1B.length / limbs, cp.queryBits())
        + BPacking.bytes(phase2B.length / limbs, cp.queryBits()) + seed.length + 8;
  }
}
