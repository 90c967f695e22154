package org.jpir.client.tools;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jpir.client.ClientDatabase;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A hostile client: bad query files for tests of the answer job (spark-jobs' tests and {@code
 * deploy/cluster-test.sh}), each named by a random id like a real query: a 74-byte query with a valid checksum that
 * declares about 2^30 elements, a truncated query, and a query for another preset.
 *
 * <p>{@code HostileQueries --preset P --db SPEC --out DIR [--max-rows R]} writes them and prints
 * one {@code <file name> <what it is>} line each.
 */
public final class HostileQueries {
  private HostileQueries() {}

  /**
   * Writes the three files into {@code dir} for a server running {@code p} at {@code g}; returns
   * file name -> what it is.
   */
  public static Map<String, String> write(Path dir, Params p, Geometry g, SecureRandom random)
      throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    Files.createDirectories(dir);
    String huge = QueryIdMap.newId(random) + ".query";
    Files.write(dir.resolve(huge), declaresHuge(p));
    out.put(huge, "74-byte query declaring about 2^30 elements");
    PirClient client = new PirClient(p, g, SecretKey.generate(p, random), random);
    byte[] q = Wire.writeQuery(client.query(0));
    String truncated = QueryIdMap.newId(random) + ".query";
    Files.write(dir.resolve(truncated), Arrays.copyOf(q, q.length - q.length / 3));
    out.put(truncated, "truncated query");
    Params other = otherPreset(p);
    Geometry og = Geometry.choose(other, g.recordCount(), g.recordSize(), 1024);
    PirClient oc = new PirClient(other, og, SecretKey.generate(other, random), random);
    String foreign = QueryIdMap.newId(random) + ".query";
    Files.write(dir.resolve(foreign), Wire.writeQuery(oc.query(0)));
    out.put(foreign, "query for preset " + other.id());
    return out;
  }

  /** Another preset of the same security class (production for production). */
  public static Params otherPreset(Params p) {
    for (Params o : Presets.all()) {
      if (!o.id().equals(p.id()) && o.secure() == p.secure()) {
        return o;
      }
    }
    throw new IllegalStateException("no other preset than " + p.id());
  }

  /**
   * A query message of preset {@code p} with a valid checksum whose phase-1 array declares
   * about 2^30 elements (rows chosen so that rows x limbs x glweLimbs x N is just below 2^30),
   * followed by no data: 74 bytes for a 17-character preset id.
   */
  public static byte[] declaresHuge(Params p) throws IOException {
    long per = (long) p.plaintextLimbs() * p.glweLimbs() * p.n();
    int rows = (int) ((1L << 30) / per);
    ByteArrayOutputStream fields = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(fields);
    out.writeInt(rows);
    out.writeInt(2);
    out.write(new byte[Prg.SEED_BYTES]);
    out.writeInt((int) (rows * per));
    out.flush();
    return Wire.forgeQuery(p.id(), fields.toByteArray());
  }

  /** The command line: {@code --db D --out DIR [--preset P] [--max-rows R]}. */
  @Command(name = "HostileQueries", mixinStandardHelpOptions = true,
      versionProvider = JpirVersion.class,
      description = "Write the hostile query files of the cluster test.")
  public static final class Cli implements Callable<Integer> {
    @Option(names = "--db", required = true, description = "the database")
    String db;

    @Option(names = "--out", required = true, description = "the directory")
    Path out;

    @Option(names = "--preset", description = "the preset")
    String preset;

    @Option(names = "--max-rows", description = "most rows")
    int maxRows = 1024;

    @Override
    public Integer call() throws Exception {
      ClientDatabase spec = ClientDatabase.parse(db);
      Params p = spec.params(preset);
      Geometry g = spec.geometry(p, maxRows);
      for (Map.Entry<String, String> e : write(out, p, g, new SecureRandom()).entrySet()) {
        System.out.println(e.getKey() + " " + e.getValue());
      }
      return 0;
    }
  }

  /** Writes the files as {@link Cli} says and exits with its code. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new Cli()).execute(args));
  }
}
