package org.jpir.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jpir.core.PirServer;

/**
 * The database's columns cut into contiguous, ordered ranges of any width: range i is {@code
 * [bounds[i], bounds[i+1])}, {@code bounds[0] = 0}, {@code bounds[count] = cols}. The planner
 * ({@link #plan}) makes them balanced (widths differ by at most one alignment unit), every
 * boundary but the last a multiple of the unit, and no range narrower than the phase-1 chunk
 * ({@link PirServer#chunkColumns}) unless the grid itself is narrower or that would leave task
 * slots (executors x cores) idle: then ranges get narrower, down to one column, until every slot
 * has one (a narrow partition costs a less efficient phase-1 pass; an idle core costs its whole
 * share). Each range's phase-2 nodes come from {@link ColumnTree}, which takes ranges of any
 * width.
 */
public final class ColumnPartitioning implements Serializable {
  private static final long serialVersionUID = 1L;
  private final int[] bounds;
  private final int unit;

  private ColumnPartitioning(int[] bounds, int unit) {
    this.bounds = bounds;
    this.unit = unit;
  }

  /**
   * The ranges with boundaries {@code bounds} (strictly increasing from 0; the last is the column
   * count); {@code unit} is the alignment they were planned with (1: none).
   *
   * @throws IllegalArgumentException when the bounds are not strictly increasing from 0
   */
  public static ColumnPartitioning of(int[] bounds, int unit) {
    if (bounds.length < 2 || bounds[0] != 0) {
      throw new IllegalArgumentException("bounds " + Arrays.toString(bounds)
          + " must start at 0 and hold at least one range");
    }
    for (int i = 1; i < bounds.length; i++) {
      if (bounds[i] <= bounds[i - 1]) {
        throw new IllegalArgumentException("bounds " + Arrays.toString(bounds)
            + " are not strictly increasing at " + i);
      }
    }
    return new ColumnPartitioning(bounds.clone(), unit);
  }

  /**
   * {@link #plan(int, int, int, int)} with the {@code partitions} asked as the task slots: at
   * least {@code min(partitions, cols)} ranges.
   */
  public static ColumnPartitioning plan(int cols, int partitions, int storageChunk) {
    return plan(cols, partitions, storageChunk, partitions);
  }

  /**
   * Balanced ranges over {@code cols} columns for about {@code partitions} tasks on {@code slots}
   * task slots (executors x cores). The alignment unit is {@code storageChunk} (columns per stored
   * chunk, a power of two; 1 when the source has no chunks) when that still gives {@code
   * partitions} ranges, else the phase-1 chunk {@code c = chunkColumns(cols)}, giving {@code
   * k = min(partitions, ceil(cols / unit))} ranges. When that {@code k} is below {@code
   * m = min(slots, cols)} (a small database would leave cores idle), the ranges get narrower than
   * the phase-1 chunk instead: {@code k = m} and the unit is the largest power of two {@code u <=
   * c} with {@code ceil(cols / u) >= 4 m} (at least four units per range, so widths differ by at
   * most a quarter), else 1. The units are dealt out as evenly as possible: with {@code U} units,
   * range i holds units {@code [floor(i U / k), floor((i+1) U / k))} (the last one clipped to
   * {@code cols}).
   */
  public static ColumnPartitioning plan(int cols, int partitions, int storageChunk, int slots) {
    if (cols < 1 || partitions < 1 || storageChunk < 1 || slots < 1) {
      throw new IllegalArgumentException("cannot plan " + partitions + " partitions of " + cols
          + " columns in chunks of " + storageChunk + " on " + slots + " task slots");
    }
    int phase1 = PirServer.chunkColumns(cols);
    int unit = phase1;
    if (storageChunk > phase1 && (cols + (long) storageChunk - 1) / storageChunk >= partitions) {
      unit = storageChunk;
    }
    int units = (int) ((cols + (long) unit - 1) / unit);
    int k = Math.min(partitions, units);
    int busy = Math.min(slots, cols);
    if (k < busy) {
      // narrower than the phase-1 chunk rather than an idle core
      k = busy;
      unit = phase1;
      while (unit > 1 && (cols + (long) unit - 1) / unit < 4L * k) {
        unit /= 2;
      }
      units = (int) ((cols + (long) unit - 1) / unit);
    }
    int[] b = new int[k + 1];
    for (int i = 0; i <= k; i++) {
      b[i] = (int) Math.min(cols, (long) i * units / k * unit);
    }
    b[k] = cols;
    return new ColumnPartitioning(b, unit);
  }

  /** Number of columns. */
  public int cols() {
    return bounds[bounds.length - 1];
  }

  /** Number of ranges. */
  public int count() {
    return bounds.length - 1;
  }

  /** First column of range i. */
  public int first(int i) {
    return bounds[i];
  }

  /** Columns in range i. */
  public int size(int i) {
    return bounds[i + 1] - bounds[i];
  }

  /** The widest range. */
  public int width() {
    int w = 0;
    for (int i = 0; i < count(); i++) {
      w = Math.max(w, size(i));
    }
    return w;
  }

  /** The alignment unit of the boundaries (but the last). */
  public int unit() {
    return unit;
  }

  /** The ranges' boundaries: range i is {@code [bounds[i], bounds[i+1])}, count + 1 entries. */
  public int[] bounds() {
    return bounds.clone();
  }

  /** Range indices 0..count-1. */
  public List<Integer> indices() {
    List<Integer> l = new ArrayList<>();
    for (int i = 0; i < count(); i++) {
      l.add(i);
    }
    return l;
  }

  @Override
  public String toString() {
    int min = Integer.MAX_VALUE;
    for (int i = 0; i < count(); i++) {
      min = Math.min(min, size(i));
    }
    return count() + " ranges of " + cols() + " columns, widths " + min + ".." + width()
        + ", aligned to " + unit;
  }
}
