package org.jpir.core.server;

import java.util.SplittableRandom;
import org.jpir.core.params.Params;

/**
 * Records whose plaintext digits all sit at their extreme values: one record per polynomial;
 * records below {@code aligned} have every digit at {@code -2^(K-1)} (all signs aligned, the
 * FFT's worst case), every other record draws each digit from {@code -2^(K-1)} and the largest positive digit ({@code
 * 2^(K-1) - 1}, or {@code 2^(K-1) - 2^guard} in the last limb, whose guard bits are zero) with a
 * seeded coin, so records differ and a wrong selection shows. With the scaled encoding the digit
 * is the byte: -128 or 127.
 */
public final class ExtremeRecords implements RecordSource {
  private final Params p;
  private final long count;
  private final long seed;
  private final long aligned;

  public ExtremeRecords(Params p, long count, long seed, long aligned) {
    this.p = p;
    this.count = count;
    this.seed = seed;
    this.aligned = aligned;
  }

  @Override
  public long recordCount() {
    return count;
  }

  @Override
  public int recordSize() {
    return p.bytesPerPolynomial();
  }

  @Override
  public void read(long index, byte[] dst, int off) {
    int k = p.base2k();
    int limbs = p.plaintextLimbs();
    int guard = k * limbs - p.plaintextBits();
    int bpc = p.bytesPerCoefficient();
    long min = -(1L << (k - 1));
    SplittableRandom r = new SplittableRandom(seed * 1_000_003L + index);
    if (p.scaledPlaintext()) {
      // the scaled encoding's digit is the centred byte itself: -128 (0x80) or 127 (0x7f)
      for (int j = 0; j < p.n(); j++) {
        dst[off + j] = (byte) (index < aligned || r.nextBoolean() ? 0x80 : 0x7f);
      }
      return;
    }
    for (int j = 0; j < p.n(); j++) {
      long x = 0;
      for (int l = 0; l < limbs; l++) {
        long max = l == limbs - 1 ? (1L << (k - 1)) - (1L << guard) : (1L << (k - 1)) - 1;
        long d = index < aligned || r.nextBoolean() ? min : max;
        x = (x << k) + d;
      }
      long v = x >>> guard; // the guard bits of x are zero: every last-limb digit is a multiple
      for (int b = bpc - 1; b >= 0; b--) {
        dst[off + j * bpc + b] = (byte) v;
        v >>>= 8;
      }
    }
  }

  /** The record's bytes. */
  public byte[] record(long index) {
    byte[] b = new byte[recordSize()];
    read(index, b, 0);
    return b;
  }
}
