package org.jpir.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.ServerErrorFile;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.RecordSource;
import org.jpir.core.wire.QueryFileName;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.core.wire.SafeText;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.keyword.KeywordParams;
import org.jpir.spark.source.DatabaseSpec;
import org.jpir.spark.source.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The client's commands ({@code client keygen|evk|query|decode|verify|lookup}): everything that
 * touches the secret key runs here, on the client's machine; the files they write for the server
 * are named by random ids, the id -> index map ({@code --ids}) stays with the client.
 */
final class ClientCommands {
  private ClientCommands() {}

  /** The {@code client} command: one of its subcommands. */
  @Command(name = "client", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "The client's side: keys, queries, decoding.")
  static final class Client implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
      throw new CommandLine.ParameterException(spec.commandLine(), "missing client command"
          + " (keygen, evk, query, decode, verify, lookup)");
    }
  }

  /** The commands' tree under {@code client}. */
  static CommandLine commandLine() {
    return new CommandLine(new Client()).addSubcommand(new Keygen()).addSubcommand(new Evk())
        .addSubcommand(new Query()).addSubcommand(new Decode()).addSubcommand(new Verify())
        .addSubcommand(new Lookup());
  }

  /** The database and the client's key: what every command but keygen needs. */
  static final class KeyOptions {
    @Option(names = "--db", required = true, description = "the database (its manifest gives the"
        + " preset and the geometry)")
    String db;

    @Option(names = "--key", required = true, description = "the secret key file")
    Path key;

    @Option(names = "--client-id", description = "the client's id (compact presets: required)")
    String clientId;

    @Option(names = "--evk", description = "the client's evaluation keys (compact presets)")
    Path evk;

    @Option(names = "--preset", description = "the preset (default: the database's)")
    String preset;

    @Option(names = "--max-rows", description = "most rows of the grid (default:"
        + " ${DEFAULT-VALUE})")
    int maxRows = 1024;

    /** The client of these options. */
    AnyClient client(SecureRandom random) throws java.io.IOException {
      return client(DatabaseSpec.parse(db), random);
    }

    /** The client of these options for {@code spec}, the database of {@code --db} parsed. */
    AnyClient client(DatabaseSpec spec, SecureRandom random) throws java.io.IOException {
      Params p = spec.params(preset);
      Geometry g = spec.geometry(p, maxRows);
      byte[] keyBytes = Files.readAllBytes(key);
      AnyClient.requireKeyFor(p, keyBytes, key.toString(), db);
      AnyClient c = AnyClient.withKey(p, g, keyBytes, () -> {
        if (clientId == null) {
          throw new IllegalArgumentException("option --client-id is required for the compact"
              + " preset " + p.id());
        }
        return clientId;
      }, random);
      if (evk != null && c.isCompact()) {
        c.useEvaluationKeys(Files.readAllBytes(evk));
      }
      return c;
    }
  }

  /** {@code --ids FILE}: the client's private map from query ids to record indices. */
  static final class IdsOption {
    @Option(names = "--ids", required = true, description = "the client's private map from the"
        + " random query ids (the file names the server sees) to record indices")
    Path ids;
  }

  /**
   * {@code client keygen}: a secret key for the preset of {@code --db} (a stored database's
   * manifest; a synthetic one's record-size default or {@code --preset}), else of {@code
   * --preset}, else {@link Presets#DEFAULT}; it prints the preset and why it was chosen.
   */
  @Command(name = "keygen", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "A secret key from SecureRandom, for the preset of the database --db (give it:"
      + " databases of small records default to onionpir-2048-compact-128), else --preset, else"
      + " onionpir-4096-compact-128.")
  static final class Keygen implements Callable<Integer> {
    @Option(names = "--db", description = "the database the key is for: the key gets its preset"
        + " (a stored database's manifest; for synthetic:<count>x<size> the record size's"
        + " default unless --preset)")
    String db;

    @Option(names = "--preset", description = "the preset (default: the database's; without"
        + " --db onionpir-4096-compact-128)")
    String preset;

    @Option(names = "--out", required = true, description = "the key file to write")
    Path out;

    @Override
    public Integer call() throws java.io.IOException {
      SecureRandom random = new SecureRandom();
      Params p = params();
      org.jpir.core.params.CompactParams cp = Presets.compactFor(p);
      SecretKey sk = cp != null ? CompactClient.generateSecret(cp, random)
          : SecretKey.generate(p, random);
      writeLocal(out, Wire.writeSecretKey(sk));
      System.out.println("client: secret key for preset " + p.id() + " (" + why() + ") written"
          + " to " + out);
      return 0;
    }

    /** The key's preset: the database's, else {@code --preset}, else {@link Presets#DEFAULT}. */
    Params params() {
      if (db != null) {
        return DatabaseSpec.parse(db).params(preset);
      }
      return preset != null ? Presets.byId(preset) : Presets.DEFAULT;
    }

    /** Why {@link #params} chose its preset, for the line keygen prints. */
    private String why() {
      if (preset != null) {
        return "--preset";
      }
      return db != null ? "the preset of database " + db : "no --db or --preset: the default"
          + " for every database; a database of another preset needs a key made with --db";
    }
  }

  @Command(name = "evk", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "The client's evaluation keys, uploaded once into the"
      + " server's --keys directory (compact presets).")
  static final class Evk implements Callable<Integer> {
    @Mixin
    KeyOptions k;

    @Option(names = "--out", required = true, description = "the .evk file to write")
    Path out;

    @Override
    public Integer call() throws java.io.IOException {
      AnyClient client = k.client(new SecureRandom());
      byte[] evk = client.evaluationKeys();
      writeLocal(out, evk);
      System.out.println("client: evaluation keys of '" + k.clientId + "' (" + evk.length
          + " bytes) written; the server reads <client-id>.evk from its --keys directory");
      byte[] pack = client.packingKey();
      if (pack != null) {
        String name = out.getFileName().toString();
        Path packFile = out.resolveSibling((name.endsWith(".evk")
            ? name.substring(0, name.length() - 4) : name) + ".pack");
        writeLocal(packFile, pack);
        System.out.println("client: plane-packing key (" + pack.length + " bytes) written to "
            + packFile + "; beside the .evk file it makes answers to records spanning planes"
            + " share one mask");
      }
      return 0;
    }
  }

  @Command(name = "query", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Queries for records, as <random id>.cquery (.query"
      + " for a classic preset).")
  static final class Query implements Callable<Integer> {
    @Mixin
    KeyOptions k;

    @Mixin
    IdsOption ids;

    @Option(names = "--index", split = ",", description = "record indices I[,J...]")
    List<Long> index;

    @Option(names = "--random", description = "N random records instead of --index")
    int random;

    @Option(names = "--out", required = true, description = "the query directory to write into")
    Path out;

    @Override
    public Integer call() throws java.io.IOException {
      SecureRandom rnd = new SecureRandom();
      AnyClient client = k.client(rnd);
      long[] idx = indices(client.recordCount(), rnd);
      Path dir = out.toAbsolutePath();
      long bytes = writeQueries(client, idx, dir, ids.ids, rnd);
      System.out.println("client: " + idx.length + " queries (" + bytes + " bytes each) written"
          + " to " + dir + " as <random id>" + client.extension() + "; their ids are in "
          + ids.ids + " (keep it: decoding needs it, the server must never see it)");
      return 0;
    }

    private long[] indices(long count, SecureRandom rnd) {
      if ((index == null) == (random <= 0)) {
        throw new IllegalArgumentException("client query: give --index I[,J,...] or --random N");
      }
      long[] out = index != null ? index.stream().mapToLong(Long::longValue).toArray()
          : rnd.longs(random, 0, count).toArray();
      for (long i : out) {
        if (i < 0 || i >= count) {
          throw new IllegalArgumentException("client query: index " + i + " is outside the "
              + count + " records");
        }
      }
      return out;
    }
  }

  @Command(name = "decode", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Decode one answer (the index comes from the map).")
  static final class Decode implements Callable<Integer> {
    @Mixin
    KeyOptions k;

    @Option(names = "--ids", description = "the client's id -> index map (unless --index)")
    Path ids;

    @Option(names = "--index", description = "the record index (instead of the map's)")
    Long index;

    @Option(names = "--answer", required = true, description = "the answer file")
    Path answer;

    @Option(names = "--out", required = true, description = "the record file to write")
    Path out;

    @Override
    public Integer call() throws java.io.IOException {
      if (index == null && ids == null) {
        throw new IllegalArgumentException("client decode: --ids FILE (or --index I) is"
            + " required: the client's private map from the random query ids to record"
            + " indices");
      }
      long i = index != null ? index
          : QueryIdMap.load(ids, false).index(AnswerJob.stem(answer));
      byte[] rec = k.client(new SecureRandom()).decode(answer, i);
      writeLocal(out, rec);
      System.out.println("client: record (" + rec.length + " bytes) written to " + out);
      return 0;
    }
  }

  @Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Decode the answer of every id in the map and compare"
      + " it with the database (exit 1 unless every id has an exact answer).")
  static final class Verify implements Callable<Integer> {
    @Mixin
    KeyOptions k;

    @Mixin
    IdsOption ids;

    @Option(names = "--answers", required = true, description = "the answer directory")
    Path answers;

    @Override
    public Integer call() throws Exception {
      DatabaseSpec db = DatabaseSpec.parse(k.db);
      AnyClient client = k.client(db, new SecureRandom());
      QueryIdMap map = QueryIdMap.load(ids.ids, false);
      RecordSource truth = db.factory().open();
      int ok = 0;
      int bad = 0;
      int errors = 0;
      int missing = 0;
      for (Map.Entry<String, Long> e : map.entries().entrySet()) {
        Path f = answers.resolve(e.getKey() + ".answer");
        if (Files.exists(f)) {
          byte[] want = new byte[truth.recordSize()];
          truth.read(e.getValue(), want, 0);
          byte[] got;
          try {
            got = client.decode(f, e.getValue());
          } catch (IllegalArgumentException ex) {
            got = null;
            System.out.println("client: answer " + f.getFileName() + " refused: "
                + SafeText.escape(ex.getMessage(), ServerErrorFile.MAX_BYTES));
          }
          if (got != null && Arrays.equals(want, got)) {
            ok++;
          } else {
            bad++;
            System.out.println("client: answer " + f.getFileName() + " DIFFERS from the"
                + " database");
          }
        } else if (Files.exists(answers.resolve(e.getKey() + ".error"))) {
          errors++;
          // the server's text, bounded and escaped: nothing it wrote reaches the terminal raw
          System.out.println("client: query " + e.getKey() + " has an error file: "
              + ServerErrorFile.read(answers.resolve(e.getKey() + ".error")));
        } else {
          missing++;
        }
      }
      System.out.println("client: verified " + ok + " answers exact, " + bad + " wrong, "
          + errors + " with an error file, " + missing + " without an answer (of " + map.size()
          + " ids)");
      return ok > 0 && bad == 0 && errors == 0 && missing == 0 ? 0 : 1;
    }
  }

  /**
   * Private keyword lookup in a keyword database (a cuckoo table; {@code data import ...
   * --keyword}): with {@code --out q}, one query per candidate bucket of {@code --keyword}
   * (always all of them, so the server sees the same files for every key, present or not) named
   * by random ids recorded in {@code --ids}; with {@code --answers a}, decodes those buckets'
   * answers, searches them and the stash from the manifest, prints the value (exit 0) or
   * "absent" (exit 3).
   */
  @Command(name = "lookup", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Private keyword lookup: --out writes the queries of"
      + " every candidate bucket, --answers decodes them (the value, or 'absent' with exit 3).")
  static final class Lookup implements Callable<Integer> {
    @Mixin
    KeyOptions k;

    @Mixin
    IdsOption ids;

    @Option(names = "--keyword", required = true, description = "the key to look up")
    String keyword;

    @Option(names = "--out", description = "write the queries into this directory")
    Path out;

    @Option(names = "--answers", description = "decode the answers in this directory")
    Path answers;

    @Override
    public Integer call() throws Exception {
      DatabaseSpec db = DatabaseSpec.parse(k.db);
      KeywordParams kp = keywordParams(k.db, db);
      byte[] key = keyword.getBytes(StandardCharsets.UTF_8);
      int[] buckets = kp.candidates(key);
      SecureRandom random = new SecureRandom();
      AnyClient client = k.client(db, random);
      if ((out == null) == (answers == null)) {
        throw new IllegalArgumentException("client lookup: give --out DIR (write the queries)"
            + " or --answers DIR (decode the answers)");
      }
      if (out != null) {
        Path dir = out.toAbsolutePath();
        writeQueries(client, java.util.Arrays.stream(buckets).asLongStream().toArray(), dir,
            ids.ids, random);
        System.out.println("client: " + buckets.length + " queries (one per candidate bucket,"
            + " as for every key) written to " + dir + "; their ids are in " + ids.ids);
        return 0;
      }
      QueryIdMap map = QueryIdMap.load(ids.ids, false);
      byte[][] got = new byte[buckets.length][];
      for (int j = 0; j < buckets.length; j++) {
        for (Map.Entry<String, Long> e : map.entries().entrySet()) {
          Path f = answers.resolve(e.getKey() + ".answer");
          if (e.getValue() == buckets[j] && Files.exists(f)) {
            got[j] = client.decode(f, buckets[j]);
            break;
          }
        }
        if (got[j] == null) {
          throw new IllegalArgumentException("client lookup: no answer in " + answers + " for"
              + " candidate bucket " + (j + 1) + " of " + buckets.length + " (were the queries"
              + " of this keyword written with --ids " + ids.ids + " and answered?)");
        }
      }
      Optional<byte[]> v = kp.find(key, got);
      System.out.println(v.map(b -> new String(b, StandardCharsets.UTF_8)).orElse("absent"));
      return v.isPresent() ? 0 : 3;
    }
  }

  /**
   * Writes one query per index into {@code dir} (created if absent) as {@code <random
   * id><extension>}, adds the ids to the map in {@code mapFile} (saved); returns a query's size.
   */
  static long writeQueries(AnyClient client, long[] indices, Path dir, Path mapFile,
      SecureRandom random) throws java.io.IOException {
    Files.createDirectories(dir);
    QueryIdMap map = QueryIdMap.load(mapFile, true);
    long bytes = 0;
    for (long i : indices) {
      byte[] q = client.query(i);
      // exactly the names a server reads (QueryDirectory): the id and the kind's suffix
      Storage.writeLocal(dir.resolve(new QueryFileName(map.add(i, random), client.isCompact())
          .fileName()), q);
      bytes = q.length;
    }
    map.save(mapFile);
    return bytes;
  }

  /** The keyword parameters in the manifest of {@code db}, the stored database {@code spec}. */
  private static KeywordParams keywordParams(String spec, DatabaseSpec db) {
    return KeywordParams.fromManifest(db.manifestExtra()).orElseThrow(
        () -> new IllegalArgumentException(spec + " is not a keyword database (import it"
            + " with --keyword)"));
  }

  /** Writes a client-side file atomically, creating its directory first. */
  static void writeLocal(Path file, byte[] bytes) throws java.io.IOException {
    Path abs = file.toAbsolutePath();
    Files.createDirectories(abs.getParent());
    Storage.writeLocal(abs, bytes);
  }
}
