package org.jpir.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.progress.Progress;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.source.DatabaseSpec;
import org.jpir.spark.source.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The server's commands, {@code answer} and {@code serve}: both prepare the database once on the
 * executors ({@link ServedOptions}) and then answer query files.
 */
final class ServerCommands {
  private static final Logger LOG = LogManager.getLogger(ServerCommands.class);
  private ServerCommands() {}

  /** The options of a prepared database: what {@code answer} and {@code serve} share. */
  static final class ServedOptions {
    @Option(names = "--db", required = true,
        description = "a stored database directory or URI, or synthetic:<count>x<size>[:seed]")
    String db;

    @Option(names = "--queries", required = true, description = "the query directory")
    String queries;

    @Option(names = "--out", required = true, description = "the answer directory")
    String out;

    @Option(names = "--keys", description = "the clients' <client-id>.evk files (compact"
        + " presets: required)")
    String keys;

    @Option(names = "--batch", description = "queries per batch (default: ${DEFAULT-VALUE})")
    int batch = 4;

    @Option(names = "--partitions", description = "prepared partitions (default: planned from"
        + " executors x cores)")
    int partitions;

    @Option(names = "--max-rows", description = "most rows of the grid (default:"
        + " ${DEFAULT-VALUE})")
    int maxRows = 1024;

    @Option(names = "--preset", description = "the preset (default: the database's)")
    String preset;

    @Option(names = "--expand", description = "executor (the only expansion: each executor"
        + " expands each query once; driver is accepted and runs the same)")
    String expand = "executor";

    @Option(names = "--event-log", description = "write Spark's event log into this directory")
    String eventLog;

    @Option(names = "--metrics", description = "a JSON metrics file")
    String metrics;

    @Option(names = "--progress", description = "auto, bar, lines or quiet (default: auto, a bar"
        + " on a terminal, else quiet)")
    String progress = "auto";

    Progress.Mode progressMode() {
      return Progress.Mode.parse(progress);
    }
  }

  /** The prepared database of {@code answer} and {@code serve}, with what their queries need. */
  record Served(DistributedPirServer server, Params params, int batch,
      AnswerJob.Compact compact) {
    static Served prepare(String command, ServedOptions o, JavaSparkContext sc) {
      DatabaseSpec db = DatabaseSpec.parse(o.db);
      Params p = db.params(o.preset);
      Geometry g = db.geometry(p, o.maxRows);
      CompactParams cp = Presets.compactFor(p);
      checkExpand(o.expand);
      if (cp != null && o.keys == null) {
        throw new IllegalArgumentException(command + ": preset " + p.id() + " answers"
            + " compact queries: --keys DIR (the clients' <client-id>.evk files) is required;"
            + " classic queries need a database of a classic preset (--preset "
            + Presets.ONIONPIR_4096.id() + ")");
      }
      DistributedPirServer server;
      try (PrepareProgress shown = PrepareProgress.start(sc, o.progressMode(), System.err,
          g.rawBytes())) {
        server = DistributedPirServer.prepare(sc, p, g, db.factory(), o.partitions,
            new DistributedPirServer.Workload(o.batch, cp));
      }
      AnswerJob.Compact compact = cp == null ? null
          : new AnswerJob.Compact(cp, PirJob.keyStore(cp, o.keys));
      return new Served(server, p, o.batch, compact);
    }

    /**
     * Accepts {@code --expand executor} and, for old command lines, {@code driver} (logged: the
     * executors expand either way).
     *
     * @throws IllegalArgumentException for any other value
     */
    static void checkExpand(String expand) {
      String e = expand.toLowerCase(Locale.ROOT);
      if (e.equals("driver")) {
        LOG.warn("--expand driver: queries are expanded on the executors (the only expansion)");
      } else if (!e.equals("executor")) {
        throw new IllegalArgumentException("--expand " + expand + ": executor (or driver, which"
            + " runs the same)");
      }
    }
  }

  @Command(name = "answer", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Answer every *.cquery / *.query file of a directory"
      + " (exit 0 when each has an answer or an error file).")
  static final class Answer implements Callable<Integer> {
    @Mixin
    ServedOptions o;

    @Option(names = "--summary", description = "one line of key=value figures for experiment"
        + " runners")
    String summary;

    @Override
    public Integer call() {
      HeapWatch heap = HeapWatch.start();
      try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.eventLog(
          SparkSetup.conf("jpir answer", "local[*]"), o.eventLog))) {
        Served sv = Served.prepare("answer", o, sc);
        DistributedPirServer server = sv.server();
        Geometry g = server.geometry();
        AnswerJob.Summary s = AnswerJob.run(server, sv.params(), PirJob.storage(o.queries),
            PirJob.storage(o.out), sv.batch(), sv.compact(), o.progressMode());
        System.out.println(String.format(Locale.ROOT, "answer: %d answered, %d with an error"
            + " file, %d skipped (answered before) in %.2f s; %.3f GB/s of raw database; %.2f"
            + " queries/s", s.answered(), s.rejected(), s.skipped(), s.seconds(),
            s.bytesPerSecond() / 1e9, s.answered() / s.serverSeconds()));
        System.out.println("answer: spark " + s.spark().describe());
        System.out.println("answer: " + heap.stop());
        if (o.metrics != null) {
          PirJob.writeFile(o.metrics, s.json());
        }
        if (summary != null) {
          // one line of key=value pairs for experiment runners (deploy/scaling.sh)
          String line = String.format(Locale.ROOT, "executors=%d partitions=%d rows=%d cols=%d"
              + " raw_bytes=%d batch=%d answered=%d rejected=%d skipped=%d seconds=%.4f"
              + " server_seconds=%.4f phase1_task_seconds=%.4f phase2_task_seconds=%.4f"
              + " gbps=%.5f qps=%.4f heap_peak_bytes=%d%n",
              sc.sc().getExecutorMemoryStatus().size() - (sc.isLocal() ? 0 : 1),
              server.partitioning().count(), g.rows(), g.cols(), g.rawBytes(), sv.batch(),
              s.answered(), s.rejected(), s.skipped(), s.seconds(), s.serverSeconds(),
              s.phase1Seconds(), s.phase2Seconds(), s.bytesPerSecond() / 1e9,
              s.answered() / s.serverSeconds(), heap.peakBytes());
          PirJob.writeFile(summary, line);
        }
        // bad queries have their error files; the job itself succeeded
        return 0;
      }
    }
  }

  @Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Prepare once, then answer query files as they arrive"
      + " (stop: touch <out>/STOP, or --max-idle-s).")
  static final class Serve implements Callable<Integer> {
    @Mixin
    ServedOptions o;

    @Option(names = "--poll-ms", description = "how often the query directory is listed"
        + " (default: ${DEFAULT-VALUE})")
    long pollMs = 500;

    @Option(names = "--max-idle-s", description = "stop after this many seconds without queries"
        + " (default: never)")
    long maxIdleS;

    @Option(names = "--micro-batch", description = "most queries per micro-batch (default:"
        + " ${DEFAULT-VALUE})")
    int microBatch = 64;

    @Override
    public Integer call() throws InterruptedException {
      try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.eventLog(
          SparkSetup.conf("jpir serve", "local[*]"), o.eventLog))) {
        VersionWatch watch = VersionWatch.of(o.db); // before preparing
        Served sv = Served.prepare("serve", o, sc);
        Storage out = PirJob.storage(o.out);
        Storage queries = PirJob.storage(o.queries);
        ServeJob.Summary s = ServeJob.serve(sv.server(), sv.params(), queries, out,
            sv.batch(), microBatch, sv.compact(), pollMs, maxIdleS * 1000, () -> {
              if (out.exists("STOP")) {
                System.out.println("serve: " + out + "/STOP found, stopping");
                return true;
              }
              return false;
            }, micro -> {
              // one JSON document per micro-batch, appended (the job's own file, not the
              // answer directory, whose names are query ids only)
              if (o.metrics != null) {
                try {
                  Files.writeString(Path.of(o.metrics), micro.json().replace('\n', ' ').trim()
                      + "\n", StandardOpenOption.CREATE,
                      StandardOpenOption.APPEND);
                } catch (IOException e) {
                  throw new UncheckedIOException("serve: cannot append to --metrics "
                      + o.metrics, e);
                }
              }
            }, watch);
        System.out.println(String.format(Locale.ROOT, "serve: %d answered, %d with an error"
            + " file in %d micro-batches over %.1f s", s.answered(), s.rejected(),
            s.microBatches(), s.seconds()));
        return 0;
      }
    }
  }
}
