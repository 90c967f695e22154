package org.jpir.spark.source;

import org.jpir.core.server.RecordSource;
import org.jpir.core.server.SyntheticRecords;

/** The seeded synthetic database: every executor recomputes its records from (seed, index). */
public record SyntheticSourceFactory(long count, int recordSize, long seed)
    implements RecordSourceFactory {
  @Override
  public RecordSource open() {
    return new SyntheticRecords(count, recordSize, seed);
  }

  @Override
  public String describe() {
    return "synthetic(" + count + " records x " + recordSize + " bytes, seed " + seed + ")";
  }
}
