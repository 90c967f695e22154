package org.jpir.spark.server;

import java.util.Arrays;
import java.util.Locale;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.server.PirServer;
import org.jpir.core.wire.Sizes;
import org.jpir.core.wire.Wire;

/**
 * What one executor needs for a job, computed from the preset, the geometry, the partitioning
 * and the batch before anything is prepared, against what it has (Spark's unified memory for
 * cached blocks and broadcasts, the heap for everything): the cached PVECs of its share of the
 * partitions (the {@code ceil(partitions / executors)} widest), the batch's broadcast and, for
 * compact queries, the clients' key broadcasts ({@link KeyBroadcasts}: at most their bound, or
 * one batch's keys when more) held twice ({@link #BROADCAST_COPIES}: the torrent pieces stay in
 * the block manager beside the deserialized value), the executor-side cache of expanded queries
 * (one prepared matrix per query of a batch) and the phase-1 scratch of every concurrently
 * running task. {@link #check} stops the job with a message naming the settings to change.
 *
 * @param usableHeap heap Spark lets tasks use: {@code heap - 300 MiB} (Spark's reserved memory)
 * @param unifiedMemory Spark's storage + execution memory ({@code usableHeap * spark.memory.fraction})
 * @param memoryFraction {@code spark.memory.fraction}
 * @param queryCacheBytes the bound of the executor-side cache of expanded queries
 * @param broadcastBytes the batch's broadcast payload (the queries' bytes)
 * @param keyBroadcastBytes the clients' key broadcasts an executor may hold (0 without keys)
 * @param local true in local mode, where the driver shares the executor's heap
 */
public record MemoryPlan(int executors, int coresPerExecutor, long usableHeap, long unifiedMemory,
    double memoryFraction, long queryCacheBytes, boolean queryCacheFromSetting, int partitions,
    int partitionsPerExecutor, long pvecBytesPerExecutor, int batch,
    long expandedQueryBytes, long broadcastBytes, long keyBroadcastBytes,
    long scratchBytesPerTask, long driverBytes, boolean local) {

  /** Spark's reserved system memory (its {@code RESERVED_SYSTEM_MEMORY_BYTES}). */
  public static final long RESERVED = 300L << 20;
  /** The Spark setting bounding the executor-side cache of expanded queries, in bytes. */
  public static final String CACHE_SETTING = "spark.jpir.queryCacheBytes";
  /** Share of the usable heap everything may fill (the rest is left to the garbage collector). */
  public static final double HEAP_SHARE = 0.9;
  /**
   * Copies of a broadcast an executor (and the driver) holds while a batch runs: the serialized
   * torrent pieces, which Spark keeps in the block manager to serve other executors, and the
   * deserialized value the tasks read.
   */
  public static final int BROADCAST_COPIES = 2;
  /** The executor-side fold's fan-in assumed when none is given. */
  public static final int DEFAULT_FAN_IN = 8;

  /** Bytes of one prepared column per plane ({@link Sizes#preparedColumnPlane}). */
  public static long pvecBytesPerColumn(Params p, Geometry g) {
    return Sizes.preparedColumnPlane(p, g);
  }

  /** Bytes of one expanded query ({@link Sizes#preparedQuery}). */
  public static long expandedQueryBytes(Params p, Geometry g) {
    return Sizes.preparedQuery(p, g);
  }

  /**
   * Phase-1 scratch of one task answering {@code batch} queries over a partition of {@code width}
   * columns ({@link Sizes#phase1Scratch}), in passes of {@link PirServer#chunkColumns} columns.
   */
  public static long scratchBytesPerTask(Params p, int width, int batch) {
    return Sizes.phase1Scratch(p, batch, PirServer.chunkColumns(Math.max(1, width)));
  }

  /**
   * The plan for {@code parts} and a workload of {@code batch} queries, expanded on the
   * executors ({@code compact} non-null for compact queries, whose broadcast also carries the
   * keys), with the executor-side fold's default fan-in.
   */
  public static MemoryPlan of(Params p, Geometry g, ColumnPartitioning parts, int batch,
      CompactParams compact, ExecutorResources r) {
    return of(p, g, parts, batch, compact, r, DEFAULT_FAN_IN);
  }

  /**
   * As above with the fold's fan-in {@code fanIn} (spark.jpir.foldFanIn; the merge tasks take
   * their GGSWs from their JVM's expansions, so it changes no figure here) and the default bound
   * of the key broadcasts.
   */
  public static MemoryPlan of(Params p, Geometry g, ColumnPartitioning parts, int batch,
      CompactParams compact, ExecutorResources r, int fanIn) {
    return of(p, g, parts, batch, compact, r, fanIn, KeyBroadcasts.DEFAULT_BYTES);
  }

  /**
   * As above with the key broadcasts bounded by {@code keyBound} ({@link
   * KeyBroadcasts#BYTES_SETTING}): an executor holds at most that, or one batch's keys when
   * they are more.
   */
  public static MemoryPlan of(Params p, Geometry g, ColumnPartitioning parts, int batch,
      CompactParams compact, ExecutorResources r, int fanIn, long keyBound) {
    int perExec = (parts.count() + r.executors() - 1) / r.executors();
    // the busiest executor: the perExec widest partitions
    long[] sizes = new long[parts.count()];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = Sizes.preparedColumns(p, g, parts.first(i), parts.size(i));
    }
    Arrays.sort(sizes);
    long pvecExec = 0;
    for (int i = 0; i < perExec; i++) {
      pvecExec += sizes[sizes.length - 1 - i];
    }
    long expanded = compact != null ? Sizes.preparedQuery(compact, g) : expandedQueryBytes(p, g);
    long wire = compact != null ? Wire.maxCompactQueryBytes(compact, g) : Wire.maxQueryBytes(p, g);
    long bcast = (long) batch * wire;
    long keys = compact != null
        ? Math.max(keyBound, (long) batch * Wire.maxEvaluationKeysBytes(compact)) : 0;
    long scratch = scratchBytesPerTask(p, parts.width(), batch);
    // the driver of a local job shares the heap: the batch's query files as read
    long driver = r.local() ? (long) batch * wire : 0;
    long cache = r.queryCacheSetting() > 0 ? r.queryCacheSetting()
        : (long) ((1 - r.memoryFraction()) * r.usableHeap());
    return new MemoryPlan(r.executors(), r.coresPerExecutor(), r.usableHeap(), r.unifiedMemory(),
        r.memoryFraction(), cache, r.queryCacheSetting() > 0, parts.count(), perExec, pvecExec,
        batch, expanded, bcast, keys, scratch, driver, r.local());
  }

  /** Bytes the executor-side query cache holds for one batch. */
  public long cacheNeed() {
    return (long) batch * expandedQueryBytes;
  }

  /** Tasks one executor runs at once: its cores, or its partitions when it has fewer. */
  public int concurrentTasks() {
    return Math.max(1, Math.min(coresPerExecutor, partitionsPerExecutor));
  }

  /**
   * Bytes the batch's broadcast and the key broadcasts occupy on an executor: {@link
   * #BROADCAST_COPIES} copies.
   */
  public long broadcastHeld() {
    return BROADCAST_COPIES * (broadcastBytes + keyBroadcastBytes);
  }

  /** Everything one executor holds at once during a batch. */
  public long totalNeed() {
    return pvecBytesPerExecutor() + broadcastHeld() + cacheNeed()
        + (long) concurrentTasks() * scratchBytesPerTask + driverBytes;
  }

  /**
   * Stops the job when an executor cannot hold its share.
   *
   * @throws IllegalArgumentException naming what does not fit and the settings to change
   */
  public void check() {
    String heapSetting = local ? "the driver heap (PIR_DRIVER_MEMORY for ./pir, or"
        + " spark.driver.memory / -Xmx)" : "spark.executor.memory";
    StringBuilder why = new StringBuilder();
    if (pvecBytesPerExecutor() + broadcastHeld() > unifiedMemory) {
      why.append(String.format(Locale.ROOT, " the cached PVECs (%s: %d of %d partitions) and a"
          + " batch's broadcast%s (%s, held twice: pieces and value) exceed Spark's unified"
          + " memory of %s per executor; raise %s or spark.memory.fraction (%.2f), or use more"
          + " executors%s;", mib(pvecBytesPerExecutor()), partitionsPerExecutor, partitions,
          keyBroadcastBytes > 0 ? " with the key broadcasts" : "", mib(broadcastHeld()),
          mib(unifiedMemory), heapSetting, memoryFraction, keyBroadcastBytes > 0
              ? ", or lower " + KeyBroadcasts.BYTES_SETTING : ""));
    }
    if (cacheNeed() > queryCacheBytes) {
      why.append(String.format(Locale.ROOT, " a batch of %d expanded queries (%s each) does not"
          + " fit the executor query cache of %s; lower --batch, or raise %s%s;", batch,
          mib(expandedQueryBytes), mib(queryCacheBytes), CACHE_SETTING,
          queryCacheFromSetting ? "" : " (default (1 - spark.memory.fraction) x (heap - 300"
              + " MiB)) or " + heapSetting));
    }
    if (totalNeed() > HEAP_SHARE * usableHeap) {
      why.append(String.format(Locale.ROOT, " in all %s per executor, more than %.0f%% of its"
          + " usable heap (%s); raise %s, lower --batch or --max-rows, or use more executors or"
          + " --partitions;", mib(totalNeed()), HEAP_SHARE * 100, mib(usableHeap), heapSetting));
    }
    if (why.length() > 0) {
      throw new IllegalArgumentException("not enough executor memory:" + why + " (" + this
          .describe() + ")");
    }
  }

  /** One line with every figure of the plan. */
  public String describe() {
    return String.format(Locale.ROOT, "per executor (%d executor(s) x %d core(s)%s): PVECs %s"
        + " (%d of %d partitions), broadcast %s x 2, key broadcasts %s x 2, query cache %s of %s"
        + " allowed (%d x %s),"
        + " scratch %d x %s, driver %s; total %s of %s usable heap, storage %s of %s unified",
        executors, coresPerExecutor, local ? ", local mode" : "", mib(pvecBytesPerExecutor()),
        partitionsPerExecutor, partitions, mib(broadcastBytes), mib(keyBroadcastBytes),
        mib(cacheNeed()),
        mib(queryCacheBytes), batch, mib(expandedQueryBytes), concurrentTasks(),
        mib(scratchBytesPerTask), mib(driverBytes), mib(totalNeed()), mib(usableHeap),
        mib(pvecBytesPerExecutor() + broadcastHeld()), mib(unifiedMemory));
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
  }

  /**
   * What the executors have: their number and cores, heap figures, the query cache setting (0
   * when unset), and local mode.
   */
  public record ExecutorResources(int executors, int coresPerExecutor, long usableHeap,
      long unifiedMemory, double memoryFraction, long queryCacheSetting, boolean local) {}
}
