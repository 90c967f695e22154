package org.jpir.vmp;

import java.lang.management.ManagementFactory;

/**
 * The bytes the current thread has allocated, from HotSpot's {@code ThreadMXBean}: how the pass
 * ({@link BoxedPassGuard}) and the benchmarks tell a kernel that runs the Vector API's Java
 * fallback (it allocates per call) from a compiled one (it does not).
 */
public final class ThreadAllocation {
  private static final com.sun.management.ThreadMXBean THREADS =
      ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
          && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled() ? t : null;

  private ThreadAllocation() {}

  /** Bytes this thread has allocated so far, or -1 where the JVM does not count them. */
  public static long bytes() {
    return THREADS == null ? -1 : THREADS.getCurrentThreadAllocatedBytes();
  }
}
