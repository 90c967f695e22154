package org.jpir.core.demo;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import org.jpir.core.Answer;
import org.jpir.core.ClientQuery;
import org.jpir.core.Geometry;
import org.jpir.core.Noise;
import org.jpir.core.Params;
import org.jpir.core.PirClient;
import org.jpir.core.PirServer;
import org.jpir.core.PreparedDatabase;
import org.jpir.core.PreparedQuery;
import org.jpir.core.Presets;
import org.jpir.core.QueryExpander;
import org.jpir.core.SecretKey;
import org.jpir.core.SyntheticRecords;
import org.jpir.core.Wire;
import org.jpir.vmp.KernelProvider;

/**
 * The single-JVM PIR demo: generates a seeded synthetic database, prepares it, makes queries
 * for random indices (first and last included), answers them through the wire format, decodes
 * them and checks every record against the generator; prints sizes, per-phase times and the
 * throughput in raw database bytes per second on one core. Exits 1 if any record is wrong.
 *
 * <p>Options: {@code --mib M} (database size, default 64), {@code --record-size B} (default
 * 1024), {@code --queries Q} (default 4), {@code --preset ID} (default onionpir-4096-128),
 * {@code --max-rows R} (default 1024), {@code --seed S}.
 */
public final class LocalDemo {
  private LocalDemo() {}

  public static void main(String[] args) {
    long mib = 64;
    int recordSize = 1024;
    int queries = 4;
    int maxRows = 1024;
    long seed = 2026;
    Params p = Presets.ONIONPIR_4096;
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--mib": mib = Long.parseLong(need(v, args[i])); i++; break;
        case "--record-size": recordSize = Integer.parseInt(need(v, args[i])); i++; break;
        case "--queries": queries = Integer.parseInt(need(v, args[i])); i++; break;
        case "--preset": p = Presets.byId(need(v, args[i])); i++; break;
        case "--max-rows": maxRows = Integer.parseInt(need(v, args[i])); i++; break;
        case "--seed": seed = Long.parseLong(need(v, args[i])); i++; break;
        default: throw new IllegalArgumentException("unknown option '" + args[i] + "' (known:"
            + " --mib --record-size --queries --preset --max-rows --seed)");
      }
    }
    System.exit(run(p, mib, recordSize, queries, maxRows, seed) ? 0 : 1);
  }

  private static String need(String v, String opt) {
    if (v == null) {
      throw new IllegalArgumentException("option " + opt + " needs a value");
    }
    return v;
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
    java.util.SplittableRandom pick = new java.util.SplittableRandom(seed);
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
