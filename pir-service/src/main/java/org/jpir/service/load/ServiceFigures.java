package org.jpir.service.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.SparkBatchMetrics;

/**
 * The figures of one measured service run (the Spark batches' expansion, phase 1 and phase 2
 * times summed over tasks in {@code phaseSeconds}): queries/s (answered, from the window's start to the
 * last answer), latency percentiles (HdrHistogram, 3 significant digits), the accounts (lost,
 * answered twice, stray, refused, decoded), and the service's micro-batches in that time: their
 * sizes, times, and where the wall time went (micro-batches running; idle before the first,
 * between two, after the last).
 */
record ServiceFigures(LoadClients.Run run, Ledger.Totals totals, Ledger.Check check,
    double qps, double p50, double p95, double p99, double maxLatency,
    List<BatchRecorder.MicroBatch> batches, long serverQueries, double busySeconds,
    double idleBeforeSeconds, double idleBetweenSeconds, double idleAfterSeconds,
    double sparkWallSeconds, SparkBatchMetrics spark, double[] phaseSeconds) {

  /**
   * Figures of {@code run}, its answers checked ({@code check}), over the micro-batches and the
   * Spark batches answered meanwhile.
   */
  static ServiceFigures of(LoadClients.Run run, Ledger.Check check,
      List<BatchRecorder.MicroBatch> batches, List<DistributedPirServer.BatchStats> sparkBatches) {
    double sparkWall = 0;
    SparkBatchMetrics spark = SparkBatchMetrics.NONE;
    double[] phases = new double[3];
    for (DistributedPirServer.BatchStats st : sparkBatches) {
      sparkWall += st.wallNanos() / 1e9;
      spark = spark.plus(st.spark());
      phases[0] += st.expandNanos() / 1e9;
      phases[1] += st.phase1Nanos() / 1e9;
      phases[2] += st.phase2Nanos() / 1e9;
    }
    Histogram h = run.ledger().latencies();
    List<BatchRecorder.MicroBatch> bs = new ArrayList<>(batches);
    bs.sort(Comparator.comparingLong(BatchRecorder.MicroBatch::endNanos));
    double busy = 0;
    double between = 0;
    long server = 0;
    for (int i = 0; i < bs.size(); i++) {
      busy += bs.get(i).seconds();
      server += bs.get(i).queries();
      if (i > 0) {
        between += Math.max(0, bs.get(i).startNanos() - bs.get(i - 1).endNanos()) / 1e9;
      }
    }
    double before = bs.isEmpty() ? 0 : Math.max(0, bs.get(0).startNanos() - run.startNanos())
        / 1e9;
    double after = bs.isEmpty() ? 0 : Math.max(0, run.endNanos() - bs.get(bs.size() - 1)
        .endNanos()) / 1e9;
    return new ServiceFigures(run, run.ledger().totals(), check, run.qps(),
        seconds(h, 50), seconds(h, 95), seconds(h, 99), h.getTotalCount() == 0 ? 0
            : h.getMaxValue() / 1e6, List.copyOf(bs), server, busy, before, between, after,
        sparkWall, spark, phases);
  }

  /** The value at percentile {@code p} of a histogram of microseconds, in seconds. */
  static double seconds(Histogram h, double p) {
    return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(p) / 1e6;
  }

  /** Percentile {@code p} of the micro-batches' times (seconds). */
  double batchSeconds(double p) {
    Histogram h = new Histogram(3);
    for (BatchRecorder.MicroBatch b : batches) {
      h.recordValue(Math.max(1, Math.round(b.seconds() * 1e6)));
    }
    return seconds(h, p);
  }

  /**
   * The answered queries split by whether they were sent while a micro-batch was running (they
   * wait for it to end, then for their own): {@code {count, p99 latency s}} of those, then of
   * the others.
   */
  double[] behindInFlight() {
    Histogram behind = new Histogram(3);
    Histogram idle = new Histogram(3);
    for (long[] t : run.ledger().answeredTimes()) {
      boolean running = false;
      for (BatchRecorder.MicroBatch b : batches) {
        if (b.startNanos() <= t[0] && t[0] < b.endNanos()) {
          running = true;
          break;
        }
      }
      (running ? behind : idle).recordValue(Math.max(0, (t[1] - t[0]) / 1000));
    }
    return new double[] {behind.getTotalCount(), seconds(behind, 99), idle.getTotalCount(),
        seconds(idle, 99)};
  }

  /** The micro-batch sizes as {@code size x count}, largest first. */
  String sizes() {
    Map<Integer, Integer> m = new TreeMap<>(Comparator.reverseOrder());
    for (BatchRecorder.MicroBatch b : batches) {
      m.merge(b.queries(), 1, Integer::sum);
    }
    List<String> parts = new ArrayList<>();
    m.forEach((size, n) -> parts.add(size + (n > 1 ? " x " + n : "")));
    return String.join(", ", parts);
  }

  /** Wall time from the window's start to the last answer (s). */
  double makespanSeconds() {
    return (run.endNanos() - run.startNanos()) / 1e9;
  }

  /**
   * Queries the service's micro-batches answered beyond one per request id sent (0 when it
   * answered none twice, a retried request id included).
   */
  long answeredTwiceOnServer() {
    return Math.max(0, serverQueries - totals.sent());
  }

  /** True when nothing was lost, answered twice, stray, refused, wrong or undecodable. */
  boolean clean() {
    return totals.lost() == 0 && totals.duplicates() == 0 && totals.strays() == 0
        && totals.errors() == 0 && check.mismatches() == 0 && check.undecodable() == 0
        && answeredTwiceOnServer() == 0;
  }

  /** lost / answered twice (client, server) / stray / errors / mismatches / undecodable. */
  String accounts() {
    return String.format(Locale.ROOT, "%d / %d, %d / %d / %d%s / %d / %d", totals.lost(),
        totals.duplicates(), answeredTwiceOnServer(), totals.strays(), totals.errors(),
        totals.errorsByKind().isEmpty() ? "" : " " + totals.errorsByKind(), check.mismatches(),
        check.undecodable());
  }
}
