package org.jpir.spark.bench;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.store.DatabaseFiles;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabaseUpdater;
import org.jpir.datasets.store.UpdateFile;
import org.jpir.spark.SparkSetup;
import org.jpir.spark.VersionWatch;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.source.HadoopStoredSourceFactory;
import org.jpir.spark.source.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The update benchmark (a documented harness, not JMH: each point takes seconds). On a stored
 * database (which it updates in place: use a scratch copy) in Spark local mode it times {@code
 * rounds} full prepares ({@link DistributedPirServer#prepare}, each then dropped but the last),
 * then {@code rounds} updates of {@code fraction} of the records (a contiguous run at a random
 * place, or records at random with {@code --pattern random}): the update applied ({@link
 * UpdateFile} parsed from text and {@link StoredDatabaseUpdater#apply}) and the service's switch
 * ({@link VersionWatch#poll}: changed partitions prepared again, the rest passed through). Prints
 * the medians and the ratio (apply + switch) / full prepare.
 *
 */
@Command(name = "UpdateBench", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Times full prepares against updates of a fraction of the records.")
public final class UpdateBench implements Callable<Integer> {
  @Option(names = "--db", required = true, description = "a stored database (updated in place)")
  Path db;

  @Option(names = "--fraction", defaultValue = "0.01", description = "records changed per"
      + " update (default: ${DEFAULT-VALUE})")
  double fraction;

  @Option(names = "--rounds", defaultValue = "3", description = "default: ${DEFAULT-VALUE}")
  int rounds;

  @Option(names = "--partitions", defaultValue = "16", description = "default: ${DEFAULT-VALUE}")
  int partitions;

  @Option(names = "--pattern", defaultValue = "contiguous", description = "contiguous or random")
  String pattern;

  @Option(names = "--master", defaultValue = "local[2]", description = "default: ${DEFAULT-VALUE}")
  String master;

  @Option(names = "--seed", defaultValue = "1", description = "default: ${DEFAULT-VALUE}")
  long seed;

  /** Runs the benchmark (arguments above). */
  public static void main(String[] args) {
    System.exit(new CommandLine(new UpdateBench()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    String uri = Storage.at(db.toAbsolutePath().toUri().toString()).toString();
    if (!pattern.equals("random") && !pattern.equals("contiguous")) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--pattern must be"
          + " contiguous or random, not '" + pattern + "'");
    }
    boolean random = pattern.equals("random");
    SplittableRandom rnd = new SplittableRandom(seed);
    SparkConf conf = SparkSetup.conf("jpir update bench", master);
    if (!conf.contains("spark.memory.fraction")) {
      conf.set("spark.memory.fraction", "0.8"); // both versions are cached while switching
    }
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.setLogLevel("WARN");
      Manifest m = HadoopStoredSourceFactory.manifest(uri, 0);
      Params p = Presets.byId(m.presetId());
      double[] full = new double[rounds];
      DistributedPirServer server = null;
      for (int r = 0; r < rounds; r++) {
        if (server != null) {
          server.unpersist();
        }
        Manifest cur = HadoopStoredSourceFactory.manifest(uri, 0);
        long t0 = System.nanoTime();
        server = DistributedPirServer.prepare(sc, p, cur.geometry(),
            new HadoopStoredSourceFactory(uri, cur.columnsPerChunk(), cur.dataVersion()),
            partitions, DistributedPirServer.Workload.single());
        full[r] = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "full prepare %d: %.2f s (%d partitions)%n", r, full[r],
            server.partitioning().count());
      }
      VersionWatch watch = new VersionWatch(uri);
      DatabaseFiles files = Storage.at(uri).databaseFiles();
      double[] apply = new double[rounds];
      double[] sw = new double[rounds];
      List<String> counts = new ArrayList<>();
      long n = m.geometry().recordCount();
      int size = m.geometry().recordSize();
      int k = (int) Math.max(1, Math.round(fraction * n));
      for (int r = 0; r < rounds; r++) {
        StringBuilder text = new StringBuilder();
        TreeSet<Long> idx = new TreeSet<>();
        long start = rnd.nextLong(n - k + 1);
        while (idx.size() < k) {
          idx.add(random ? rnd.nextLong(n) : start + idx.size());
        }
        byte[] v = new byte[size];
        for (long i : idx) {
          rnd.nextBytes(v);
          text.append("put ").append(i).append(" hex:").append(HexFormat.of().formatHex(v))
              .append('\n');
        }
        String t = text.toString();
        long t0 = System.nanoTime();
        UpdateFile parsed = UpdateFile.parse(new StringReader(t), "bench", size);
        double parse = (System.nanoTime() - t0) / 1e9;
        StoredDatabaseUpdater.Result res = StoredDatabaseUpdater.apply(files, parsed);
        apply[r] = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        VersionWatch.Switch s = watch.poll(server);
        sw[r] = (System.nanoTime() - t0) / 1e9;
        server.unpersist();
        server = s.server();
        counts.add(s.reprepared() + "/" + s.partitions());
        System.out.printf(Locale.ROOT, "update %d: %d records, %d of %d chunks rewritten: apply"
            + " %.2f s (parse %.2f s), switch %.2f s (%d of %d partitions prepared again)%n", r, k,
            res.rewrittenChunks().size(), res.after().chunks().size(), apply[r], parse, sw[r],
            s.reprepared(), s.partitions());
      }
      double f = median(full);
      double a = median(apply);
      double s = median(sw);
      System.out.printf(Locale.ROOT, "result: %s %.2f%% (%d records of %d, %d B) on %.0f MiB:"
          + " full prepare median %.2f s %s; apply median %.2f s %s; switch median %.2f s %s"
          + " (partitions prepared again %s); (apply + switch) / full prepare = %.3f%n",
          random ? "random" : "contiguous", 100 * fraction, k, n, size,
          m.geometry().rawBytes() / 1048576.0, f, Arrays.toString(full), a,
          Arrays.toString(apply), s, Arrays.toString(sw), counts, (a + s) / f);
      server.unpersist();
    }
    return 0;
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
