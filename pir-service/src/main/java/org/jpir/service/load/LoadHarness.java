package org.jpir.service.load;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Sizes;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.service.CommandExit;
import org.jpir.service.PirNetworkServer;
import org.jpir.service.batch.BatchSettings;
import org.jpir.service.db.ServedDatabase;
import org.jpir.service.keys.StoredServiceKeys;
import org.jpir.service.rpc.ClientIdInterceptor;
import org.jpir.spark.AnswerJob;
import org.jpir.spark.SparkSetup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pir bench-service}: the service under load, against the offline {@code answer} job in
 * the same sitting. One JVM prepares a synthetic database once on Spark (excluded from every
 * figure, as the JVM start is), starts the service on it (loopback, an ephemeral port) and
 * connects {@code --clients} clients, each with its own secret key and evaluation keys, uploaded
 * before anything is measured; the offline job answers over the same prepared database with the
 * same keys. After a warm-up of both, each round makes every client's queries, runs the clients
 * in a closed loop for {@code --seconds}, decodes every answer, then lets the offline job answer
 * the same queries in Spark batches of the micro-batch size bound; rounds alternate so drift
 * hits both. Last, a run at half the median saturated rate, open loop. Writes
 * {@code service-load-<utc>-<revision>.md} under {@code --out}.
 */
@Command(name = "bench-service", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class, description = "Load harness: concurrent clients"
    + " against the gRPC service, alternating with the offline answer job on the same"
    + " database, queries and keys; writes benchmarks/results/service-load-*.md.")
public final class LoadHarness implements Callable<Integer> {
  @Option(names = "--mib", description = "database size in MiB (default: ${DEFAULT-VALUE})")
  long mib = 256;

  @Option(names = "--record-size", description = "record size in bytes (default:"
      + " ${DEFAULT-VALUE})")
  int recordSize = 3072;

  @Option(names = "--clients", description = "concurrent clients (default: ${DEFAULT-VALUE})")
  int clients = 32;

  @Option(names = "--seconds", description = "measured window of each run (default:"
      + " ${DEFAULT-VALUE})")
  long seconds = 60;

  @Option(names = "--rounds", description = "alternating rounds of service and offline job"
      + " (default: ${DEFAULT-VALUE})")
  int rounds = 3;

  @Option(names = "--micro-batch", description = "the service's micro-batch size bound, and the"
      + " offline job's Spark batch (default: ${DEFAULT-VALUE})")
  int microBatch = 32;

  @Option(names = "--micro-batch-ms", description = "the service's time bound (default:"
      + " ${DEFAULT-VALUE})")
  long microBatchMs = 20;

  @Option(names = "--batch", description = "queries per Spark batch inside a micro-batch"
      + " (default: the micro-batch size bound)")
  int batch;

  @Option(names = "--offline-batch", description = "the offline job's Spark batch (default: the"
      + " micro-batch size bound)")
  int offlineBatch;

  @Option(names = "--queue", description = "the service's queue bound (default: 4 x"
      + " --micro-batch, at least --clients)")
  int queue;

  @Option(names = "--warmup", description = "queries per client in the untimed warm-up of the"
      + " service and of the offline job (default: ${DEFAULT-VALUE})")
  int warmup = 2;

  @Option(names = "--half-rate", negatable = true, description = "also run at half the median"
      + " saturated rate, open loop (default: ${DEFAULT-VALUE})")
  boolean halfRate = true;

  @Option(names = "--pool-factor", description = "queries made per client before a saturated"
      + " run: this times the expected share (default: ${DEFAULT-VALUE})")
  double poolFactor = 1.5;

  @Option(names = "--master", description = "the Spark master unless -Dspark.master is given"
      + " (default: ${DEFAULT-VALUE})")
  String master = "local[2]";

  @Option(names = "--partitions", description = "prepared partitions (default: planned from"
      + " executors x cores)")
  int partitions;

  @Option(names = "--max-rows", description = "most rows of the grid (default:"
      + " ${DEFAULT-VALUE})")
  int maxRows = 1024;

  @Option(names = "--preset", description = "a compact preset (default: the record size's)")
  String preset;

  @Option(names = "--seed", description = "the synthetic database's seed, and the records"
      + " queried (default: ${DEFAULT-VALUE})")
  long seed = 1;

  @Option(names = "--deadline-s", description = "each call's deadline (default:"
      + " ${DEFAULT-VALUE})")
  long deadlineS = 600;

  @Option(names = "--out", description = "results directory (default: ${DEFAULT-VALUE})")
  Path out = Path.of("benchmarks/results");

  String[] args = new String[0];

  private static void say(String fmt, Object... a) {
    System.out.println("bench-service: " + String.format(Locale.ROOT, fmt, a));
    System.out.flush();
  }

  @Override
  public Integer call() throws Exception {
    if (mib < 1 || recordSize < 1 || clients < 1 || seconds < 1 || rounds < 1 || warmup < 0
        || poolFactor < 1) {
      throw new IllegalArgumentException("--mib, --record-size, --clients, --seconds, --rounds"
          + " must be >= 1, --warmup >= 0, --pool-factor >= 1");
    }
    long count = (mib << 20) / recordSize;
    String spec = "synthetic:" + count + "x" + recordSize + ":" + seed;
    int sparkBatch = batch > 0 ? batch : microBatch;
    int offBatch = offlineBatch > 0 ? offlineBatch : microBatch;
    BatchSettings settings = new BatchSettings(microBatch, microBatchMs,
        queue > 0 ? queue : Math.max(4 * microBatch, clients), sparkBatch, 500);
    String revision = LoadReport.revision();
    String command = "./pir bench-service" + (args.length == 0 ? "" : " "
        + String.join(" ", args));
    Path work = Files.createTempDirectory("jpir-bench-service-");
    SecureRandom random = new SecureRandom();
    SplittableRandom pick = new SplittableRandom(seed);
    int threads = Runtime.getRuntime().availableProcessors();
    try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.conf("jpir bench-service",
        master))) {
      long t0 = System.nanoTime();
      ServedDatabase db = ServedDatabase.prepare(sc, "synthetic", spec, preset, maxRows,
          partitions, Math.max(sparkBatch, offBatch), 0);
      double prepareS = (System.nanoTime() - t0) / 1e9;
      CompactParams cp = db.compact();
      if (cp == null) {
        throw new IllegalArgumentException("bench-service needs a compact preset; "
            + db.params().id() + " is classic");
      }
      Geometry g = db.geometry();
      say("%s: %d records of %d B, %s, grid %d x %d x %d; prepared in %.1f s", spec, count,
          recordSize, db.params().id(), g.rows(), g.cols(), g.planes(), prepareS);
      long entry = Wire.maxEvaluationKeysBytes(cp) + Wire.packingKeyBytes(cp.server(),
          PlanePacking.MAX_PLANES) + Sizes.preparedKeys(cp);
      StoredServiceKeys store = new StoredServiceKeys(Set.of(cp), null, 0,
          Math.max(1L << 30, 2L * clients * entry), System::currentTimeMillis);
      BatchRecorder rec = new BatchRecorder();
      PirNetworkServer server = PirNetworkServer.start(new InetSocketAddress(
          InetAddress.getLoopbackAddress(), 0), List.of(db), store, settings,
          Math.max(1024, 4 * clients), new ClientIdInterceptor(), b -> { }, rec);
      try (LoadClients lc = new LoadClients(server.port(), db.name(), "load", clients,
          deadlineS * 1000, random)) {
        double uploadS = (System.nanoTime() - t0) / 1e9 - prepareS;
        EvaluationKeyStore offlineKeys = new EvaluationKeyStore(cp);
        for (LoadClients.Client c : lc.clients()) {
          PirQueryClient k = c.crypto();
          offlineKeys.register(c.id(), k.evaluationKeysMessage().orElseThrow());
          k.packingKeyMessage().ifPresent(pk -> offlineKeys.registerPackingKey(c.id(), pk));
        }
        AnswerJob.Compact compact = new AnswerJob.Compact(cp, offlineKeys);
        SyntheticRecords truth = new SyntheticRecords(count, recordSize, seed);
        Ledger.Decoder decoder = (s, a) -> Arrays.equals(truth.record(s.index()),
            lc.clients().get(s.client()).crypto().decodeMessage(a, s.index()));
        say("%d clients connected, keys made and uploaded in %.1f s", clients, uploadS);

        // warm-up: both paths, untimed; it also gives the first estimate of the rate
        List<List<LoadClients.Planned>> warm = lc.pool(filled(clients, warmup), pick, threads);
        double estimate = 1;
        if (warmup > 0) {
          LoadClients.Run w = lc.closedLoop(warm, Long.MAX_VALUE / 4, "w");
          Ledger.Totals wt = w.ledger().totals();
          Ledger.Check wc = w.ledger().check(decoder, threads);
          OfflineRun.Result wo = OfflineRun.run(db.current().server(), db.params(), compact,
              flat(warm), offBatch, work, decoder, threads, random);
          say("warm-up: service %d of %d answered (%d wrong) at %.2f q/s; offline %d answered"
              + " at %.2f q/s", wt.answered(), wt.sent(), wc.mismatches() + wc.undecodable(),
              w.qps(), wo.answered(), wo.qps());
          if (wt.answered() != wt.sent() || wc.mismatches() + wc.undecodable() > 0) {
            throw new IllegalStateException("the warm-up's answers are not all right: " + wt
                + ", " + wc);
          }
          estimate = Math.max(w.qps(), wo.qps());
        }

        List<LoadReport.Round> done = new ArrayList<>();
        long window = seconds * 1_000_000_000L;
        for (int r = 1; r <= rounds; r++) {
          int per = (int) Math.ceil(poolFactor * estimate * seconds / clients) + 2;
          long tp = System.nanoTime();
          List<List<LoadClients.Planned>> pool = lc.pool(filled(clients, per), pick, threads);
          say("round %d: %d queries per client made in %.1f s", r, per,
              (System.nanoTime() - tp) / 1e9);
          int mark = rec.microMark();
          int sparkMark = rec.sparkMark();
          LoadClients.Run run = lc.closedLoop(pool, window, "r" + r);
          long td = System.nanoTime();
          ServiceFigures f = ServiceFigures.of(run, run.ledger().check(decoder, threads),
              rec.microSince(mark), rec.sparkSince(sparkMark));
          say("round %d: service answers decoded in %.1f s", r, (System.nanoTime() - td) / 1e9);
          List<LoadClients.Planned> same = run.ledger().answeredQueries().stream()
              .map(s -> pool.get(s.client()).get(s.slot())).toList();
          OfflineRun.Result o = OfflineRun.run(db.current().server(), db.params(), compact,
              same, offBatch, work, decoder, threads, random);
          LoadReport.Round round = new LoadReport.Round(f, o);
          done.add(round);
          say("round %d: service %.3f q/s (%d answered, p50 %.3f s, p99 %.3f s, %d micro-batches"
              + " of %s; %s%s), offline %.3f q/s (%d answered): ratio %.3f", r, f.qps(),
              f.totals().answered(), f.p50(), f.p99(), f.batches().size(), f.sizes(),
              f.accounts(), run.dryClients() > 0 ? "; " + run.dryClients()
                  + " clients ran out of queries" : "", o.qps(), o.answered(), round.ratio());
          estimate = Math.max(estimate, f.qps());
        }

        ServiceFigures half = null;
        double rate = LoadReport.median(done.stream().mapToDouble(x -> x.service().qps())
            .toArray()) / 2;
        if (halfRate) {
          PacedSchedule sch = new PacedSchedule(clients, rate, window);
          int[] per = new int[clients];
          for (int c = 0; c < clients; c++) {
            per[c] = sch.sends(c);
          }
          List<List<LoadClients.Planned>> pool = lc.pool(per, pick, threads);
          int mark = rec.microMark();
          int sparkMark = rec.sparkMark();
          LoadClients.Run run = lc.openLoop(pool, sch, "h");
          half = ServiceFigures.of(run, run.ledger().check(decoder, threads), rec.microSince(mark),
              rec.sparkSince(sparkMark));
          say("half rate (%.3f q/s, open loop): %d answered, p50 %.3f s, p99 %.3f s, %d"
              + " micro-batches of %s; %s", rate, half.totals().answered(), half.p50(),
              half.p99(), half.batches().size(), half.sizes(), half.accounts());
        }

        String title = String.format(Locale.ROOT, "Service load: %s, %d MiB of %d-B records,"
            + " %d clients, %d s", db.params().id(), mib, recordSize, clients, seconds);
        String setup = String.format(Locale.ROOT, "CPU: %s (lscpu); JDK: %s; revision %s;"
            + " %s. Spark %s, %d partitions; grid %d x %d x %d%s. Service (in this JVM, on"
            + " 127.0.0.1): micro-batches of at most %d queries or %d ms, %d in flight, Spark"
            + " batches of %d, queue %d; one query per call. Offline: the `answer` job"
            + " (`AnswerJob.run`) over the same prepared database in Spark batches of %d, its"
            + " query files written before and its answers decoded after. Clients (in this"
            + " JVM): %d, each with its own keys, uploaded before; queries made before each run"
            + " (%d threads), answers decoded and compared after it. Excluded from every"
            + " figure: the JVM start, the prepare (%.1f s), keys (%.1f s), a warm-up of %d"
            + " queries per client through both paths.", LoadReport.cpu(), LoadReport.jdk(),
            revision, Instant.now(), sc.master(), db.current().server().partitioning().count(),
            g.rows(), g.cols(), g.planes(), g.pairedTail() ? " (paired tail)" : "", microBatch,
            microBatchMs, BatchSettings.IN_FLIGHT, sparkBatch, settings.maxQueued(), offBatch,
            clients, threads, prepareS, uploadS, warmup);
        String md = LoadReport.markdown(title, setup, command, done, half, rate,
            microBatchMs / 1e3, clients);
        Files.createDirectories(out);
        Path file = out.resolve(LoadReport.fileName(Instant.now(), revision));
        Files.writeString(file, md, StandardCharsets.UTF_8);
        System.out.print(md);
        say("wrote %s", file);
      } finally {
        server.close(60_000);
      }
    } finally {
      Files.deleteIfExists(work); // each offline run deleted its own directory
    }
    return 0;
  }

  private static int[] filled(int n, int v) {
    int[] a = new int[n];
    Arrays.fill(a, v);
    return a;
  }

  private static <T> List<T> flat(List<List<T>> l) {
    return l.stream().flatMap(List::stream).toList();
  }

  /** Runs the harness and exits with its code; refused input prints {@code pir: <why>}. */
  public static void main(String[] args) {
    LoadHarness h = new LoadHarness();
    h.args = args.clone();
    System.exit(CommandExit.run(h, args, true));
  }
}
