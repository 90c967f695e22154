package org.jpir.spark.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code SparkOverheadBench}'s summary: per batch, Spark's share of the plain-thread
 * throughput with a two-level bootstrap interval, and the medians of Spark's components.
 */
final class OverheadSummary {
  private OverheadSummary() {}

  /** The per-batch summary (markdown) of the rows of a TSV written by the forks. */
  static String summary(List<String> lines, SparkOverheadBench.Opts o) {
    String[] head = lines.get(0).split("\t");
    Map<String, Integer> col = new LinkedHashMap<>();
    for (int i = 0; i < head.length; i++) {
      col.put(head[i], i);
    }
    List<double[]> rows = new ArrayList<>();
    for (String l : lines.subList(1, lines.size())) {
      rows.add(Arrays.stream(l.split("\t")).mapToDouble(Double::parseDouble).toArray());
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%n%d MiB, local[%d], path %s, %d forks x %d rounds"
        + " (ratio = plain s / Spark s = Spark's share of the plain-thread throughput;"
        + " 95%% CI: bootstrap over forks, then rounds)%n%n", o.mib(), o.threads(), o.path(),
        o.forks(), o.rounds()));
    sb.append("| batch | Spark s | plain s | ratio (median) | 95% CI | per-fork medians |"
        + " load1 |\n|---:|---:|---:|---:|---:|---|---:|\n");
    StringBuilder comp = new StringBuilder();
    comp.append("\nMedians per batch (ms summed over tasks unless driver-side; bytes per batch):"
        + "\n\n| batch | tasks/stages | sched. delay | task deser. | GC | task run | plain"
        + " threads' compute | result B | broadcast B (written/fetched) | driver: broadcast |"
        + " job | merge | metrics wait | plain merge | task span / longest task (job minus span:"
        + " around the tasks) |\n"
        + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int b : o.batches()) {
      List<double[]> rs = rows.stream().filter(r -> r[col.get("batch")] == b).toList();
      if (rs.isEmpty()) {
        continue;
      }
      int nf = (int) rs.stream().mapToDouble(r -> r[col.get("fork")]).max().orElse(0) + 1;
      double[][] perFork = new double[nf][];
      StringBuilder fm = new StringBuilder();
      for (int f = 0; f < nf; f++) {
        int ff = f;
        perFork[f] = rs.stream().filter(r -> r[col.get("fork")] == ff)
            .mapToDouble(r -> r[col.get("plain_s")] / r[col.get("spark_s")]).toArray();
        fm.append(f == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f",
            BenchStats.median(perFork[f])));
      }
      double[] ratios = rs.stream().mapToDouble(r -> r[col.get("plain_s")]
          / r[col.get("spark_s")]).toArray();
      double[] ci = bootstrap(perFork, 10_000, 42);
      sb.append(String.format(Locale.ROOT, "| %d | %.3f | %.3f | %.3f | %.3f..%.3f | %s |"
          + " %.2f |%n", b, med(rs, col, "spark_s"), med(rs, col, "plain_s"),
          BenchStats.median(ratios),
          ci[0], ci[1], fm, med(rs, col, "load1")));
      comp.append(String.format(Locale.ROOT, "| %d | %.0f/%.0f | %.0f | %.0f | %.0f | %.0f |"
          + " %.0f | %.0f | %.0f/%.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f / %.0f (%.0f) |%n",
          b,
          med(rs, col, "tasks"), med(rs, col, "stages"), med(rs, col, "sched_delay_ms"),
          med(rs, col, "deser_ms"), med(rs, col, "gc_ms"), med(rs, col, "task_run_ms"),
          med(rs, col, "plain_cpu_ms"), med(rs, col, "result_bytes"),
          med(rs, col, "bcast_bytes"), med(rs, col, "bcast_fetched_bytes"),
          med(rs, col, "drv_bcast_ms"), med(rs, col, "drv_job_ms"), med(rs, col, "drv_merge_ms"),
          med(rs, col, "drv_metrics_ms"), med(rs, col, "plain_merge_ms"),
          med(rs, col, "task_span_ms"), med(rs, col, "longest_task_ms"),
          BenchStats.median(rs.stream().mapToDouble(r -> r[col.get("drv_job_ms")]
              - r[col.get("task_span_ms")]).toArray())));
    }
    return sb.append(comp).toString();
  }

  private static double med(List<double[]> rs, Map<String, Integer> col, String name) {
    int c = col.get(name);
    return BenchStats.median(rs.stream().mapToDouble(r -> r[c]).toArray());
  }

  /**
   * The 2.5% and 97.5% quantiles of the median ratio over {@code n} two-level resamples: forks
   * drawn with replacement, then rounds with replacement inside each drawn fork.
   */
  static double[] bootstrap(double[][] perFork, int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    double[] meds = new double[n];
    int total = Arrays.stream(perFork).mapToInt(a -> a.length).sum();
    for (int i = 0; i < n; i++) {
      double[] s = new double[total];
      int k = 0;
      for (int f = 0; f < perFork.length; f++) {
        double[] fork = perFork[rnd.nextInt(perFork.length)];
        for (int r = 0; r < fork.length && k < total; r++) {
          s[k++] = fork[rnd.nextInt(fork.length)];
        }
      }
      meds[i] = BenchStats.median(Arrays.copyOf(s, k));
    }
    Arrays.sort(meds);
    return new double[] {meds[(int) (0.025 * (n - 1))], meds[(int) (0.975 * (n - 1))]};
  }
}
