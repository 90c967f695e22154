package org.jpir.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.Geometry;
import org.jpir.core.Params;
import org.jpir.core.PirClient;
import org.jpir.core.Presets;
import org.jpir.core.SecretKey;
import org.jpir.core.Wire;

/**
 * Entry point for {@code spark-submit --class org.jpir.spark.PirJob} and {@code ./pir}:
 * {@code demo}, {@code answer}, {@code client keygen|query|decode}. Exit code 0 on success, 1 on
 * a failed check, 2 on bad usage.
 */
public final class PirJob {
  private PirJob() {}

  public static void main(String[] args) throws Exception {
    int code;
    try {
      code = run(args);
    } catch (IllegalArgumentException e) {
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
              o.getInt("partitions", 2 * sc.defaultParallelism()), o.getInt("max-rows", 1024),
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
            "partitions", "max-rows", "preset", "summary", "keys", "expand"));
        DatabaseSpec db = DatabaseSpec.parse(o.require("db"));
        Params p = db.params(o.get("preset", null));
        Geometry g = db.geometry(p, o.getInt("max-rows", 1024));
        try (JavaSparkContext sc = new JavaSparkContext(SparkSetup.conf("jpir answer", "local[*]"))) {
          DistributedPirServer server = DistributedPirServer.prepare(sc, p, g, db.factory(),
              o.getInt("partitions", 2 * sc.defaultParallelism()));
          org.jpir.core.CompactParams cp = DatabaseSpec.compactFor(p);
          AnswerJob.Compact compact = null;
          DistributedPirServer.ExpandMode mode = DistributedPirServer.ExpandMode.valueOf(
              o.get("expand", "executor").toUpperCase(Locale.ROOT));
          if (cp != null && o.get("keys", null) != null) {
            compact = new AnswerJob.Compact(cp, new org.jpir.core.EvaluationKeyStore(cp,
                Path.of(o.get("keys", null))), mode);
          }
          AnswerJob.Summary s = AnswerJob.run(server, p, Path.of(o.require("queries")),
              Path.of(o.require("out")), o.getInt("batch", 4), compact, mode);
          System.out.println(String.format(Locale.ROOT, "answer: %d answered, %d rejected in"
              + " %.2f s; %.3f GB/s of raw database; %.2f queries/s", s.answered(),
              s.rejected(), s.seconds(), s.bytesPerSecond() / 1e9,
              s.answered() / s.serverSeconds()));
          String summaryFile = o.get("summary", null);
          if (summaryFile != null) {
            // one line of key=value pairs for experiment runners (deploy/scaling.sh)
            String line = String.format(Locale.ROOT, "executors=%d partitions=%d rows=%d cols=%d"
                + " raw_bytes=%d batch=%d answered=%d seconds=%.4f server_seconds=%.4f"
                + " phase1_task_seconds=%.4f phase2_task_seconds=%.4f gbps=%.5f qps=%.4f%n",
                sc.sc().getExecutorMemoryStatus().size() - (sc.isLocal() ? 0 : 1),
                server.partitioning().count(), g.rows(), g.cols(), g.rawBytes(),
                o.getInt("batch", 4), s.answered(), s.seconds(), s.serverSeconds(),
                s.phase1Seconds(), s.phase2Seconds(), s.bytesPerSecond() / 1e9,
                s.answered() / s.serverSeconds());
            Files.writeString(Path.of(summaryFile), line);
          }
          return s.rejected() == 0 ? 0 : 1;
        }
      }
      case "client":
        return client(args);
      case "setup":
        // import or generate a database into the stored format (the datasets CLI's import)
        // "setup <source> ..." is "data import <source> ..."
        String[] imp = args.clone();
        imp[0] = "import";
        return org.jpir.datasets.cli.DatasetsCli.run(imp, System.out, System.err);
      default:
        throw new IllegalArgumentException("unknown command '" + args[0]
            + "' (known: demo, demo-compact, answer, client, setup)");
    }
  }

  /** One client, classic or compact (by the database's preset), behind the same calls. */
  private static final class AnyClient {
    private final PirClient classic;
    private final org.jpir.core.CompactClient compact;

    AnyClient(Options o, SecureRandom random) throws java.io.IOException {
      DatabaseSpec db = DatabaseSpec.parse(o.require("db"));
      Params p = db.params(o.get("preset", null));
      Geometry g = db.geometry(p, o.getInt("max-rows", 1024));
      byte[] key = Files.readAllBytes(Path.of(o.require("key")));
      org.jpir.core.CompactParams cp = DatabaseSpec.compactFor(p);
      if (cp != null) {
        compact = new org.jpir.core.CompactClient(cp, g, Wire.readSecretKey(key, cp.keys()),
            o.require("client-id"), random);
        String evk = o.get("evk", null);
        if (evk != null) {
          compact.useEvaluationKeys(Wire.readEvaluationKeys(Files.readAllBytes(Path.of(evk)),
              cp));
        }
        classic = null;
      } else {
        classic = new PirClient(p, g, Wire.readSecretKey(key, p), random);
        compact = null;
      }
    }

    byte[] query(long index, boolean haveEvk) {
      if (compact != null && !haveEvk) {
        throw new IllegalArgumentException("a compact query needs the client's uploaded"
            + " evaluation keys: --evk FILE (made by client evk)");
      }
      return compact != null ? Wire.writeCompactQuery(compact.query(index))
          : Wire.writeQuery(classic.query(index));
    }

    byte[] decode(byte[] answer, Params p, long index) {
      return compact != null ? compact.decode(Wire.readAnswer(answer, p), index)
          : classic.decode(Wire.readAnswer(answer, p), index);
    }

    byte[] evaluationKeys() {
      if (compact == null) {
        throw new IllegalArgumentException("evaluation keys exist only for compact presets");
      }
      return Wire.writeEvaluationKeys(compact.evaluationKeys());
    }
  }

  private static int client(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException("usage: client keygen|evk|query|decode|verify [options]");
    }
    SecureRandom random = new SecureRandom();
    Set<String> common = Set.of("preset", "db", "key", "index", "out", "max-rows", "client-id",
        "answer", "answers", "evk");
    switch (args[1]) {
      case "keygen": {
        Options o = new Options("client keygen", args, 2, Set.of("preset", "out"));
        Params p = Presets.byId(o.get("preset", Presets.ONIONPIR_4096.id()));
        org.jpir.core.CompactParams cp = DatabaseSpec.compactFor(p);
        SecretKey sk = cp != null ? org.jpir.core.CompactClient.generateSecret(cp, random)
            : SecretKey.generate(p, random);
        Path out = Path.of(o.require("out"));
        AnswerJob.write(out.toAbsolutePath(), Wire.writeSecretKey(sk));
        System.out.println("client: secret key for " + p.id() + " written to " + out);
        return 0;
      }
      case "evk": {
        Options o = new Options("client evk", args, 2, common);
        byte[] evk = new AnyClient(o, random).evaluationKeys();
        AnswerJob.write(Path.of(o.require("out")).toAbsolutePath(), evk);
        System.out.println("client: evaluation keys of '" + o.require("client-id") + "' ("
            + evk.length + " bytes) written; the server reads <client-id>.evk from its --keys"
            + " directory");
        return 0;
      }
      case "query": {
        Options o = new Options("client query", args, 2, common);
        long index = o.getLong("index", -1);
        byte[] q = new AnyClient(o, random).query(index, o.get("evk", null) != null);
        AnswerJob.write(Path.of(o.require("out")).toAbsolutePath(), q);
        System.out.println("client: query for record " + index + " (" + q.length + " bytes)");
        return 0;
      }
      case "decode": {
        Options o = new Options("client decode", args, 2, common);
        DatabaseSpec db = DatabaseSpec.parse(o.require("db"));
        Params p = db.params(o.get("preset", null));
        long index = o.getLong("index", -1);
        byte[] rec = new AnyClient(o, random).decode(
            Files.readAllBytes(Path.of(o.require("answer"))), p, index);
        AnswerJob.write(Path.of(o.require("out")).toAbsolutePath(), rec);
        System.out.println("client: record " + index + " (" + rec.length + " bytes) written");
        return 0;
      }
      case "verify": {
        Options o = new Options("client verify", args, 2, common);
        DatabaseSpec db = DatabaseSpec.parse(o.require("db"));
        Params p = db.params(o.get("preset", null));
        AnyClient client = new AnyClient(o, random);
        org.jpir.core.RecordSource truth = db.factory().open();
        int ok = 0;
        int bad = 0;
        try (java.util.stream.Stream<Path> files = Files.list(Path.of(o.require("answers")))) {
          for (Path f : files.filter(x -> x.toString().endsWith(".answer")).sorted().toList()) {
            long index = Long.parseLong(AnswerJob.stem(f));
            byte[] want = new byte[truth.recordSize()];
            truth.read(index, want, 0);
            byte[] got = client.decode(Files.readAllBytes(f), p, index);
            if (java.util.Arrays.equals(want, got)) {
              ok++;
            } else {
              bad++;
              System.out.println("client: record " + index + " DIFFERS from the database");
            }
          }
        }
        System.out.println("client: verified " + ok + " answers exact, " + bad + " wrong");
        return ok > 0 && bad == 0 ? 0 : 1;
      }
      default:
        throw new IllegalArgumentException("unknown client command '" + args[1]
            + "' (known: keygen, evk, query, decode, verify)");
    }
  }
}
