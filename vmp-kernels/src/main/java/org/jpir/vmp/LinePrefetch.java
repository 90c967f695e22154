package org.jpir.vmp;

import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Software prefetch of 64-byte lines of a {@code double[]}: asks the core to bring them into its
 * caches and returns without waiting for them, so that the database stream of the multi-column
 * pass arrives while the kernels multiply (the JVM has no prefetch instruction, and a load that
 * misses blocks the core's retirement: prefetching the next group inside the current one's
 * kernels with plain loads was slower than reading it ahead in a tight loop; figures in
 * {@code benchmarks/results/kernel-choices-20261204-06.md}). {@link #get()} is the JVM-wide
 * instance, or null where none can run (then the pass reads ahead as before).
 */
interface LinePrefetch {
  /** Disables native prefetch ({@code -Djpir.vmp.prefetch=false}). */
  String PROPERTY = "jpir.vmp.prefetch";

  /**
   * Prefetches the lines holding {@code a[offset + 8i]} for i in [0, lines), clamped to the
   * array; reads and writes nothing a caller can see.
   */
  void lines(double[] a, int offset, int lines);

  /** The JVM-wide prefetcher, or null (see {@link #why()}). */
  static LinePrefetch get() {
    return Holder.INSTANCE;
  }

  /** Why {@link #get()} is what it is (logged once by the pass). */
  static String why() {
    return Holder.WHY;
  }

  /** Lines of {@code a} from {@code offset} that {@link #lines} may touch: at most {@code lines}. */
  static int clamp(double[] a, int offset, int lines) {
    if (offset < 0 || offset >= a.length || lines <= 0) {
      return 0;
    }
    return (int) Math.min(lines, (a.length - (long) offset + 7) / 8);
  }

  /** Loads the FFM implementation once, where the JDK, OS and CPU allow it. */
  final class Holder {
    static final LinePrefetch INSTANCE;
    static final String WHY;

    static {
      LinePrefetch p = null;
      String why;
      String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
      String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
      if ("false".equals(System.getProperty(PROPERTY))) {
        why = "native prefetch off (-D" + PROPERTY + "=false): tiles read ahead";
      } else if (Runtime.version().feature() < 22) {
        why = "native prefetch needs Java 22+ (FFM), this is " + Runtime.version().feature()
            + ": tiles read ahead";
      } else if (!os.startsWith("linux") || !CpuInfo.x86(arch)) {
        why = "native prefetch is x86-64 Linux only, this is " + os + "/" + arch
            + ": tiles read ahead";
      } else {
        try {
          p = (LinePrefetch) Class.forName("org.jpir.vmp.FfmLinePrefetch")
              .getDeclaredConstructor().newInstance();
          p.lines(new double[64], 0, 8);
          why = "native prefetch (x86-64 prefetcht1 through FFM)";
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
          p = null;
          why = "native prefetch unavailable (" + e + "): tiles read ahead";
        }
      }
      INSTANCE = p;
      WHY = why;
      Logger log = LogManager.getLogger(LinePrefetch.class);
      log.debug("{}", why);
    }

    private Holder() {}
  }
}
