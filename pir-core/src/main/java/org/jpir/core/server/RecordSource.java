package org.jpir.core.server;

/**
 * Random access to the records of a database: record i is {@link #recordSize()} bytes (shorter
 * records are zero-padded by the source). Implementations stream from files or recompute
 * records; none needs to hold the database in memory.
 */
public interface RecordSource {
  /** Number of records. */
  long recordCount();

  /** Bytes per record. */
  int recordSize();

  /** Copies record {@code index} into {@code dst[off .. off + recordSize())}. */
  void read(long index, byte[] dst, int off);
}
