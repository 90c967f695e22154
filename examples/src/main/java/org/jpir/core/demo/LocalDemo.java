package org.jpir.core.demo;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.cli.PresetOption;
import org.jpir.vmp.KernelProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The single-JVM PIR demo: generates a seeded synthetic database, prepares it, makes queries
 * for random indices (first and last included), answers them through the wire format, decodes
 * them and checks every record against the generator; prints sizes, per-phase times and the
 * throughput in raw database bytes per second on one core. Exits 1 if any record is wrong.
 */
@Command(name = "local-demo", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "The PIR protocol in one JVM on a generated"
    + " database: every record checked; exit 1 if any is wrong.")
public final class LocalDemo implements Callable<Integer> {
  @Option(names = "--mib", description = "database size in MiB (default: ${DEFAULT-VALUE})")
  long mib = 64;

  @Option(names = "--record-size", description = "bytes per record (default: ${DEFAULT-VALUE})")
  int recordSize = 1024;

  @Option(names = "--queries", description = "queries (default: ${DEFAULT-VALUE})")
  int queries = 4;

  @Mixin
  PresetOption preset = new PresetOption(Presets.ONIONPIR_4096);

  @Option(names = "--max-rows", description = "most rows of the geometry (default:"
      + " ${DEFAULT-VALUE})")
  int maxRows = 1024;

  @Option(names = "--seed", description = "seed of the generated records (default:"
      + " ${DEFAULT-VALUE})")
  long seed = 2026;

  public static void main(String[] args) {
    System.exit(new CommandLine(new LocalDemo()).execute(args));
  }

  @Override
  public Integer call() {
    return run(preset.params(), mib, recordSize, queries, maxRows, seed) ? 0 : 1;
  }

  static boolean run(Params p, long mib, int recordSize, int queries, int maxRows, long seed) {
    long count = Math.max(1, (mib << 20) / recordSize);
    SyntheticRecords src = new SyntheticRecords(count, recordSize, seed);
    Geometry g = Geometry.choose(p, count, recordSize, maxRows);
    System.out.printf(Locale.ROOT, "demo: preset %s (%s), kernels %s%n", p.id(),
        p.secure() ? p.securityBits() + "-bit" : "INSECURE", KernelProvider.get());
    System.out.printf(Locale.ROOT, "demo: %d records x %d bytes = %.1f MiB; grid %d rows x %d"
        + " columns x %d plane(s), %d records per polynomial%n", count, recordSize,
        g.rawBytes() / 1048576.0, g.rows(), g.cols(), g.planes(), g.recordsPerPoly());
    long t0 = System.nanoTime();
    int[] last = {0};
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src, 0, g.cols(), done -> {
      if (done * 10 / g.cols() != last[0] * 10 / g.cols() || done == g.cols()) {
        System.out.printf(Locale.ROOT, "demo: prepared %d/%d columns%n", done, g.cols());
      }
      last[0] = done;
    });
    double prepS = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "demo: prepared database %.1f MiB (%.2fx raw) in %.2f s%n",
        db.sizeBytes() / 1048576.0, db.sizeBytes() / (double) g.rawBytes(), prepS);

    SecureRandom random = new SecureRandom();
    SecretKey sk = SecretKey.generate(p, random);
    PirClient client = new PirClient(p, g, sk, random);
    QueryExpander expander = new QueryExpander(p);
    PirServer server = new PirServer(p);
    SplittableRandom pick = new SplittableRandom(seed);
    boolean ok = true;
    double serverTotal = 0;
    for (int qi = 0; qi < queries; qi++) {
      long index = qi == 0 ? 0 : qi == 1 ? count - 1 : pick.nextLong(count);
      long a = System.nanoTime();
      ClientQuery q = client.query(index);
      byte[] qBytes = Wire.writeQuery(q);
      long b = System.nanoTime();
      PreparedQuery pq = expander.expand(Wire.readQuery(qBytes, p), g);
      long c = System.nanoTime();
      PirServer.Timings t = new PirServer.Timings();
      Answer ans = server.answer(db, pq, t);
      byte[] aBytes = Wire.writeAnswer(ans);
      long d = System.nanoTime();
      byte[] got = client.decode(Wire.readAnswer(aBytes, p), index);
      long e = System.nanoTime();
      boolean good = Arrays.equals(got, src.record(index));
      ok &= good;
      double serverS = (d - b) / 1e9;
      serverTotal += serverS;
      System.out.printf(Locale.ROOT, "demo: query %d for record %d: %s | query %.1f MiB made in"
          + " %.2f s | server %.3f s (expand %.3f, phase 1 %.3f, phase 2 %.3f) | answer %.1f KiB"
          + " | decode %.3f s | %.2f GB/s%n", qi, index, good ? "OK" : "WRONG RECORD",
          qBytes.length / 1048576.0, (b - a) / 1e9, serverS, (c - b) / 1e9,
          t.phase1Nanos / 1e9, t.phase2Nanos / 1e9, aBytes.length / 1024.0, (e - d) / 1e9,
          g.rawBytes() / serverS / 1e9);
    }
    double log2Fail = Noise.log2FailureProbability(p, Noise.answer(p, g.rows(), g.cols()));
    System.out.printf(Locale.ROOT, "demo: %s: %d queries, mean server time %.3f s, throughput"
        + " %.2f GB/s of raw database per core; failure probability per coefficient 2^%.0f%n",
        ok ? "ALL RECORDS CORRECT" : "SOME RECORDS WRONG", queries, serverTotal / queries,
        g.rawBytes() * queries / serverTotal / 1e9, log2Fail);
    return ok;
  }
}
