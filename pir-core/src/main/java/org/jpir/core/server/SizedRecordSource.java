package org.jpir.core.server;

/**
 * A {@link RecordSource} of a count and a size fixed at construction: records {@code [0, count)}
 * of {@code size} bytes each; subclasses supply {@link #read} and may check indices with
 * {@link #checkIndex}.
 */
public abstract class SizedRecordSource implements RecordSource {
  private final long count;
  private final int size;

  /** A source of {@code count} records of {@code size} bytes; both must be at least 1. */
  protected SizedRecordSource(long count, int size) {
    if (count < 1 || size < 1) {
      throw new IllegalArgumentException("a record source needs count >= 1 and size >= 1, got "
          + count + " x " + size);
    }
    this.count = count;
    this.size = size;
  }

  @Override
  public final long recordCount() {
    return count;
  }

  @Override
  public final int recordSize() {
    return size;
  }

  /** Throws, naming the range, unless {@code 0 <= index < recordCount()}. */
  protected final void checkIndex(long index) {
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException("record " + index + " out of range [0, " + count + ")");
    }
  }
}
