package org.jpir.spark.server;

import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.storage.BlockManagerMaster;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.spark.source.RecordSourceFactory;
import org.jpir.vmp.KernelProvider;
import scala.reflect.ClassTag$;

/**
 * The database as a cached RDD of prepared column ranges (partition i holds the columns {@code
 * [parts.first(i), parts.first(i) + parts.size(i))}), where they are ({@link Placement}), and its
 * versions: {@link #withChanged} prepares again only the partitions a new version changed.
 */
final class PreparedTable {
  private static final Logger LOG = LogManager.getLogger(PreparedTable.class);

  private final JavaSparkContext sc;
  private final Params params;
  private final Geometry geometry;
  private final ColumnPartitioning parts;
  private final JavaRDD<PreparedPartition> rdd;
  private final Placement placement;

  private PreparedTable(JavaSparkContext sc, Params params, Geometry geometry,
      ColumnPartitioning parts, JavaRDD<PreparedPartition> rdd, Placement placement) {
    this.sc = sc;
    this.params = params;
    this.geometry = geometry;
    this.parts = parts;
    this.rdd = rdd;
    this.placement = placement;
  }

  /**
   * Prepares every range of {@code parts} on the executor {@link Placement} assigns it, from
   * {@code source}, and caches it in memory; returns once every partition is cached, after
   * logging the memory held per executor.
   *
   * @throws IllegalStateException when a prepared partition could not be cached
   */
  static PreparedTable prepare(JavaSparkContext sc, Params p, Geometry g,
      RecordSourceFactory source, ColumnPartitioning parts, int coresPerExecutor) {
    Placement placement = new Placement(sc.sc(), parts, coresPerExecutor);
    placement.assignInitial();
    JavaRDD<PreparedPartition> rdd = JavaRDD.fromRDD(placement.indices(),
        ClassTag$.MODULE$.<Integer>apply(Integer.class))
        .map(new PrepareFn(p.id(), g, parts, source))
        .setName("jpir prepared columns " + source.describe())
        .persist(StorageLevel.MEMORY_ONLY());
    long t0 = System.nanoTime();
    List<String> held = rdd.map(memoryFn()).collect();
    Map<String, Long> perExecutor = new TreeMap<>();
    for (String h : held) {
      String[] kv = h.split("=", 2);
      perExecutor.merge(kv[0], Long.parseLong(kv[1]), Long::sum);
    }
    LOG.info("prepared {} columns in {} partitions of width up to {} in {} s; PVEC bytes per"
        + " executor: {}", g.cols(), parts.count(), parts.width(),
        String.format("%.1f", (System.nanoTime() - t0) / 1e9), perExecutor);
    int cached = cachedCount(sc, rdd, parts.count());
    if (cached < parts.count()) {
      rdd.unpersist(false);
      throw new IllegalStateException("only " + cached + " of " + parts.count() + " prepared"
          + " partitions stayed cached in memory (Spark evicts or refuses blocks that do not fit"
          + " its unified memory): raise spark.executor.memory (local mode: the driver heap) or"
          + " spark.memory.fraction, or use more executors");
    }
    placement.cached(rdd);
    // the scheduler may have given up on a busy preferred executor: even the spread out
    placement.rebalance();
    LOG.info("partitions per executor: {}", placement.counts());
    return new PreparedTable(sc, p, g, parts, rdd, placement);
  }

  /**
   * Partitions of {@code rdd} the block manager master knows cached (not the status store,
   * which the listener bus updates asynchronously and which lagged behind under load).
   */
  private static int cachedCount(JavaSparkContext sc, JavaRDD<PreparedPartition> rdd, int n) {
    BlockManagerMaster master = sc.sc().env().blockManager().master();
    int cached = 0;
    for (int i = 0; i < n; i++) {
      if (master.contains(new RDDBlockId(rdd.id(), i))) {
        cached++;
      }
    }
    return cached;
  }

  /**
   * The table of another version of the same grid: partition {@code i} is prepared again from
   * {@code source} when {@code changed.get(i)}, else this table's cached partition is passed
   * through (the same object). Returns once every new partition is cached; this table stays
   * usable until the caller unpersists it. {@code reprepared[0]} gets the number of partitions
   * prepared again.
   *
   * @throws IllegalArgumentException when {@code g} is not the same grid
   * @throws IllegalStateException when the new partitions could not all be cached
   */
  PreparedTable withChanged(Geometry g, RecordSourceFactory source, BitSet changed,
      long[] reprepared) {
    if (g.rows() != geometry.rows() || g.cols() != geometry.cols()
        || g.planes() != geometry.planes() || g.recordSize() != geometry.recordSize()) {
      throw new IllegalArgumentException("new version has geometry " + g + ", not the grid "
          + geometry + " this server holds");
    }
    LongAccumulator fresh = sc.sc().longAccumulator("jpir re-prepared");
    JavaRDD<PreparedPartition> next = rdd.mapPartitionsWithIndex(
        new RefreshFn(new PrepareFn(params.id(), g, parts, source), (BitSet) changed.clone(),
            fresh), true)
        .setName("jpir prepared columns " + source.describe())
        .persist(StorageLevel.MEMORY_ONLY());
    next.count();
    if (cachedCount(sc, next, parts.count()) < parts.count()) {
      next.unpersist(false);
      throw new IllegalStateException("a partition of the new version did not stay cached"
          + " (both versions are cached while switching): raise the executors' memory");
    }
    reprepared[0] = fresh.value();
    // the placement follows the new version's blocks (they stay where the old ones were)
    placement.cached(next);
    return new PreparedTable(sc, params, g, parts, next, placement);
  }

  /** The cached partitions. */
  JavaRDD<PreparedPartition> rdd() {
    return rdd;
  }

  /** Where the partitions are. */
  Placement placement() {
    return placement;
  }

  /** The partitioning. */
  ColumnPartitioning partitioning() {
    return parts;
  }

  /** The geometry held. */
  Geometry geometry() {
    return geometry;
  }

  /** The preset of the prepared columns. */
  Params params() {
    return params;
  }

  /** The task that reports "executor=bytes" of each cached partition (computing lost ones). */
  static Function<PreparedPartition, String> memoryFn() {
    return new MemoryFn();
  }

  /** The id of the executor this runs on ("driver" outside Spark). */
  static String executorId() {
    SparkEnv env = SparkEnv.get();
    return env == null ? "driver" : env.executorId();
  }

  /**
   * Partition {@code i} of the next version: prepared again when {@code changed.get(i)}, else the
   * cached one passed through. Lazy: a later version's task that computes this iterator without
   * consuming it (its partition changed again) prepares nothing here.
   */
  private record RefreshFn(PrepareFn prepare, BitSet changed, LongAccumulator fresh) implements
      Function2<Integer, Iterator<PreparedPartition>, Iterator<PreparedPartition>> {
    @Override
    public Iterator<PreparedPartition> call(Integer i, Iterator<PreparedPartition> old) {
      if (!changed.get(i)) {
        return old;
      }
      return new Iterator<>() {
        private boolean done;

        @Override
        public boolean hasNext() {
          return !done;
        }

        @Override
        public PreparedPartition next() {
          if (done) {
            throw new NoSuchElementException();
          }
          done = true;
          fresh.add(1);
          return prepare.call(i);
        }
      };
    }
  }

  /** Prepares one partition on an executor. */
  private record PrepareFn(String paramsId, Geometry g, ColumnPartitioning parts,
      RecordSourceFactory source) implements Function<Integer, PreparedPartition> {
    @Override
    public PreparedPartition call(Integer i) {
      KernelCheck.once();
      Params p = Presets.byId(paramsId);
      PreparedDatabase db = source.prepare(p, g, parts.first(i), parts.size(i));
      LOG.info("partition {}: prepared columns [{}, {}) ({} MiB of PVECs)", i, parts.first(i),
          parts.first(i) + parts.size(i), db.sizeBytes() >> 20);
      return new PreparedPartition(i, db);
    }
  }

  /** "executor=bytes" of a cached partition. */
  private static final class MemoryFn implements Function<PreparedPartition, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(PreparedPartition pp) {
      return executorId() + "=" + pp.database().sizeBytes();
    }
  }

  /** Logs, once per executor JVM, which kernels run there; loudly when it is the scalar code. */
  private static final class KernelCheck {
    private static volatile boolean done;

    private KernelCheck() {}

    static void once() {
      if (done) {
        return;
      }
      done = true;
      KernelProvider c = KernelProvider.get();
      if (!c.vector()) {
        LOG.error("executor {} runs the SCALAR kernels ({}): the Vector API is missing here;"
            + " check spark.executor.extraJavaOptions", executorId(), c);
      } else {
        LOG.info("executor {} kernels: {}", executorId(), c);
      }
    }
  }
}
