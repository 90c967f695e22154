package org.jpir.core.server;

import java.util.SplittableRandom;

/**
 * A seeded synthetic database of any size: record i is recomputed on its own from (seed, i), so
 * any answer can be checked without storing the database. Not cryptographic; for tests, demos
 * and benchmarks.
 */
public final class SyntheticRecords extends SizedRecordSource {
  private final long seed;

  /** {@code count} records of {@code size} bytes generated from {@code seed}. */
  public SyntheticRecords(long count, int size, long seed) {
    super(count, size);
    this.seed = seed;
  }

  @Override
  public void read(long index, byte[] dst, int off) {
    checkIndex(index);
    int size = recordSize();
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
    int i = 0;
    for (; i + 8 <= size; i += 8) {
      long v = r.nextLong();
      for (int b = 0; b < 8; b++) {
        dst[off + i + b] = (byte) (v >>> (8 * b));
      }
    }
    long v = r.nextLong();
    for (; i < size; i++) {
      dst[off + i] = (byte) v;
      v >>>= 8;
    }
  }

  /** Record i as a new array. */
  public byte[] record(long index) {
    byte[] b = new byte[recordSize()];
    read(index, b, 0);
    return b;
  }
}
