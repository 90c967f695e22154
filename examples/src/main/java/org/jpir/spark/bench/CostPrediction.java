package org.jpir.spark.bench;

import static org.jpir.spark.bench.CostModel.CP;
import static org.jpir.spark.bench.CostModel.FAN_IN;
import static org.jpir.spark.bench.CostModel.P;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.server.ColumnTree;
import org.jpir.core.server.PirServer;
import org.jpir.core.wire.Wire;
import org.jpir.spark.server.ColumnPartitioning;
import org.jpir.spark.server.MemoryPlan;

/**
 * The cost model itself: seconds per batch of the {@code answer} job by term, from the
 * project's own sizes and the measured rates (no measurement here).
 */
final class CostPrediction {
  private CostPrediction() {}

  /** One configuration to predict. */
  record Config(int executors, int cores, int hostCores, long rawBytes, int rows, String kind,
      int batch, boolean local, double jobOverhead, double taskOverhead, long heapPerExecutor,
      int partitions) {
    /** The planner's partitions ({@code ColumnPartitioning.plan(cols, E c, 1)}). */
    Config(int executors, int cores, int hostCores, long rawBytes, int rows, String kind,
        int batch, boolean local, double jobOverhead, double taskOverhead, long heapPerExecutor) {
      this(executors, cores, hostCores, rawBytes, rows, kind, batch, local, jobOverhead,
          taskOverhead, heapPerExecutor, 0);
    }
  }

  /** A prediction: seconds per batch by term, the partitioning, the memory plan's verdict. */
  record Prediction(Map<String, Double> terms, int partitions, int slots, int rows, int cols,
      long resultBytes, long broadcastBytes, String memory) {
    double seconds() {
      return terms.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    String limit() {
      if (memory != null) {
        return "memory";
      }
      return terms.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }
  }

  /**
   * Seconds per batch of {@code c.batch} queries: driver expansion (GGSWs; all of it in
   * classic-driver), the broadcast (driver write; executors fetch, torrent rounds of log2(E+1);
   * none in local mode, which hands the batch over by reference), executor expansion (each
   * executor expands every query once, its cores in parallel), the task waves (phase 1 and
   * phase 2 of the widest partition, CPU shared when E x c exceeds the host's cores), the fold
   * above the partitions (tree stages of fan-in 8 and the driver's merge), the results' transfer
   * and the master's job and task overhead.
   */
  static Prediction predict(Config c, CostRates r) {
    boolean compact = c.kind().equals("compact");
    Params p = compact ? CP.server() : P;
    int rs = p.bytesPerPolynomial();
    long count = (c.rawBytes() + rs - 1) / rs;
    Geometry g = c.rows() > 0 ? Geometry.of(p, count, rs, c.rows())
        : Geometry.choose(p, count, rs, 1024);
    int slots = c.executors() * c.cores();
    // a measured point is predicted with the partitions it ran (the planner of its day)
    ColumnPartitioning parts = c.partitions() > 0
        ? ColumnPartitioning.plan(g.cols(), c.partitions(), 1, c.partitions())
        : ColumnPartitioning.plan(g.cols(), slots, 1);
    int np = parts.count();
    int b = c.batch();
    int levels = Geometry.levels(g.cols());
    boolean onDriver = c.kind().equals("classic-driver");
    long expanded = MemoryPlan.expandedQueryBytes(p, g);
    long wire = compact ? Wire.maxCompactQueryBytes(CP, g) + Wire.maxEvaluationKeysBytes(CP)
        : Wire.maxQueryBytes(p, g);
    long bcastBytes = (long) b * (onDriver ? expanded : wire);
    Map<String, Double> t = new LinkedHashMap<>();
    double expandQuery = g.rows() * (compact ? r.compactRow() : r.expandRow());
    // classic queries in local mode: the driver takes the GGSWs from the tasks' expansions
    t.put("driver expansion", onDriver ? b * expandQuery : c.local() && !compact ? 0
        : b * levels * (compact ? r.compactGgswLevel() : r.ggswLevel()));
    double fetchRounds = Math.ceil(Math.log(c.executors() + 1) / Math.log(2));
    t.put("broadcast", c.local() ? 0 : bcastBytes / r.bcastWrite()
        + fetchRounds * bcastBytes / r.net() + (onDriver ? bcastBytes / r.bcastWrite() : 0));
    // oversubscription: the executors' threads share the host's cores (local-cluster here)
    double share = Math.max(1.0, (double) slots / Math.max(1, c.hostCores()));
    // an executor's tasks expand different queries at once: as many as it runs tasks
    int tasksPerExecutor = Math.max(1, Math.min(c.cores(), (np + c.executors() - 1)
        / c.executors()));
    t.put("executor expansion", onDriver ? 0
        : Math.ceil((double) b / tasksPerExecutor) * expandQuery * share);
    int waves = (np + slots - 1) / slots;
    double rawPerCol = (double) g.rawBytes() / g.cols();
    int w = parts.width();
    t.put("phase 1", waves * phase1Seconds(p, g, parts, b, r.phase1(b, compact) / rawPerCol,
        r.columns(), r.pass(b, compact)) * share);
    t.put("phase 2", waves * b * g.planes() * (double) (w - 1) * r.cmux(compact) * share);
    // the fold above the partitions: tree stages while more than FAN_IN spans, then the driver
    double fold = 0;
    int n = np;
    int stages = 0;
    while (n > FAN_IN) {
      n = (n + FAN_IN - 1) / FAN_IN;
      stages++;
      // one task per group merges its FAN_IN spans of about 2 nodes each
      fold += b * g.planes() * 2.0 * FAN_IN * r.cmux(compact) * share;
    }
    fold += b * g.planes() * 2.0 * n * r.cmux(compact); // the driver's merge of the spans left
    t.put("fold", fold);
    long glwe = 2L * p.glweLimbs() * p.n() * 2; // 16-bit digits
    long resultBytes = (long) np * b * g.planes() * 2 * glwe;
    t.put("results", c.local() ? 0 : (double) resultBytes / r.net());
    t.put("overhead", (1 + stages) * c.jobOverhead() + waves * c.taskOverhead() * Math.min(
        np, slots) / Math.max(1, Math.min(np, c.hostCores())));
    String memory = null;
    if (c.heapPerExecutor() > 0) {
      long usable = c.heapPerExecutor() - MemoryPlan.RESERVED;
      MemoryPlan plan = MemoryPlan.of(p, g, parts, b, compact ? CP : null, new MemoryPlan.ExecutorResources(c.executors(), c.cores(), usable,
              (long) (0.6 * usable), 0.6, 0, c.local()));
      try {
        plan.check();
      } catch (IllegalArgumentException e) {
        // the heap that passes all three of MemoryPlan's checks
        double need = Math.max(plan.totalNeed() / MemoryPlan.HEAP_SHARE, Math.max(
            (plan.pvecBytesPerExecutor() + plan.broadcastHeld()) / 0.6, plan.cacheNeed() / 0.4))
            + MemoryPlan.RESERVED;
        memory = String.format(Locale.ROOT, "needs %.0f GiB/executor", need / (1L << 30));
      }
    }
    return new Prediction(t, np, slots, g.rows(), g.cols(), resultBytes, bcastBytes, memory);
  }

  /**
   * Seconds of phase 1 of the slowest partition for a batch of {@code b} queries on one core,
   * at {@code colsPerSecond} columns per second per query as measured in one pass of {@code
   * rateColumns} columns, a pass costing {@code passSeconds} beyond its columns at this batch.
   * Each aligned block of a partition ({@link ColumnTree#blocks}) is answered in passes of {@link
   * PirServer#chunkColumns} columns, and every pass reads each query's phase-1 matrix: with T =
   * b rateColumns / colsPerSecond the measured pass, a partition of w columns in k passes costs
   * {@code w (T - passSeconds) / rateColumns + k passSeconds}. Without a measured pass cost (NaN;
   * rates of older files) the pass is priced by its bytes: a matrix ({@code m = 2 glweLimbs}
   * PVEC columns' worth per plane and query) like a PVEC byte of the pass, arithmetic included,
   * an upper bound at large batches.
   */
  static double phase1Seconds(Params p, Geometry g, ColumnPartitioning parts, int b,
      double colsPerSecond, double rateColumns, double passSeconds) {
    ColumnTree tree = new ColumnTree(g.cols());
    double m = 2.0 * p.glweLimbs();
    double measured = b * rateColumns / colsPerSecond;
    boolean byBytes = Double.isNaN(passSeconds);
    double pass = byBytes ? 0 : Math.min(passSeconds, measured);
    double worst = 0;
    for (int i = 0; i < parts.count(); i++) {
      int first = parts.first(i);
      int end = first + parts.size(i);
      int k = phase1Passes(tree, first, end);
      double w = parts.size(i);
      worst = Math.max(worst, byBytes
          ? b / colsPerSecond * (w + k * b * m) / (1 + b * m / rateColumns)
          : w * (measured - pass) / rateColumns + k * pass);
    }
    return worst;
  }

  /** Phase-1 passes over {@code [first, end)}: per aligned block, its columns over its chunk. */
  static int phase1Passes(ColumnTree tree, int first, int end) {
    int passes = 0;
    for (int[] blk : tree.blocks(first, end)) {
      int len = (int) Math.min(end, (long) blk[1] + (1L << blk[0])) - blk[1];
      int chunk = PirServer.chunkColumns(len);
      passes += (len + chunk - 1) / chunk;
    }
    return passes;
  }
}
