package org.jpir.spark;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The heap high-water mark of this JVM while a job runs: a daemon thread samples the used heap
 * every 20 ms (the peak sample, which includes garbage not yet collected), and the garbage
 * collector's notifications give the peak of the heap in use right after a collection (an upper
 * bound of the live data); {@link #stop} reports both.
 */
final class HeapWatch {
  private final Thread thread;
  private volatile boolean running = true;
  private volatile long peak;
  private volatile long peakLiveAtBatchEnd = -1;
  private static volatile HeapWatch current;
  /** With {@code -Djpir.heapWatch.fullGc=true}, each batch end runs a full collection (slow). */
  static final boolean FULL_GC = Boolean.getBoolean("jpir.heapWatch.fullGc");
  private volatile long peakAfterGc;
  private final NotificationListener onGc = (n, hb) -> {
    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
        .equals(n.getType())) {
      var info = GarbageCollectionNotificationInfo.from(
          (CompositeData) n.getUserData());
      long live = 0;
      for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
        if (isHeapPool(e.getKey())) {
          live += e.getValue().getUsed();
        }
      }
      if (live > peakAfterGc) {
        peakAfterGc = live;
      }
    }
  };

  private HeapWatch() {
    thread = new Thread(() -> {
      while (running) {
        sample();
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "jpir-heap-watch");
    thread.setDaemon(true);
  }

  /** Starts sampling. */
  static HeapWatch start() {
    for (MemoryPoolMXBean b : ManagementFactory.getMemoryPoolMXBeans()) {
      if (b.getType() == MemoryType.HEAP) {
        b.resetPeakUsage();
      }
    }
    HeapWatch w = new HeapWatch();
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter em) {
        em.addNotificationListener(w.onGc, null, null);
      }
    }
    w.sample();
    w.thread.start();
    current = w;
    return w;
  }

  /**
   * Called at the end of every batch: with {@link #FULL_GC}, collects the whole heap and records
   * the heap in use after it (the live data held between batches: PVECs, the batch's cached
   * expansions); otherwise does nothing.
   */
  static void batchEnded() {
    HeapWatch w = current;
    if (w == null || !FULL_GC) {
      return;
    }
    System.gc();
    long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    if (used > w.peakLiveAtBatchEnd) {
      w.peakLiveAtBatchEnd = used;
    }
  }

  private static boolean isHeapPool(String name) {
    for (MemoryPoolMXBean b : ManagementFactory.getMemoryPoolMXBeans()) {
      if (b.getName().equals(name)) {
        return b.getType() == MemoryType.HEAP;
      }
    }
    return false;
  }

  private void sample() {
    long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    if (used > peak) {
      peak = used;
    }
  }

  /** Peak sampled heap use so far, in bytes. */
  long peakBytes() {
    return peak;
  }

  /** Stops sampling; one line with the peak used heap, the peak after GC and the maximum. */
  String stop() {
    running = false;
    current = null;
    thread.interrupt();
    sample();
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter em) {
        try {
          em.removeNotificationListener(onGc);
        } catch (ListenerNotFoundException e) {
          // not registered on this collector
        }
      }
    }
    long max = Runtime.getRuntime().maxMemory();
    return String.format(Locale.ROOT, "heap high-water mark %.0f MiB of %.0f MiB max (sampled"
        + " every 20 ms, garbage included); peak heap in use right after a collection %.0f MiB (an upper bound"
        + " of the live data: old-generation garbage stays until a mixed or full collection)",
        peak / 1048576.0, max / 1048576.0, peakAfterGc / 1048576.0)
        + (peakLiveAtBatchEnd < 0 ? "" : String.format(Locale.ROOT, "; live heap after a full"
            + " collection at each batch end: peak %.0f MiB", peakLiveAtBatchEnd / 1048576.0));
  }
}
