package org.jpir.spark.server;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.ColumnTree;

/**
 * The database's columns cut into contiguous, ordered ranges of any width: range i is {@code
 * [bounds[i], bounds[i+1])}, {@code bounds[0] = 0}, {@code bounds[count] = cols}. The planner
 * ({@link #plan}) makes them balanced (widths differ by at most one alignment unit, at most an
 * eighth of a task slot's share where the grid allows), every boundary a multiple of the unit
 * (a multiple of the storage chunk where that keeps the balance), and no range narrower than the
 * phase-1 chunk ({@link PirServer#chunkColumns}) unless that would leave task slots (executors x
 * cores) idle: then there is one range per slot, down to one column each (a narrow partition
 * costs a less efficient phase-1 pass; an idle core costs its whole share). Each range's phase-2
 * nodes come from {@link ColumnTree}, which takes ranges of any width.
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
   * Alignment units per task slot the planner asks for: a slot's share of the columns then
   * differs from another's by at most an eighth, however many ranges it runs.
   */
  public static final int UNITS_PER_SLOT = 8;

  /**
   * Balanced ranges over {@code cols} columns for about {@code partitions} tasks on {@code slots}
   * task slots (executors x cores). With the phase-1 chunk {@code c = chunkColumns(cols)}:
   * <ul>
   *   <li>count {@code k = min(partitions, max(1, floor(cols / c)))}, the most ranges of at least
   *       {@code c} columns; when that is below {@code m = min(slots, cols)} (a small database
   *       would leave slots idle), {@code k = m} instead;
   *   <li>unit {@code u}: the largest power of two {@code <= max(c, storageChunk)} with {@code
   *       U = ceil(cols / u) >= 8 min(k, slots)} (at least {@link #UNITS_PER_SLOT} units per
   *       busy slot: with more ranges than slots a slot runs several, and only its total
   *       counts), else 1; boundaries are multiples of the storage chunk whenever {@code u >=
   *       storageChunk}, and of larger powers of two the coarser the unit;
   *   <li>range i holds units {@code [floor(i U / k), floor((i+1) U / k))}, the last one clipped
   *       to {@code cols}: widths differ by at most {@code u};
   *   <li>when {@code k > m} and a range is still narrower than {@code c}, {@code k} drops by one
   *       until none is.
   * </ul>
   * {@code storageChunk} is the columns per stored chunk (a power of two; 1 when the source has
   * no chunks); {@code partitions} asked above {@code floor(cols / c)} never make ranges narrower
   * than the phase-1 chunk, only the slots do.
   */
  public static ColumnPartitioning plan(int cols, int partitions, int storageChunk, int slots) {
    if (cols < 1 || partitions < 1 || storageChunk < 1 || slots < 1) {
      throw new IllegalArgumentException("cannot plan " + partitions + " partitions of " + cols
          + " columns in chunks of " + storageChunk + " on " + slots + " task slots");
    }
    int phase1 = PirServer.chunkColumns(cols);
    int busy = Math.min(slots, cols);
    int k = Math.min(partitions, Math.max(1, cols / phase1));
    if (k < busy) {
      // narrower than the phase-1 chunk rather than an idle slot
      k = busy;
    }
    while (true) {
      int unit = unitFor(cols, Math.min(k, slots), Math.max(phase1, storageChunk));
      int[] b = deal(cols, k, unit);
      if (k <= Math.max(1, busy) || minWidth(b) >= Math.min(phase1, cols)) {
        return new ColumnPartitioning(b, unit);
      }
      k--;
    }
  }

  /** The largest power of two {@code u <= max} with {@code ceil(cols / u) >= 8 k}, else 1. */
  private static int unitFor(int cols, int k, int max) {
    int u = Integer.highestOneBit(max);
    while (u > 1 && (cols + (long) u - 1) / u < (long) UNITS_PER_SLOT * k) {
      u /= 2;
    }
    return u;
  }

  /** Boundaries dealing {@code ceil(cols / unit)} units evenly over {@code k} ranges. */
  private static int[] deal(int cols, int k, int unit) {
    long units = (cols + (long) unit - 1) / unit;
    int[] b = new int[k + 1];
    for (int i = 0; i <= k; i++) {
      b[i] = (int) Math.min(cols, i * units / k * unit);
    }
    b[k] = cols;
    return b;
  }

  private static int minWidth(int[] b) {
    int min = Integer.MAX_VALUE;
    for (int i = 0; i + 1 < b.length; i++) {
      min = Math.min(min, b[i + 1] - b[i]);
    }
    return min;
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

  /** The narrowest range. */
  public int minWidth() {
    return minWidth(bounds);
  }

  /**
   * Whether every boundary but the last is a multiple of {@code storageChunk}, so that no two
   * ranges read the same stored chunk.
   */
  public boolean alignedTo(int storageChunk) {
    for (int i = 0; i < count(); i++) {
      if (bounds[i] % storageChunk != 0) {
        return false;
      }
    }
    return true;
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
    return count() + " ranges of " + cols() + " columns, widths " + minWidth() + ".." + width()
        + ", aligned to " + unit;
  }
}
