package org.jpir.spark.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.Dependency;
import org.apache.spark.Partition;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.BlockManagerMaster;
import org.apache.spark.storage.RDDBlockId;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;

/**
 * Where the prepared partitions live: spread evenly over the executors (partition counts differ
 * by at most one) and spread again after an executor is lost. The driver assigns each partition
 * an executor ({@link #spread}) and the partitions' RDD ({@link Indices}) names it as the
 * preferred location, so the scheduler prepares the partition there; {@link #rebalance}, called
 * before each batch, re-prepares lost partitions on the executors holding the fewest (a
 * replacement executor included) and moves partitions off executors holding more than their
 * share. In local mode there is one executor and nothing to place.
 */
public final class Placement {
  private static final Logger LOG = LogManager.getLogger(Placement.class);
  /** How long a moved partition's block may take to disappear from the block manager master. */
  private static final long REMOVE_WAIT_MS = 10_000;
  /** Rebalance passes at most (a pass repeats when the scheduler put a partition elsewhere). */
  private static final int PASSES = 3;

  private final SparkContext sc;
  private final ColumnPartitioning parts;
  private final int cores;
  private final Indices indices;
  private JavaRDD<PreparedPartition> cached;
  private volatile Result last = Result.NONE;

  /** What one rebalance did: partitions prepared again (lost or moved) and its wall time. */
  public record Result(int lost, int moved, long nanos) {
    /** Nothing to do. */
    static final Result NONE = new Result(0, 0, 0);
  }

  Placement(SparkContext sc, ColumnPartitioning parts, int coresPerExecutor) {
    this.sc = sc;
    this.parts = parts;
    this.cores = Math.max(1, coresPerExecutor);
    this.indices = new Indices(sc, parts.count());
  }

  /** The RDD of range indices whose preferred locations follow this placement. */
  Indices indices() {
    return indices;
  }

  /** Assigns every partition an executor among those registered now (none in local mode). */
  void assignInitial() {
    if (sc.isLocal()) {
      return;
    }
    List<String> ex = new ArrayList<>(executors().keySet());
    indices.set(locations(spread(new String[parts.count()], widths(), ex), executors()));
  }

  /** The cached partitions, once prepared. */
  void cached(JavaRDD<PreparedPartition> rdd) {
    this.cached = rdd;
  }

  /**
   * The executors that hold each partition's block now (block manager master), by executor id;
   * partitions not cached anywhere are absent.
   */
  public Map<String, List<Integer>> held() {
    Map<String, List<Integer>> out = new TreeMap<>(EXECUTOR_ORDER);
    String[] at = current();
    for (int i = 0; i < at.length; i++) {
      if (at[i] != null) {
        out.computeIfAbsent(at[i], k -> new ArrayList<>()).add(i);
      }
    }
    return out;
  }

  /**
   * Re-prepares the partitions no live executor holds and moves partitions until the executors'
   * counts differ by at most one ({@link #spread}); a no-op (two block manager queries) when
   * nothing changed. Runs on the driver between batches. Each executor prepares at most its
   * cores' worth of partitions per job, so that no task waits for its preferred executor long
   * enough for the scheduler to run it elsewhere ({@code spark.locality.wait}); a pass repeats
   * (at most {@value #PASSES} in all) when a partition still landed elsewhere.
   */
  public Result rebalance() {
    last = place();
    return last;
  }

  /** What the last {@link #rebalance} did ({@link Result#NONE} before the first). */
  public Result last() {
    return last;
  }

  private Result place() {
    if (sc.isLocal() || cached == null) {
      return Result.NONE;
    }
    long t0 = System.nanoTime();
    int lost = 0;
    int moved = 0;
    Map<String, String> live = executors();
    for (int pass = 0; pass < PASSES; pass++) {
      live = executors();
      if (live.isEmpty()) {
        // nothing to place on: the batch's job waits for Spark to bring executors back
        LOG.warn("placement: no executor registered; the next job waits for one");
        break;
      }
      String[] now = current();
      for (int i = 0; i < now.length; i++) {
        if (now[i] != null && !live.containsKey(now[i])) {
          now[i] = null;
        }
      }
      String[] target = spread(now, widths(), new ArrayList<>(live.keySet()));
      indices.set(locations(target, live));
      List<Integer> todo = new ArrayList<>();
      for (int i = 0; i < target.length; i++) {
        if (now[i] == null || !now[i].equals(target[i])) {
          todo.add(i);
          if (now[i] == null) {
            lost++;
          } else {
            moved++;
          }
        }
      }
      if (todo.isEmpty()) {
        break;
      }
      remove(todo, now);
      // rounds of at most `cores` partitions per target executor
      Map<String, Integer> inRound = new HashMap<>();
      List<List<Integer>> rounds = new ArrayList<>();
      for (int i : todo) {
        int r = inRound.merge(target[i], 1, Integer::sum) - 1;
        while (rounds.size() <= r / cores) {
          rounds.add(new ArrayList<>());
        }
        rounds.get(r / cores).add(i);
      }
      for (List<Integer> round : rounds) {
        cached.map(PreparedTable.memoryFn()).collectPartitions(
            round.stream().mapToInt(Integer::intValue).toArray());
      }
    }
    if (lost == 0 && moved == 0) {
      return Result.NONE;
    }
    Result r = new Result(lost, moved, System.nanoTime() - t0);
    LOG.info("placement: {} lost and {} moved partition(s) prepared again in {} s on {} live"
        + " executor(s); partitions per executor now {}", r.lost(), r.moved(),
        String.format(Locale.ROOT, "%.1f", r.nanos() / 1e9), live.size(), counts());
    return r;
  }

  /** Removes the blocks of the partitions in {@code todo} that are cached now, and waits. */
  private void remove(List<Integer> todo, String[] now) {
    BlockManagerMaster master = sc.env().blockManager().master();
    List<Integer> cachedNow = todo.stream().filter(i -> now[i] != null).toList();
    for (int i : cachedNow) {
      master.removeBlock(block(i));
    }
    long deadline = System.currentTimeMillis() + REMOVE_WAIT_MS;
    while (cachedNow.stream().anyMatch(i -> master.contains(block(i)))
        && System.currentTimeMillis() < deadline) {
      sleep(50);
    }
  }

  /** Partitions per executor id, from the block manager master. */
  public Map<String, Integer> counts() {
    Map<String, Integer> c = new TreeMap<>(EXECUTOR_ORDER);
    held().forEach((k, v) -> c.put(k, v.size()));
    return c;
  }

  /**
   * The target executor of every partition: each partition of {@code current} on one of {@code
   * executors} stays unless its executor holds more than its share; the others (null: lost or
   * never placed, widest first) go to the executor holding the fewest partitions (ties: fewest
   * columns, then the order of {@code executors}); then, while two executors' counts differ by
   * more than one, the narrowest partition of the fullest moves to the emptiest. Counts then
   * differ by at most one.
   *
   * @throws IllegalArgumentException when there is no executor
   */
  static String[] spread(String[] current, int[] widths, List<String> executors) {
    if (executors.isEmpty()) {
      throw new IllegalArgumentException("no executor to place " + widths.length
          + " partitions on");
    }
    String[] target = current.clone();
    Map<String, Integer> count = new HashMap<>();
    Map<String, Long> cols = new HashMap<>();
    for (String e : executors) {
      count.put(e, 0);
      cols.put(e, 0L);
    }
    for (int i = 0; i < target.length; i++) {
      if (target[i] != null && !count.containsKey(target[i])) {
        target[i] = null;
      }
      if (target[i] != null) {
        count.merge(target[i], 1, Integer::sum);
        cols.merge(target[i], (long) widths[i], Long::sum);
      }
    }
    Comparator<String> fewest = Comparator.<String>comparingInt(count::get)
        .thenComparingLong(cols::get).thenComparingInt(executors::indexOf);
    Integer[] missing = IntStream.range(0, target.length)
        .filter(i -> target[i] == null).boxed().toArray(Integer[]::new);
    Arrays.sort(missing, Comparator.<Integer>comparingInt(i -> -widths[i]).thenComparingInt(
        i -> i));
    for (int i : missing) {
      String e = executors.stream().min(fewest).orElseThrow();
      target[i] = e;
      count.merge(e, 1, Integer::sum);
      cols.merge(e, (long) widths[i], Long::sum);
    }
    while (true) {
      String full = executors.stream().max(fewest).orElseThrow();
      String empty = executors.stream().min(fewest).orElseThrow();
      if (count.get(full) - count.get(empty) <= 1) {
        return target;
      }
      int narrowest = -1;
      for (int i = 0; i < target.length; i++) {
        if (target[i].equals(full) && (narrowest < 0 || widths[i] < widths[narrowest])) {
          narrowest = i;
        }
      }
      target[narrowest] = empty;
      count.merge(full, -1, Integer::sum);
      cols.merge(full, (long) -widths[narrowest], Long::sum);
      count.merge(empty, 1, Integer::sum);
      cols.merge(empty, (long) widths[narrowest], Long::sum);
    }
  }

  /** Executor ids in numeric order where they are numbers. */
  static final Comparator<String> EXECUTOR_ORDER = Comparator
      .<String>comparingLong(s -> s.matches("\\d{1,18}") ? Long.parseLong(s) : Long.MAX_VALUE)
      .thenComparing(Comparator.naturalOrder());

  /** Live executors (not the driver): id -> host, in {@link #EXECUTOR_ORDER}. */
  private Map<String, String> executors() {
    Map<String, String> out = new TreeMap<>(EXECUTOR_ORDER);
    for (BlockManagerId id : CollectionConverters.asJava(sc.env()
        .blockManager().master().getMemoryStatus()).keySet()) {
      if (!id.isDriver()) {
        out.put(id.executorId(), id.host());
      }
    }
    return out;
  }

  /** The executor holding each partition's block now (null: none; the first of several). */
  private String[] current() {
    int n = parts.count();
    BlockId[] ids = new BlockId[n];
    for (int i = 0; i < n; i++) {
      ids[i] = block(i);
    }
    String[] at = new String[n];
    if (cached == null) {
      return at;
    }
    List<Seq<BlockManagerId>> locs =
        CollectionConverters.asJava(sc.env().blockManager().master()
            .getLocations(ids));
    for (int i = 0; i < n; i++) {
      for (BlockManagerId b : CollectionConverters.asJava(locs.get(i))) {
        if (!b.isDriver() || sc.isLocal()) {
          at[i] = b.executorId();
          break;
        }
      }
    }
    return at;
  }

  private RDDBlockId block(int i) {
    return new RDDBlockId(cached.id(), i);
  }

  private int[] widths() {
    int[] w = new int[parts.count()];
    for (int i = 0; i < w.length; i++) {
      w[i] = parts.size(i);
    }
    return w;
  }

  /** Spark's executor location strings ({@code executor_<host>_<id>}) of {@code target}. */
  private static String[] locations(String[] target, Map<String, String> hosts) {
    String[] loc = new String[target.length];
    for (int i = 0; i < target.length; i++) {
      String host = target[i] == null ? null : hosts.get(target[i]);
      loc[i] = host == null ? null : "executor_" + host + "_" + target[i];
    }
    return loc;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while moving partitions", e);
    }
  }

  /**
   * The range indices 0..n-1 as an RDD of n partitions (partition i holds i), each preferring
   * the executor the driver assigned it; the preferences are read on the driver whenever a job
   * needs a partition that is not cached.
   */
  static final class Indices extends RDD<Integer> {
    private static final long serialVersionUID = 1L;
    private final int n;
    /** Driver side only: the location string of each partition (null: none). */
    private transient volatile String[] where;

    Indices(SparkContext sc, int n) {
      super(sc, scala.collection.immutable.List$.MODULE$.<Dependency<?>>empty(),
          ClassTag$.MODULE$.apply(Integer.class));
      this.n = n;
      this.where = new String[n];
    }

    void set(String[] locations) {
      this.where = locations.clone();
    }

    @Override
    public scala.collection.Iterator<Integer> compute(Partition split, TaskContext context) {
      return CollectionConverters.asScala(List.of(split.index()).iterator());
    }

    @Override
    public Partition[] getPartitions() {
      Partition[] p = new Partition[n];
      for (int i = 0; i < n; i++) {
        p[i] = new Slot(i);
      }
      return p;
    }

    @Override
    public Seq<String> getPreferredLocations(Partition split) {
      String[] w = where;
      String loc = w == null ? null : w[split.index()];
      return loc == null ? scala.collection.immutable.List$.MODULE$.<String>empty()
          : CollectionConverters.asScala(List.of(loc)).toList();
    }
  }

  /** Partition i of {@link Indices}. */
  static final class Slot implements Partition {
    private static final long serialVersionUID = 1L;
    private final int index;

    Slot(int index) {
      this.index = index;
    }

    @Override
    public int index() {
      return index;
    }

    /** The bridge Scala's {@code Partition} trait declares: Object's equality. */
    public boolean org$apache$spark$Partition$$super$equals(Object o) {
      return super.equals(o);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Slot s && s.index == index;
    }

    @Override
    public int hashCode() {
      return index;
    }
  }
}
