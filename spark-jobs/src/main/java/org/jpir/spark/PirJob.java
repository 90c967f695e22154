package org.jpir.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.Geometry;
import org.jpir.core.Params;
import org.jpir.core.Presets;
import org.jpir.core.QueryIdMap;
import org.jpir.core.SecretKey;
import org.jpir.core.Wire;

/**
 * Entry point for {@code spark-submit --class org.jpir.spark.PirJob} and {@code ./pir}:
 * {@code demo}, {@code answer}, {@code client keygen|evk|query|decode|verify}. Exit code 0 on
 * success (for {@code answer}: every query has an answer or an error file), 1 on a failed check,
 * 2 on bad usage or a job that cannot run (e.g. not enough executor memory).
 */
public final class PirJob {
  private PirJob() {}

  public static void main(String[] args) throws Exception {
    int code;
    try {
      code = run(args);
    } catch (IllegalArgumentException | IllegalStateException e) {
      System.err.println("pir: " + e.getMessage());
      code = 2;
    }
    System.exit(code);
  }

  static int run(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: demo | answer | client keygen|query|decode (see README)");
      return 2;
    }
    switch (args[0]) {
      case "demo": {
        Options o = new Options("demo", args, 1, Set.of("mib", "record-size", "queries",
            "batch", "partitions", "max-rows", "preset", "seed", "master"));
        Params p = Presets.byId(o.get("preset", DemoJob.defaultPreset().id()));
        try (JavaSparkContext sc = new JavaSparkContext(
            SparkSetup.conf("jpir demo", o.get("master", "local[2]")))) {
          sc.setLogLevel("WARN");
          return DemoJob.run(sc, p, o.getLong("mib", 64), o.getInt("record-size", 1024),
              o.getInt("queries", 6), o.getInt("batch", 3),
              o.getInt("partitions", 0), o.getInt("max-rows", 1024),
              o.getLong("seed", 2026)) ? 0 : 1;
        }
      }
      case "demo-compact": {
        Options o = new Options("demo-compact", args, 1, Set.of("mib", "queries", "batch",
            "partitions", "preset", "master", "reps"));
        org.jpir.core.CompactParams cp = org.jpir.core.CompactParams.byId(
            o.get("preset", org.jpir.core.CompactParams.ONIONPIR_4096_COMPACT.id()));
        try (JavaSparkContext sc = new JavaSparkContext(
            SparkSetup.conf("jpir compact demo", o.get("master", "local[2]")))) {
          sc.setLogLevel("WARN");
          return CompactDemoJob.run(sc, cp, o.getLong("mib", 64), o.getInt("queries", 4),
              o.getInt("batch", 2), o.getInt("partitions", 2 * sc.defaultParallelism()),
              o.getInt("reps", 3)) ? 0 : 1;
        }
      }
      case "answer": {
        Options o = new Options("answer", args, 1, Set.of("db", "queries", "out", "batch",
            "partitions", "max-rows", "preset", "summary", "keys", "expand", "metrics",
            "event-log"));
        HeapWatch heap = HeapWatch.start();
        try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.eventLog(
            SparkSetup.conf("jpir answer", "local[*]"), o.get("event-log", null)))) {
          Served sv = Served.prepare(o, sc);
          DistributedPirServer server = sv.server();
          Params p = sv.params();
          Geometry g = server.geometry();
          int batch = sv.batch();
          AnswerJob.Compact compact = sv.compact();
          DistributedPirServer.ExpandMode mode = sv.mode();
          AnswerJob.Summary s = AnswerJob.run(server, p, storage(o.require("queries")),
              storage(o.require("out")), batch, compact, mode);
          System.out.println(String.format(Locale.ROOT, "answer: %d answered, %d with an error"
              + " file, %d skipped (answered before) in %.2f s; %.3f GB/s of raw database; %.2f"
              + " queries/s", s.answered(), s.rejected(), s.skipped(), s.seconds(),
              s.bytesPerSecond() / 1e9, s.answered() / s.serverSeconds()));
          System.out.println("answer: spark " + s.spark().describe());
          System.out.println("answer: " + heap.stop());
          String metricsFile = o.get("metrics", null);
          if (metricsFile != null) {
            writeFile(metricsFile, s.json());
          }
          String summaryFile = o.get("summary", null);
          if (summaryFile != null) {
            // one line of key=value pairs for experiment runners (deploy/scaling.sh)
            String line = String.format(Locale.ROOT, "executors=%d partitions=%d rows=%d cols=%d"
                + " raw_bytes=%d batch=%d answered=%d rejected=%d skipped=%d seconds=%.4f"
                + " server_seconds=%.4f phase1_task_seconds=%.4f phase2_task_seconds=%.4f"
                + " gbps=%.5f qps=%.4f heap_peak_bytes=%d%n",
                sc.sc().getExecutorMemoryStatus().size() - (sc.isLocal() ? 0 : 1),
                server.partitioning().count(), g.rows(), g.cols(), g.rawBytes(), batch,
                s.answered(), s.rejected(), s.skipped(), s.seconds(), s.serverSeconds(),
                s.phase1Seconds(), s.phase2Seconds(), s.bytesPerSecond() / 1e9,
                s.answered() / s.serverSeconds(), heap.peakBytes());
            writeFile(summaryFile, line);
          }
          // bad queries have their error files; the job itself succeeded
          return 0;
        }
      }
      case "serve": {
        Options o = new Options("serve", args, 1, Set.of("db", "queries", "out", "batch",
            "partitions", "max-rows", "preset", "keys", "expand", "event-log", "poll-ms",
            "max-idle-s", "micro-batch", "metrics"));
        try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.eventLog(
            SparkSetup.conf("jpir serve", "local[*]"), o.get("event-log", null)))) {
          VersionWatch watch = VersionWatch.of(o.require("db")); // before preparing
          Served sv = Served.prepare(o, sc);
          Storage out = storage(o.require("out"));
          Storage queries = storage(o.require("queries"));
          ServeJob.Summary s = ServeJob.serve(sv.server(), sv.params(), queries, out,
              sv.batch(), o.getInt("micro-batch", 64), sv.compact(), sv.mode(),
              o.getLong("poll-ms", 500), o.getLong("max-idle-s", 0) * 1000, () -> {
                if (out.exists("STOP")) {
                  System.out.println("serve: " + out + "/STOP found, stopping");
                  return true;
                }
                return false;
              }, micro -> {
                // one JSON document per micro-batch, appended (the job's own file, not the
                // answer directory, whose names are query ids only)
                if (o.get("metrics", null) != null) {
                  try {
                    Files.writeString(Path.of(o.get("metrics", null)), micro.json().replace('\n',
                        ' ').trim() + "\n", java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException("serve: cannot append to --metrics "
                        + o.get("metrics", null), e);
                  }
                }
              }, watch);
          System.out.println(String.format(Locale.ROOT, "serve: %d answered, %d with an error"
              + " file in %d micro-batches over %.1f s", s.answered(), s.rejected(),
              s.microBatches(), s.seconds()));
          return 0;
        }
      }
      case "client":
        return client(args);
      case "setup":
        if (args.length > 1 && args[1].equals("update")) {
          return DatabaseUpdate.main(args, System.out);
        }
        if (args.length > 1 && args[1].equals("table")) {
          // Parquet, CSV, JSON through Spark's DataFrame readers
          return TableImport.main(args, System.out);
        }
        // import or generate a database into the stored format (the datasets CLI's import)
        // "setup <source> ..." is "data import <source> ..."
        String[] imp = args.clone();
        imp[0] = "import";
        return org.jpir.datasets.cli.DatasetsCli.run(imp, System.out, System.err);
      default:
        throw new IllegalArgumentException("unknown command '" + args[0]
            + "' (known: demo, demo-compact, answer, serve, client, setup)");
    }
  }

  /** The prepared database of {@code answer} and {@code serve}, with what their queries need. */
  private record Served(DistributedPirServer server, Params params, int batch,
      AnswerJob.Compact compact, DistributedPirServer.ExpandMode mode) {
    static Served prepare(Options o, JavaSparkContext sc) {
      DatabaseSpec db = DatabaseSpec.parse(o.require("db"));
      Params p = db.params(o.get("preset", null));
      Geometry g = db.geometry(p, o.getInt("max-rows", 1024));
      org.jpir.core.CompactParams cp = Presets.compactFor(p);
      DistributedPirServer.ExpandMode mode = DistributedPirServer.ExpandMode.valueOf(
          o.get("expand", "executor").toUpperCase(Locale.ROOT));
      int batch = o.getInt("batch", 4);
      if (cp != null && o.get("keys", null) == null) {
        throw new IllegalArgumentException(o.command() + ": preset " + p.id() + " answers"
            + " compact queries: --keys DIR (the clients' <client-id>.evk files) is required;"
            + " classic queries need a database of a classic preset (--preset "
            + Presets.ONIONPIR_4096.id() + ")");
      }
      DistributedPirServer server = DistributedPirServer.prepare(sc, p, g, db.factory(),
          o.getInt("partitions", 0), new DistributedPirServer.Workload(batch, mode, cp));
      AnswerJob.Compact compact = cp == null ? null
          : new AnswerJob.Compact(cp, keyStore(cp, o.get("keys", null)), mode);
      return new Served(server, p, batch, compact, mode);
    }
  }

  /**
   * A directory of the answer job: a local path as given (relative to the working directory),
   * or a URI with a scheme ({@code hdfs://nn/q}) through Hadoop's FileSystem.
   */
  static Storage storage(String spec) {
    return Storage.at(Storage.hasScheme(spec) ? spec
        : Path.of(spec).toAbsolutePath().toUri().toString());
  }

  /** Writes a small text file (summary, metrics) through {@link #storage}. */
  static void writeFile(String spec, String text) {
    Path name = Path.of(Storage.hasScheme(spec) ? java.net.URI.create(spec).getPath() : spec)
        .getFileName();
    String dir = spec.substring(0, spec.length() - name.toString().length());
    Storage st = storage(dir.isEmpty() ? "." : dir);
    st.write(name.toString(), text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /**
   * The evaluation keys under {@code spec}: a local directory is read lazily (keys prepared on
   * first use); on another file system every {@code <client id>.evk} is read (bounded by {@link
   * Wire#maxEvaluationKeysBytes}) and registered at start.
   */
  static org.jpir.core.EvaluationKeyStore keyStore(org.jpir.core.CompactParams cp, String spec) {
    if (!Storage.hasScheme(spec) || spec.startsWith("file:")) {
      return new org.jpir.core.EvaluationKeyStore(cp, Storage.hasScheme(spec)
          ? Path.of(java.net.URI.create(spec)) : Path.of(spec));
    }
    org.jpir.core.EvaluationKeyStore store = new org.jpir.core.EvaluationKeyStore(cp);
    Storage dir = Storage.at(spec);
    for (String f : dir.list(".evk")) {
      String client = f.substring(0, f.length() - ".evk".length());
      store.register(client, dir.read(f, Wire.maxEvaluationKeysBytes(cp), "evaluation keys"));
    }
    return store;
  }

  /**
   * The client of {@code --db}, {@code --key} (and for compact presets {@code --client-id}, and
   * {@code --evk} when given).
   */
  private static AnyClient anyClient(Options o, SecureRandom random) throws java.io.IOException {
    DatabaseSpec db = DatabaseSpec.parse(o.require("db"));
    Params p = db.params(o.get("preset", null));
    Geometry g = db.geometry(p, o.getInt("max-rows", 1024));
    AnyClient c = AnyClient.withKey(p, g, Files.readAllBytes(Path.of(o.require("key"))),
        () -> o.require("client-id"), random);
    String evk = o.get("evk", null);
    if (evk != null && c.isCompact()) {
      c.useEvaluationKeys(Files.readAllBytes(Path.of(evk)));
    }
    return c;
  }

  /** The indices of {@code --index I[,J...]} or {@code --random N} (drawn from {@code random}). */
  private static long[] indices(Options o, long count, SecureRandom random) {
    String list = o.get("index", null);
    int n = o.getInt("random", 0);
    if ((list == null) == (n <= 0)) {
      throw new IllegalArgumentException("client query: give --index I[,J,...] or --random N");
    }
    long[] out;
    if (list != null) {
      String[] parts = list.split(",");
      out = new long[parts.length];
      for (int i = 0; i < parts.length; i++) {
        try {
          out[i] = Long.parseLong(parts[i].trim());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("client query: --index must be integers, got '"
              + parts[i] + "'");
        }
      }
    } else {
      out = new long[n];
      for (int i = 0; i < n; i++) {
        out[i] = random.nextLong(count);
      }
    }
    for (long i : out) {
      if (i < 0 || i >= count) {
        throw new IllegalArgumentException("client query: index " + i + " is outside the "
            + count + " records");
      }
    }
    return out;
  }

  private static int client(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException("usage: client keygen|evk|query|decode|verify|lookup"
          + " [options]");
    }
    SecureRandom random = new SecureRandom();
    Set<String> common = Set.of("preset", "db", "key", "index", "random", "out", "max-rows",
        "client-id", "answer", "answers", "evk", "ids");
    switch (args[1]) {
      case "keygen": {
        Options o = new Options("client keygen", args, 2, Set.of("preset", "out"));
        Params p = Presets.byId(o.get("preset", Presets.DEFAULT.id()));
        org.jpir.core.CompactParams cp = Presets.compactFor(p);
        SecretKey sk = cp != null ? org.jpir.core.CompactClient.generateSecret(cp, random)
            : SecretKey.generate(p, random);
        Path out = Path.of(o.require("out"));
        writeLocal(out, Wire.writeSecretKey(sk));
        System.out.println("client: secret key for " + p.id() + " written to " + out);
        return 0;
      }
      case "evk": {
        Options o = new Options("client evk", args, 2, common);
        byte[] evk = anyClient(o, random).evaluationKeys();
        writeLocal(Path.of(o.require("out")), evk);
        System.out.println("client: evaluation keys of '" + o.require("client-id") + "' ("
            + evk.length + " bytes) written; the server reads <client-id>.evk from its --keys"
            + " directory");
        return 0;
      }
      case "query": {
        Options o = new Options("client query", args, 2, common);
        AnyClient client = anyClient(o, random);
        long[] idx = indices(o, client.recordCount(), random);
        Path dir = Files.createDirectories(Path.of(o.require("out")).toAbsolutePath());
        Path mapFile = Path.of(requireIds(o, "client query"));
        QueryIdMap ids = QueryIdMap.load(mapFile, true);
        long bytes = 0;
        for (long index : idx) {
          byte[] q = client.query(index);
          String id = ids.add(index, random);
          AnswerJob.write(dir.resolve(id + client.extension()), q);
          bytes = q.length;
        }
        ids.save(mapFile);
        System.out.println("client: " + idx.length + " queries (" + bytes + " bytes each) written"
            + " to " + dir + " as <random id>" + client.extension() + "; their ids are in "
            + mapFile + " (keep it: decoding needs it, the server must never see it)");
        return 0;
      }
      case "decode": {
        Options o = new Options("client decode", args, 2, common);
        Path answer = Path.of(o.require("answer"));
        long index = o.get("index", null) != null ? o.getLong("index", -1)
            : QueryIdMap.load(Path.of(requireIds(o, "client decode")), false)
                .index(AnswerJob.stem(answer));
        byte[] rec = anyClient(o, random).decode(answer, index);
        writeLocal(Path.of(o.require("out")), rec);
        System.out.println("client: record (" + rec.length + " bytes) written to "
            + o.require("out"));
        return 0;
      }
      case "verify":
        return verify(new Options("client verify", args, 2, common), random);
      case "lookup": {
        Set<String> known = new java.util.HashSet<>(common);
        known.add("keyword");
        return lookup(new Options("client lookup", args, 2, known), random);
      }
      default:
        throw new IllegalArgumentException("unknown client command '" + args[1]
            + "' (known: keygen, evk, query, decode, verify, lookup)");
    }
  }

  /**
   * Private keyword lookup in a keyword database (a cuckoo table; {@code data import ...
   * --keyword}): with {@code --out q}, one query per candidate bucket of {@code --keyword} (always
   * all of them, so the server sees the same files for every key, present or not) named by random
   * ids recorded in {@code --ids}; with {@code --answers a}, decodes those buckets' answers,
   * searches them and the stash from the manifest, prints the value (exit 0) or "absent" (exit
   * 3).
   */
  private static int lookup(Options o, SecureRandom random) throws Exception {
    String db = o.require("db");
    org.jpir.datasets.keyword.KeywordParams kp = keywordParams(db);
    byte[] key = o.require("keyword").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    int[] buckets = kp.candidates(key);
    AnyClient client = anyClient(o, random);
    Path mapFile = Path.of(requireIds(o, "client lookup"));
    if ((o.get("out", null) == null) == (o.get("answers", null) == null)) {
      throw new IllegalArgumentException("client lookup: give --out DIR (write the queries) or"
          + " --answers DIR (decode the answers)");
    }
    if (o.get("out", null) != null) {
      Path dir = Files.createDirectories(Path.of(o.require("out")).toAbsolutePath());
      QueryIdMap ids = QueryIdMap.load(mapFile, true);
      for (int b : buckets) {
        byte[] q = client.query(b);
        AnswerJob.write(dir.resolve(ids.add(b, random) + client.extension()), q);
      }
      ids.save(mapFile);
      System.out.println("client: " + buckets.length + " queries (one per candidate bucket, as"
          + " for every key) written to " + dir + "; their ids are in " + mapFile);
      return 0;
    }
    Path answers = Path.of(o.require("answers"));
    QueryIdMap ids = QueryIdMap.load(mapFile, false);
    byte[][] got = new byte[buckets.length][];
    for (int j = 0; j < buckets.length; j++) {
      for (java.util.Map.Entry<String, Long> e : ids.entries().entrySet()) {
        Path f = answers.resolve(e.getKey() + ".answer");
        if (e.getValue() == buckets[j] && Files.exists(f)) {
          got[j] = client.decode(f, buckets[j]);
          break;
        }
      }
      if (got[j] == null) {
        throw new IllegalArgumentException("client lookup: no answer in " + answers + " for"
            + " candidate bucket " + (j + 1) + " of " + buckets.length + " (were the queries of"
            + " this keyword written with --ids " + mapFile + " and answered?)");
      }
    }
    java.util.Optional<byte[]> v = kp.find(key, got);
    System.out.println(v.map(b -> new String(b, java.nio.charset.StandardCharsets.UTF_8))
        .orElse("absent"));
    return v.isPresent() ? 0 : 3;
  }

  /** The keyword parameters in the manifest of stored database {@code spec}. */
  static org.jpir.datasets.keyword.KeywordParams keywordParams(String spec) {
    return org.jpir.datasets.keyword.KeywordParams.fromManifest(
        DatabaseSpec.parse(spec).manifestExtra()).orElseThrow(
            () -> new IllegalArgumentException(spec + " is not a keyword database (import it"
                + " with --keyword)"));
  }

  /** Writes a client-side file atomically, creating its directory first. */
  private static void writeLocal(Path file, byte[] bytes) throws java.io.IOException {
    Path abs = file.toAbsolutePath();
    Files.createDirectories(abs.getParent());
    AnswerJob.write(abs, bytes);
  }

  private static String requireIds(Options o, String cmd) {
    String ids = o.get("ids", null);
    if (ids == null) {
      throw new IllegalArgumentException(cmd + ": --ids FILE is required: the client's private"
          + " map from the random query ids (the file names the server sees) to record indices");
    }
    return ids;
  }

  /**
   * Decodes the answer of every id of the map and compares it with the database; counts ids
   * with an error file and ids with neither; fails unless every id has an exact answer or (when
   * expected) an error file.
   */
  private static int verify(Options o, SecureRandom random) throws Exception {
    DatabaseSpec db = DatabaseSpec.parse(o.require("db"));
    AnyClient client = anyClient(o, random);
    QueryIdMap ids = QueryIdMap.load(Path.of(requireIds(o, "client verify")), false);
    Path dir = Path.of(o.require("answers"));
    org.jpir.core.RecordSource truth = db.factory().open();
    int ok = 0;
    int bad = 0;
    int errors = 0;
    int missing = 0;
    for (java.util.Map.Entry<String, Long> e : ids.entries().entrySet()) {
      Path f = dir.resolve(e.getKey() + ".answer");
      if (Files.exists(f)) {
        byte[] want = new byte[truth.recordSize()];
        truth.read(e.getValue(), want, 0);
        byte[] got;
        try {
          got = client.decode(f, e.getValue());
        } catch (IllegalArgumentException ex) {
          got = null;
          System.out.println("client: answer " + f.getFileName() + " refused: " + ex.getMessage());
        }
        if (got != null && java.util.Arrays.equals(want, got)) {
          ok++;
        } else {
          bad++;
          System.out.println("client: answer " + f.getFileName() + " DIFFERS from the database");
        }
      } else if (Files.exists(dir.resolve(e.getKey() + ".error"))) {
        errors++;
        System.out.println("client: query " + e.getKey() + " has an error file: "
            + Files.readString(dir.resolve(e.getKey() + ".error")).trim());
      } else {
        missing++;
      }
    }
    System.out.println("client: verified " + ok + " answers exact, " + bad + " wrong, " + errors
        + " with an error file, " + missing + " without an answer (of " + ids.size() + " ids)");
    return ok > 0 && bad == 0 && errors == 0 && missing == 0 ? 0 : 1;
  }
}
