package org.jpir.service;

import io.grpc.ServerInterceptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.params.CompactParams;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.service.batch.BatchSettings;
import org.jpir.service.db.ServedDatabase;
import org.jpir.service.keys.KeySettings;
import org.jpir.service.keys.StoredServiceKeys;
import org.jpir.spark.SparkSetup;
import org.jpir.spark.source.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./pir serve --port P}: prepares each {@code --db} once on the executors and answers
 * {@code jpir.v1.PirService} calls on the driver until the JVM is told to stop (SIGTERM or
 * Ctrl-C: no new calls, the accepted ones answered, then exit). Without TLS it binds the loopback
 * address unless {@code --bind} names another. Exit code 0 after a clean stop, 2 on bad usage or
 * a database that cannot be served.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Prepare the databases once, then answer PIR queries over gRPC"
    + " (jpir.v1.PirService) until stopped (SIGTERM, Ctrl-C).")
public final class ServeMain implements Callable<Integer> {
  /** Above Spark's hooks (its context stops at a lower priority), so the drain runs first. */
  static final int STOP_PRIORITY = 100;
  /** How long a stop waits for the accepted calls. */
  static final long DRAIN_MILLIS = 60_000;

  @Option(names = "--db", required = true, description = "[NAME=]SPEC, repeatable: a stored"
      + " database directory or URI, or synthetic:<count>x<size>[:seed]; NAME defaults to the"
      + " directory's name (synthetic: 'synthetic')")
  List<String> dbs;

  @Option(names = "--port", required = true, description = "the TCP port (0: any free port)")
  int port;

  @Option(names = "--bind", description = "the address to listen on (default: ${DEFAULT-VALUE};"
      + " without TLS, another address exposes plaintext traffic)")
  String bind = "127.0.0.1";

  @Option(names = "--keys", description = "keep uploaded evaluation keys under this directory"
      + " or Hadoop URI (default: in memory only)")
  String keys;

  @Option(names = "--key-ttl", description = "evaluation keys unused this long expire"
      + " (<n>[ms|s|m|h|d], 0: never; default: ${DEFAULT-VALUE})")
  String keyTtl = "7d";

  @Option(names = "--key-cache-mib", description = "most MiB of evaluation keys held in memory;"
      + " the least recently used beyond (default: ${DEFAULT-VALUE})")
  long keyCacheMib = 1024;

  @Option(names = "--batch", description = "queries per Spark batch (default: ${DEFAULT-VALUE})")
  int batch = 4;

  @Option(names = "--micro-batch", description = "size bound: most queries per micro-batch and"
      + " per call (default: ${DEFAULT-VALUE})")
  int microBatch = 64;

  @Option(names = "--micro-batch-ms", description = "time bound: a micro-batch starts at most"
      + " this long after its oldest query arrived (default: ${DEFAULT-VALUE})")
  long microBatchMs = 20;

  @Option(names = "--queue", description = "most queries waiting; beyond, RESOURCE_EXHAUSTED"
      + " with retry-after-ms (default: 4 x --micro-batch)")
  int queue;

  @Option(names = "--grace-s", description = "how long a query for the previous data version"
      + " is still answered after an update (default: ${DEFAULT-VALUE})")
  long graceS = 60;

  @Option(names = "--recent-answers", description = "answers kept for retried request ids"
      + " (default: ${DEFAULT-VALUE})")
  int recentAnswers = 1024;

  @Option(names = "--poll-ms", description = "how often an idle service looks for new data"
      + " versions (default: ${DEFAULT-VALUE})")
  long pollMs = 500;

  @Option(names = "--queries", description = "also answer the query files arriving in this"
      + " directory (as serve without --port does), through the same micro-batches")
  String queries;

  @Option(names = "--out", description = "the answer directory of --queries")
  String out;

  @Option(names = "--queries-db", description = "the database the files of --queries are for"
      + " (default: the first --db)")
  String queriesDb;

  @Option(names = "--partitions", description = "prepared partitions per database (default:"
      + " planned from executors x cores)")
  int partitions;

  @Option(names = "--max-rows", description = "most rows of the grid (default:"
      + " ${DEFAULT-VALUE})")
  int maxRows = 1024;

  @Option(names = "--preset", description = "the preset (default: each database's)")
  String preset;

  @Mixin
  AccessOptions access = new AccessOptions();

  @Mixin
  MetricsOptions metrics = new MetricsOptions();

  /** A {@code --db} value split into its name and spec. */
  record Named(String name, String spec) {
    static Named parse(String v) {
      int eq = v.indexOf('=');
      if (eq > 0 && v.substring(0, eq).matches("[A-Za-z0-9._-]{1,64}")) {
        return new Named(v.substring(0, eq), v.substring(eq + 1));
      }
      if (v.startsWith("synthetic:")) {
        return new Named("synthetic", v);
      }
      Path p = Path.of(v.replaceFirst("^[A-Za-z][A-Za-z0-9+.-]*://[^/]*", "")
          .replaceFirst("^file:", "")).getFileName();
      return new Named(p == null ? "db" : p.toString(), v);
    }
  }

  /** Prepares, serves until stopped, returns 0 after a clean stop. */
  @Override
  public Integer call() throws Exception {
    if ((queries == null) != (out == null)) {
      throw new IllegalArgumentException("serve: --queries and --out go together");
    }
    BatchSettings settings = new BatchSettings(microBatch, microBatchMs,
        queue > 0 ? queue : 4 * microBatch, batch, pollMs);
    InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(bind), port);
    ServerInterceptor clientIds = metrics.around(access.interceptor(address.getAddress()));
    Consumer<NettyServerBuilder> transport = access.transport();
    KeySettings ks = keySettings();
    List<Named> named = named(dbs);
    String feedDb = queriesDb != null ? queriesDb : named.get(0).name();
    if (queries != null) { // before preparing anything
      if (named.stream().noneMatch(n -> n.name().equals(feedDb))) {
        throw new IllegalArgumentException("--queries-db " + feedDb + ": no --db of that name");
      }
      if (!storage(queries).isDirectory()) {
        throw new IllegalArgumentException("--queries " + queries + " is not a directory");
      }
    }
    try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.conf("jpir serve",
        "local[*]"))) {
      List<ServedDatabase> served = new ArrayList<>();
      Set<CompactParams> compact = new LinkedHashSet<>();
      for (Named n : named) {
        ServedDatabase db = ServedDatabase.prepare(sc, n.name(), n.spec(), preset, maxRows,
            partitions, batch, graceS * 1000);
        served.add(db);
        if (db.compact() != null) {
          compact.add(db.compact());
        }
        System.out.println("serve: database " + db.name() + " (" + db.params().id() + ", "
            + db.geometry().recordCount() + " records of " + db.geometry().recordSize()
            + " bytes, data version " + db.current().dataVersion() + ", config "
            + db.current().configId() + ")");
      }
      StoredServiceKeys store = ks.open(compact);
      ScheduledExecutorService sweeper = ks.sweeper(store);
      PirNetworkServer server = PirNetworkServer.start(address, served, store, settings,
          recentAnswers, clientIds, transport, metrics.listener());
      HTTPServer http = metrics.start(server, store);
      System.out.println("serve: listening on " + bind + ":" + server.port()
          + (access.tls() ? " (TLS; " : " (plaintext; ")
          + "jpir.v1.PirService, health, reflection)");
      if (queries != null) {
        server.watch(storage(queries), storage(out), feedDb);
        System.out.println("serve: answering the query files of " + queries + " (database "
            + feedDb + ") into " + out);
      }
      CountDownLatch stopped = new CountDownLatch(1);
      // through Hadoop's hook manager at a priority above Spark's (which stops the context), so
      // the accepted calls are answered before Spark goes
      ShutdownHookManager.get().addShutdownHook(() -> {
        try {
          System.out.println("serve: stopping: answering the calls accepted");
          server.close(DRAIN_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          stopped.countDown();
        }
      }, STOP_PRIORITY, DRAIN_MILLIS + 5000, TimeUnit.MILLISECONDS);
      server.awaitTermination();
      stopped.await();
      if (sweeper != null) {
        sweeper.shutdownNow();
      }
      if (http != null) {
        http.close();
      }
      return 0;
    }
  }

  /** The key store's settings from {@code --keys}, {@code --key-ttl}, {@code --key-cache-mib}. */
  KeySettings keySettings() {
    if (keyCacheMib < 1 || keyCacheMib > (Long.MAX_VALUE >> 20)) {
      throw new IllegalArgumentException("--key-cache-mib must be >= 1");
    }
    String dir = keys == null ? null : Storage.hasScheme(keys) ? keys
        : Path.of(keys).toAbsolutePath().toUri().toString();
    return new KeySettings(dir, KeySettings.durationMillis(keyTtl), keyCacheMib << 20);
  }

  /**
   * The {@code --db} values split into names and specs.
   *
   * @throws IllegalArgumentException when two have the same name
   */
  static List<Named> named(List<String> values) {
    List<Named> named = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    for (String v : values) {
      Named n = Named.parse(v);
      if (!names.add(n.name())) {
        throw new IllegalArgumentException("two databases named '" + n.name() + "': give"
            + " each --db a NAME= prefix");
      }
      named.add(n);
    }
    return named;
  }

  /** A directory: a local path (relative to the working directory) or a URI with a scheme. */
  static Storage storage(String spec) {
    return Storage.at(Storage.hasScheme(spec) ? spec
        : Path.of(spec).toAbsolutePath().toUri().toString());
  }

  /** Runs {@code serve} and exits with its code; refused input prints {@code pir: <why>}. */
  public static void main(String[] args) {
    System.exit(CommandExit.run(new ServeMain(), args, false));
  }
}
