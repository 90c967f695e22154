package org.jpir.vmp;

/**
 * The runs of 64-byte lines that the multi-column pass prefetches while one group of database
 * columns is multiplied (the next group's segments), issued a share per kernel chunk so that they
 * spread over the group's arithmetic.
 * Run i is lines {@code arr[i][off[i] + 8l]}, l in [0, len[i]). Not thread-safe: one per pass.
 */
final class PrefetchQueue {
  private final LinePrefetch pf;
  private double[][] arr = new double[8][];
  private int[] off = new int[8];
  private int[] len = new int[8];
  private int runs;
  private int run;
  private int line;
  private long total;

  PrefetchQueue(LinePrefetch pf) {
    this.pf = pf;
  }

  /** Empties the queue. */
  void clear() {
    runs = 0;
    run = 0;
    line = 0;
    total = 0;
  }

  /** Appends a run of {@code lines} lines from {@code a[offset]}. */
  void add(double[] a, int offset, int lines) {
    if (lines <= 0) {
      return;
    }
    if (runs == arr.length) {
      arr = java.util.Arrays.copyOf(arr, 2 * runs);
      off = java.util.Arrays.copyOf(off, 2 * runs);
      len = java.util.Arrays.copyOf(len, 2 * runs);
    }
    arr[runs] = a;
    off[runs] = offset;
    len[runs] = lines;
    runs++;
    total += lines;
  }

  /** Lines queued since {@link #clear()}. */
  long total() {
    return total;
  }

  /** Prefetches the next {@code lines} queued lines (fewer when the queue runs out). */
  void step(int lines) {
    while (lines > 0 && run < runs) {
      int n = Math.min(lines, len[run] - line);
      pf.lines(arr[run], off[run] + 8 * line, n);
      lines -= n;
      line += n;
      if (line == len[run]) {
        run++;
        line = 0;
      }
    }
  }

  /** Prefetches every line still queued. */
  void rest() {
    step(Integer.MAX_VALUE);
  }
}
