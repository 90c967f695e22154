package org.jpir.vmp;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Watches the multi-column pass of one {@link Vmp} for a kernel that the JIT compiled without
 * its vector intrinsics. Some JVMs run a C2-compiled wide kernel with its fused multiply-adds in
 * the Vector API's Java fallback for their whole life (phase 1 7.5x slower; see
 * docs/limitations.md): such a pass allocates hundreds of bytes per database row and block, a
 * compiled one about 2 KB per call in all. After {@link #WARM_PASSES} large passes ({@link
 * #MIN_WORK} column-row-blocks or more, so that the kernels have had their compilations), {@link
 * #STRIKES} consecutive large passes that allocated more than {@link #BYTES_PER_UNIT} byte per
 * column-row-block trip the guard: the pass then uses its narrowest blocks (other methods,
 * compiled apart), and one warning says so. Thread-safe; one trip per guard.
 */
final class BoxedPassGuard {
  private static final Logger LOG = LogManager.getLogger(BoxedPassGuard.class);

  /** Column-row-blocks (columns x rows x N/8 x queries) of a pass the guard judges. */
  static final long MIN_WORK = 1L << 20;
  /**
   * Large passes before the guard judges: the first ones run while the JIT compiles, and a
   * false trip costs the JVM its wide kernels (5-20% of phase 1).
   */
  static final int WARM_PASSES = 16;
  /** Consecutive allocating large passes that trip the guard. */
  static final int STRIKES = 3;
  /** Allocated bytes per column-row-block above which a pass counts as allocating. */
  static final double BYTES_PER_UNIT = 1.0;

  private int large;
  private int strikes;
  private volatile boolean tripped;

  /** Whether the guard has tripped: the pass must not use its wide kernels any more. */
  boolean tripped() {
    return tripped;
  }

  /**
   * Records a pass of {@code work} column-row-blocks that allocated {@code bytes} (negative:
   * not counted) on the kernel path {@code path}; returns whether this pass tripped the guard.
   */
  synchronized boolean observe(long work, long bytes, String path) {
    if (tripped || work < MIN_WORK || bytes < 0) {
      return false;
    }
    large++;
    boolean allocating = bytes > BYTES_PER_UNIT * work;
    if (large <= WARM_PASSES) {
      return false;
    }
    strikes = allocating ? strikes + 1 : 0;
    if (strikes < STRIKES) {
      return false;
    }
    tripped = true;
    LOG.warn("the phase-1 pass allocated {} B per database row and block ({} MB in its last pass"
        + " of {} column-row-blocks, {} such passes in a row): the JIT compiled its kernel ({})"
        + " without vector intrinsics; this JVM now runs the narrowest blocks", String.format(
        "%.0f", bytes / (double) work), bytes >> 20, work, strikes, path);
    return true;
  }
}
