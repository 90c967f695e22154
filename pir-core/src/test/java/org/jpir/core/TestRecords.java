package org.jpir.core;

import java.util.SplittableRandom;

/** A seeded synthetic database for tests: record i is recomputed from (seed, i). */
final class TestRecords implements RecordSource {
  private final long count;
  private final int size;
  private final long seed;

  TestRecords(long count, int size, long seed) {
    this.count = count;
    this.size = size;
    this.seed = seed;
  }

  @Override
  public long recordCount() {
    return count;
  }

  @Override
  public int recordSize() {
    return size;
  }

  @Override
  public void read(long index, byte[] dst, int off) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
    for (int i = 0; i < size; i++) {
      dst[off + i] = (byte) r.nextInt(256);
    }
  }

  byte[] record(long index) {
    byte[] b = new byte[size];
    read(index, b, 0);
    return b;
  }
}
