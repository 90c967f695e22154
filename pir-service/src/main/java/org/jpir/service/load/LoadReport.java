package org.jpir.service.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jpir.spark.server.SparkBatchMetrics;
import org.jpir.vmp.CpuInfo;

/**
 * The harness's results as markdown ({@code benchmarks/results/service-load-<utc>-<revision>.md}):
 * the sitting (CPU from lscpu, JDK, revision, command), each alternating round of the service
 * at saturation and the offline job, the run at half the saturated rate, the targets with
 * the measured values, and where the service's wall time went.
 */
final class LoadReport {
  /** One round: the service at saturation, then the offline job on the same queries. */
  record Round(ServiceFigures service, OfflineRun.Result offline) {
    double ratio() {
      return service.qps() / offline.qps();
    }
  }

  private LoadReport() {}

  /** The median of {@code v} (the mean of the middle two for an even count). */
  static double median(double... v) {
    if (v.length == 0) {
      return Double.NaN;
    }
    double[] s = v.clone();
    Arrays.sort(s);
    int m = s.length / 2;
    return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  /** The report; {@code half} may be null (no half-rate run). */
  static String markdown(String title, String setup, String command, List<Round> rounds,
      ServiceFigures half, double halfRate, double boundSeconds, int clients) {
    StringBuilder b = new StringBuilder();
    b.append("# ").append(title).append("\n\n").append(setup).append("\n\n");
    b.append("Command: `").append(command).append("`\n\n");
    b.append("## Saturation: closed loop, alternating with the offline `answer` job\n\n");
    b.append("Each round: every client sends its next query when its last one is answered, for"
        + " the window; then the offline job answers the same queries (those the service"
        + " answered) with the same keys. Queries/s: service, answered from the window's start"
        + " to the last answer; offline, answered / the job's time in its batches.\n\n");
    b.append("| round | service q/s | offline q/s | ratio | answered | latency p50 / p95 / p99"
        + " / max | micro-batches | sizes | micro-batch time p50 / p99 | lost / twice (client,"
        + " server) / stray / errors / mismatches / undecodable | offline lost / errors /"
        + " mismatches |\n|---|---:|---:|---:|---:|---|---:|---|---|---|---|\n");
    int i = 1;
    for (Round r : rounds) {
      ServiceFigures s = r.service();
      OfflineRun.Result o = r.offline();
      b.append(String.format(Locale.ROOT, "| %d | %.3f | %.3f | %.3f | %d | %s | %d | %s | %s |"
          + " %s | %d / %d / %d |%n", i++, s.qps(), o.qps(), r.ratio(), s.totals().answered(),
          lat(s), s.batches().size(), s.sizes(), mb(s), s.accounts(), o.lost(), o.errors(),
          o.check().mismatches() + o.check().undecodable()));
    }
    double[] sq = rounds.stream().mapToDouble(r -> r.service().qps()).toArray();
    double[] oq = rounds.stream().mapToDouble(r -> r.offline().qps()).toArray();
    double[] ratio = rounds.stream().mapToDouble(Round::ratio).toArray();
    double[] ow = rounds.stream().mapToDouble(r -> r.offline().answered()
        / r.offline().wallSeconds()).toArray();
    b.append(String.format(Locale.ROOT, "%nMedians: service %.3f q/s, offline %.3f q/s;"
        + " service/offline %.3f (median of the rounds' ratios), %.3f (ratio of the medians)."
        + " The offline job by its wall time (listing the query directory included): %.3f"
        + " q/s.%n", median(sq), median(oq), median(ratio), median(sq) / median(oq),
        median(ow)));
    if (half != null) {
      b.append("\n## Half the saturated rate: open loop\n\n");
      b.append(String.format(Locale.ROOT, "%d clients together send %.3f queries/s (half the"
          + " median saturated service rate), each every %.2f s whatever its answers do, the"
          + " clients' sends evenly spaced; latency counts from each query's scheduled time.%n%n",
          clients, halfRate, clients / halfRate));
      b.append("| rate | sent | answered | q/s | latency p50 / p95 / p99 / max | micro-batches |"
          + " sizes | micro-batch time p50 / p99 | lost / twice (client, server) / stray /"
          + " errors / mismatches / undecodable |\n|---:|---:|---:|---:|---|---:|---|---|---|\n");
      b.append(String.format(Locale.ROOT, "| %.3f | %d | %d | %.3f | %s | %d | %s | %s | %s |%n",
          halfRate, half.totals().sent(), half.totals().answered(), half.qps(), lat(half),
          half.batches().size(), half.sizes(), mb(half), half.accounts()));
    }
    b.append("\n## Targets (issue 43)\n\n| target | measured | met |\n|---|---|---|\n");
    double med = median(ratio);
    b.append(String.format(Locale.ROOT, "| throughput at saturation >= 90%% of the offline job's"
        + " (median of alternating rounds) | %.1f%% | %s |%n", 100 * med, yes(med >= 0.9)));
    List<String> sat = new ArrayList<>();
    int satMet = 0;
    for (Round r : rounds) {
      ServiceFigures s = r.service();
      double limit = boundSeconds + 2 * s.batchSeconds(99);
      sat.add(String.format(Locale.ROOT, "%.3f s <= %.3f s", s.p99(), limit));
      satMet += s.p99() <= limit ? 1 : 0;
    }
    b.append(String.format(Locale.ROOT, "| p99 at saturation <= time bound (%.3f s) + 2 x p99"
        + " micro-batch time, each round | %s | %s (%d of %d) |%n", boundSeconds,
        String.join("; ", sat), yes(satMet == rounds.size()), satMet, rounds.size()));
    if (half != null) {
      double limit = boundSeconds + half.batchSeconds(99);
      b.append(String.format(Locale.ROOT, "| p99 at half the saturated rate <= time bound + 1 x"
          + " p99 micro-batch time | %.3f s <= %.3f s | %s |%n", half.p99(), limit,
          yes(half.p99() <= limit)));
    }
    boolean clean = rounds.stream().allMatch(r -> r.service().clean()
        && r.service().run().dryClients() == 0 && r.offline().lost() == 0
        && r.offline().errors() == 0 && r.offline().check().mismatches() == 0
        && r.offline().check().undecodable() == 0) && (half == null || half.clean());
    b.append(String.format(Locale.ROOT, "| no request lost, none answered twice, every answer"
        + " decodes to its record | %s | %s |%n", clean ? "all clean" : "see the tables",
        yes(clean)));
    b.append("\n## Where the service's time went\n\n");
    b.append("From the window's start to the last answer: micro-batches running (their wall"
        + " time, as the service's batch listener reports it), and the service idle before the"
        + " first, between micro-batches and after the last (answers travelling back, queries"
        + " arriving, the time bound). Per query: the micro-batches' time / queries, against the"
        + " offline job's batch time / queries.\n\n");
    b.append("| run | makespan | micro-batches running | idle before / between / after |"
        + " per query: batch wall, service / offline | per query: Spark tasks (summed), service"
        + " / offline | per query: batch wall outside the task span, service / offline | GC per"
        + " query, service / offline | per query in the service: expansion / phase 1 / phase 2"
        + " (summed over tasks) |\n|---|---:|---:|---|---|---|---|---|---|\n");
    i = 1;
    for (Round r : rounds) {
      b.append(where("round " + i++, r.service(), r.offline()));
    }
    if (half != null) {
      b.append(where("half rate", half, null));
      double[] w = half.behindInFlight();
      b.append(String.format(Locale.ROOT, "%nAt half the rate, %.0f of %.0f answered queries"
          + " (%.0f%%) were sent while a micro-batch was running (one in flight: they wait for"
          + " it, then for their own): p99 %.3f s; the other %.0f waited at most for the time"
          + " bound (none when calls come further apart than it) and their own micro-batch:"
          + " p99 %.3f s. Median latency - median micro-batch time (admission, the call's"
          + " transport, the hand-offs, any time bound waited): %.1f ms.%n",
          w[0], w[0] + w[2], 100 * w[0] / Math.max(1, w[0] + w[2]), w[1], w[2], w[3],
          1e3 * (half.p50() - half.batchSeconds(50))));
      double perQuery = half.busySeconds() / Math.max(1, half.serverQueries());
      double satPerQuery = median(rounds.stream().mapToDouble(r -> r.service().busySeconds()
          / Math.max(1, r.service().serverQueries())).toArray());
      b.append(String.format(Locale.ROOT, "%nA micro-batch's cost is mostly its pass over the"
          + " prepared database, shared by its queries: at half the rate the micro-batches took"
          + " %.1f ms per query (sizes %s), against %.1f ms per query in the saturated rounds'"
          + " micro-batches, so half the saturated rate kept the service busy %.0f%% of the"
          + " window (offered load: rate x time per query = %.2f).%n", 1e3 * perQuery,
          half.sizes(), 1e3 * satPerQuery, 100 * half.busySeconds() / half.makespanSeconds(),
          halfRate * perQuery));
    }
    return b.toString();
  }

  private static String where(String label, ServiceFigures s, OfflineRun.Result o) {
    double span = s.makespanSeconds();
    double n = Math.max(1, s.serverQueries());
    double on = o == null ? 1 : Math.max(1, o.answered());
    SparkBatchMetrics sp = s.spark();
    return String.format(Locale.ROOT, "| %s | %.2f s | %.2f s (%.1f%%) | %.3f / %.3f / %.3f s |"
        + " %.1f / %s ms | %.1f / %s ms | %.1f / %s ms | %.1f / %s ms | %.1f / %.1f / %.1f ms"
        + " |%n", label, span,
        s.busySeconds(), 100 * s.busySeconds() / span, s.idleBeforeSeconds(),
        s.idleBetweenSeconds(), s.idleAfterSeconds(), 1e3 * s.busySeconds() / n,
        o == null ? "-" : ms(1e3 * o.serverSeconds() / on), sp.runMs() / n,
        o == null ? "-" : ms(o.spark().runMs() / on),
        (1e3 * s.sparkWallSeconds() - sp.taskSpanMs()) / n,
        o == null ? "-" : ms((1e3 * o.serverSeconds() - o.spark().taskSpanMs()) / on),
        sp.gcMs() / n, o == null ? "-" : ms(o.spark().gcMs() / on),
        1e3 * s.phaseSeconds()[0] / n, 1e3 * s.phaseSeconds()[1] / n,
        1e3 * s.phaseSeconds()[2] / n);
  }

  private static String ms(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String lat(ServiceFigures s) {
    return String.format(Locale.ROOT, "%.3f / %.3f / %.3f / %.3f s", s.p50(), s.p95(), s.p99(),
        s.maxLatency());
  }

  private static String mb(ServiceFigures s) {
    return String.format(Locale.ROOT, "%.3f / %.3f s", s.batchSeconds(50), s.batchSeconds(99));
  }

  private static String yes(boolean b) {
    return b ? "yes" : "**no**";
  }

  /** The CPU model as lscpu names it (else /proc/cpuinfo's), with the CPUs this JVM sees. */
  static String cpu() {
    String model = "";
    for (String line : run("lscpu").split("\n")) {
      if (line.startsWith("Model name:")) {
        model = line.substring("Model name:".length()).trim();
        break;
      }
    }
    if (model.isEmpty()) {
      model = CpuInfo.get().model();
    }
    return model + ", " + Runtime.getRuntime().availableProcessors() + " CPUs";
  }

  /** The short git revision of the working directory, {@code +dirty} when modified. */
  static String revision() {
    String rev = run("git", "rev-parse", "--short", "HEAD").trim();
    if (rev.isEmpty()) {
      return "unknown";
    }
    return run("git", "status", "--porcelain", "--untracked-files=no").isBlank() ? rev
        : rev + "+dirty";
  }

  /** "vendor version" of the running JVM. */
  static String jdk() {
    return System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version");
  }

  /** The results file name: {@code service-load-<yyyyMMdd-HHmmss UTC>-<revision>.md}. */
  static String fileName(Instant now, String revision) {
    return "service-load-" + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
        .withZone(ZoneOffset.UTC).format(now) + "-" + revision.replace('+', '_') + ".md";
  }

  private static String run(String... cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return "";
      }
      return out;
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
