package org.jpir.core.lwe;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A deterministic cryptographic generator: AES-256 in counter mode keyed by a 32-byte seed, one
 * independent stream per {@code stream} id. Masks of seeded ciphertexts ({@link SeededGlwe}) are
 * regenerated from (seed, stream); secrets and noise come from a generator seeded by {@link
 * SecureRandom} ({@link #fromSecureRandom}). Not thread-safe.
 */
public final class Prg {
  /** Seed length in bytes. */
  public static final int SEED_BYTES = 32;

  private final Cipher cipher;
  private final byte[] zeros = new byte[4096];
  private final byte[] buf = new byte[4096];
  private int pos = buf.length;
  private double spareGaussian = Double.NaN;

  /** The stream {@code stream} of the generator keyed by {@code seed} (32 bytes). */
  public Prg(byte[] seed, long stream) {
    if (seed == null || seed.length != SEED_BYTES) {
      throw new IllegalArgumentException("PRG seed must be " + SEED_BYTES + " bytes, got "
          + (seed == null ? "null" : seed.length));
    }
    byte[] iv = new byte[16];
    for (int i = 0; i < 8; i++) {
      iv[i] = (byte) (stream >>> (56 - 8 * i));
    }
    try {
      cipher = Cipher.getInstance("AES/CTR/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(seed, "AES"), new IvParameterSpec(iv));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/CTR is not available in this JVM", e);
    }
  }

  /** A fresh seed from {@code random}. */
  public static byte[] newSeed(SecureRandom random) {
    byte[] s = new byte[SEED_BYTES];
    random.nextBytes(s);
    return s;
  }

  /** A generator keyed by a fresh seed drawn from {@code random}, for secrets and noise. */
  public static Prg fromSecureRandom(SecureRandom random) {
    return new Prg(newSeed(random), 0);
  }

  private void refill() {
    try {
      int k = cipher.update(zeros, 0, zeros.length, buf, 0);
      if (k != buf.length) {
        throw new IllegalStateException("AES/CTR produced " + k + " bytes");
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    pos = 0;
  }

  /** 64 uniform bits. */
  public long nextLong() {
    if (pos > buf.length - 8) {
      refill();
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (buf[pos++] & 0xFF);
    }
    return v;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  public double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** A standard normal variate (Box-Muller). */
  public double nextGaussian() {
    if (!Double.isNaN(spareGaussian)) {
      double g = spareGaussian;
      spareGaussian = Double.NaN;
      return g;
    }
    double u1;
    do {
      u1 = nextDouble();
    } while (u1 == 0);
    double u2 = nextDouble();
    double r = Math.sqrt(-2 * Math.log(u1));
    spareGaussian = r * Math.sin(2 * Math.PI * u2);
    return r * Math.cos(2 * Math.PI * u2);
  }

  /** A rounded Gaussian sample of standard deviation sigma (a discrete Gaussian). */
  public long nextDiscreteGaussian(double sigma) {
    return Math.round(sigma * nextGaussian());
  }

  /** Uniform in {-1, 0, 1} (rejection sampling of bytes, so unbiased). */
  public int nextTernary() {
    while (true) {
      if (pos >= buf.length) {
        refill();
      }
      int b = buf[pos++] & 0xFF;
      if (b < 255) {
        return b % 3 - 1;
      }
    }
  }

  /**
   * Fills {@code dst[off..off+len)} with digits uniform in {@code [-2^(K-1), 2^(K-1))}; each digit
   * takes 2 bytes of the stream (K at most 16).
   */
  public void fillUniformDigits(long[] dst, int off, int len, int base2k) {
    if (base2k < 1 || base2k > 16) {
      throw new IllegalArgumentException("uniform digits of " + base2k + " bits: K must be in"
          + " [1, 16]");
    }
    int shift = 32 - base2k;
    int i = 0;
    while (i < len) {
      if (pos > buf.length - 2) {
        refill();
      }
      int avail = Math.min(len - i, (buf.length - pos) >> 1);
      for (int t = 0; t < avail; t++) {
        int w = ((buf[pos] & 0xFF) << 24) | ((buf[pos + 1] & 0xFF) << 16);
        dst[off + i + t] = w >> shift;
        pos += 2;
      }
      i += avail;
    }
  }
}
