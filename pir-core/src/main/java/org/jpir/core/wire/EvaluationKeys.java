package org.jpir.core.wire;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.jpir.core.lwe.BPacking;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SeededGgsw;
import org.jpir.core.lwe.SeededGlwe;
import org.jpir.core.params.CompactParams;

/**
 * A client's evaluation keys, as uploaded once to the server: the b parts of seeded GLWEs at the
 * key parameters ({@code keys.glweLimbs()} limbs of K-bit digits as 16-bit words, rounded to
 * {@code keyBits} bits, {@link BPacking}) and the seed of their masks.
 *
 * <p>A client uploads keys for automorphisms j = 0 .. {@link #automorphisms(CompactParams)} -
 * 1: the expansion depth of its geometry ({@link CompactParams#keyDepth}). Key-switching key of automorphism j ({@code X -> X^(N/2^j + 1)}), level i: mask stream
 * {@code j * ksLevels + i}, b part at {@code (j * ksLevels + i) * keyLimbs * N} of {@link
 * #kskB()}; its phase is {@code s(X^p) * 2^(-K(i+1))}. GGSW of s, row q ({@code q = kk*Ls + i}):
 * stream {@code 2^32 + q}, b part at {@code q * keyLimbs * N} of {@link #ggswSB()}; its phase is
 * {@code s * 2^(-K(i+1))} (kk = 0) or {@code s^2 * 2^(-K(i+1))} (kk = 1), so the external product
 * with it multiplies a phase by s.
 */
public record EvaluationKeys(String paramsId, String clientId, byte[] seed, short[] kskB,
    short[] ggswSB) {

  /**
   * Mask stream of key-switching key (automorphism j, level i): {@code j * ksLevels + i}, the
   * stream {@link #ksk} regenerates.
   */
  public static long kskStream(CompactParams cp, int j, int i) {
    return (long) j * cp.ksLevels() + i;
  }

  /**
   * Mask stream of row q of the GGSW of s: {@code 2^32 + q}, apart from every key-switching
   * stream; the stream {@link #ggswS} regenerates.
   */
  public static long ggswStream(int q) {
    return (1L << 32) + q;
  }

  /**
   * Key-switching key of automorphism j, level i, as a view of {@link #kskB()} at the key
   * parameters: stream {@code j*ksLevels + i}, b at {@code (j*ksLevels + i) * keyLimbs * N}.
   *
   * @throws IllegalArgumentException when the seed or the array is too short for it
   */
  public SeededGlwe ksk(CompactParams cp, int j, int i) {
    return new SeededGlwe(cp.keys(), seed, kskStream(cp, j, i), kskB,
        (j * cp.ksLevels() + i) * cp.keys().glweLimbs() * cp.keys().n());
  }

  /**
   * The GGSW of s as a view of {@link #ggswSB()} at the key parameters: row q is stream {@code
   * 2^32 + q}, b at {@code q * keyLimbs * N}.
   *
   * @throws IllegalArgumentException when the seed or the array has the wrong size
   */
  public SeededGgsw ggswS(CompactParams cp) {
    return SeededGgsw.of(cp.keys(), seed, EvaluationKeys::ggswStream, ggswSB, 0);
  }

  /** Checks a client id: 1 to 64 characters of {@code [A-Za-z0-9._-]}. */
  public static String checkClientId(String id) {
    if (id == null || !id.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("client id " + (id == null ? "null" : "'" + id + "'")
          + " must be 1 to 64 characters of [A-Za-z0-9._-]");
    }
    return id;
  }

  /** Automorphism keys held: {@code kskB.length / (ksLevels keyLimbs N)}. */
  public int automorphisms(CompactParams cp) {
    return (int) (kskB.length / ((long) cp.ksLevels() * cp.keys().glweLimbs() * cp.keys().n()));
  }

  /**
   * Throws unless these keys cover the expansion depth of a rows x cols geometry.
   *
   * @throws IllegalArgumentException naming the depth held and needed
   */
  public void checkDepth(CompactParams cp, int rows, int cols) {
    int need = cp.keyDepth(rows, cols);
    if (automorphisms(cp) < need) {
      throw new IllegalArgumentException("evaluation keys of client '" + clientId + "' cover "
          + automorphisms(cp) + " expansion levels, a " + rows + " x " + cols + " database needs "
          + need + ": make keys for this database's geometry");
    }
  }

  /** Checks every length against the compact parameters; the message names the mismatch. */
  public void validate(CompactParams cp) {
    if (!cp.id().equals(paramsId)) {
      throw new IllegalArgumentException("evaluation keys are for preset '" + paramsId
          + "', server runs '" + cp.id() + "'");
    }
    checkClientId(clientId);
    if (seed == null || seed.length != Prg.SEED_BYTES) {
      throw new IllegalArgumentException("evaluation key seed must be " + Prg.SEED_BYTES
          + " bytes");
    }
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    long e1 = (long) cp.ksLevels() * per;
    if (kskB == null || kskB.length % e1 != 0 || kskB.length / e1 > cp.automorphisms()) {
      throw new IllegalArgumentException("evaluation keys hold " + (kskB == null ? 0 : kskB.length)
          + " key-switching digits, preset " + cp.id() + " needs a multiple of " + e1
          + " (one automorphism), at most " + cp.automorphisms() + " automorphisms");
    }
    long e2 = 2L * cp.keys().ggswLevels() * per;
    if (ggswSB == null || ggswSB.length != e2) {
      throw new IllegalArgumentException("evaluation keys hold "
          + (ggswSB == null ? 0 : ggswSB.length) + " GGSW(s) digits, preset " + cp.id()
          + " needs " + e2);
    }
  }

  /**
   * A fingerprint of these keys (first 8 bytes of SHA-256 over preset, client id, seed and every
   * digit): a compact query names the keys it was made for, so the server rejects a query whose
   * client holds other keys instead of answering garbage.
   */
  public long fingerprint() {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(paramsId.getBytes(StandardCharsets.UTF_8));
      md.update((byte) 0);
      md.update(clientId.getBytes(StandardCharsets.UTF_8));
      md.update((byte) 0);
      md.update(seed);
      for (short[] a : new short[][] {kskB, ggswSB}) {
        byte[] buf = new byte[2 * a.length];
        for (int i = 0; i < a.length; i++) {
          buf[2 * i] = (byte) (a[i] >> 8);
          buf[2 * i + 1] = (byte) a[i];
        }
        md.update(buf);
      }
      byte[] h = md.digest();
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = (v << 8) | (h[i] & 0xFF);
      }
      return v;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available in this JVM", e);
    }
  }

  /** Bytes of the b parts and seed on the wire at {@code cp.keyBits()} bits per coefficient. */
  public long sizeBytes(CompactParams cp) {
    int limbs = cp.keys().glweLimbs();
    return BPacking.bytes(kskB.length / limbs, cp.keyBits())
        + BPacking.bytes(ggswSB.length / limbs, cp.keyBits()) + seed.length;
  }
}
