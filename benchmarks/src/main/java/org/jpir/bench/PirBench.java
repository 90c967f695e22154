package org.jpir.bench;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Server time per query at the production preset on one core, split into query expansion,
 * phase 1 alone (for {@code batch} queries in one pass), and the whole answer (phase 1 + phase 2),
 * for a synthetic database of
 * {@code mib} MiB of records one polynomial (28 KiB) each, in the geometry {@link
 * Geometry#choose} picks (or {@code rows} rows when non-zero). {@code @Setup} decodes one answer
 * and checks it against the generator before anything is timed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PirBench {
  @Param({"256"})
  public int mib;

  @Param({"0"})
  public int rows;

  /** Queries answered together by {@link #phase1} (one pass over the database). */
  @Param({"1"})
  public int batch;

  Params p;
  Geometry g;
  PreparedDatabase db;
  ClientQuery query;
  PreparedQuery prepared;
  PreparedQuery[] batchQueries;
  QueryExpander expander;
  PirServer server;

  @Setup(Level.Trial)
  public void setup() {
    p = Presets.ONIONPIR_4096;
    int recordSize = p.bytesPerPolynomial();
    long count = ((long) mib << 20) / recordSize;
    SyntheticRecords src = new SyntheticRecords(count, recordSize, 11);
    g = rows > 0 ? Geometry.of(p, count, recordSize, rows)
        : Geometry.choose(p, count, recordSize, 1024);
    db = PreparedDatabase.prepare(p, g, src);
    SecureRandom random = new SecureRandom();
    PirClient client = new PirClient(p, g, SecretKey.generate(p, random), random);
    long index = count / 3;
    query = client.query(index);
    expander = new QueryExpander(p);
    server = new PirServer(p);
    prepared = expander.expand(query, g);
    batchQueries = new PreparedQuery[batch];
    for (int i = 0; i < batch; i++) {
      batchQueries[i] = i == 0 ? prepared : expander.expand(client.query((index + i) % count), g);
    }
    Answer a = server.answer(db, prepared, null);
    if (!Arrays.equals(client.decode(a, index), src.record(index))) {
      throw new IllegalStateException("PirBench setup: decoded record differs from the database");
    }
    System.out.printf("%nPirBench: %d rows x %d columns, raw %d bytes%n", g.rows(), g.cols(),
        g.rawBytes());
  }

  /** Raw database bytes of the benchmark's database (for the report's GB/s). */
  public static long rawBytes(int mib) {
    long recordSize = Presets.ONIONPIR_4096.bytesPerPolynomial();
    return (((long) mib << 20) / recordSize) * recordSize;
  }

  /** The geometry the benchmark uses at {@code mib} MiB with {@code rows = 0}. */
  static Geometry geometry(int mib) {
    Params p = Presets.ONIONPIR_4096;
    int recordSize = p.bytesPerPolynomial();
    return Geometry.choose(p, ((long) mib << 20) / recordSize, recordSize, 1024);
  }

  /**
   * Flops of phase 1 for one query at {@code mib} MiB: 8 per complex multiply-add, N/2 slots,
   * (rows x plaintextLimbs) PMAT rows, glweColumns matrix columns, all database columns.
   */
  public static double phase1Flops(int mib) {
    Params p = Presets.ONIONPIR_4096;
    Geometry g = geometry(mib);
    return 8.0 * (p.n() / 2) * g.rows() * p.plaintextLimbs() * p.glweColumns() * g.cols()
        * g.planes();
  }

  /** Bytes of PVECs phase 1 reads at {@code mib} MiB (the prepared database, 8 N per row). */
  public static double pvecBytes(int mib) {
    Params p = Presets.ONIONPIR_4096;
    Geometry g = geometry(mib);
    return 8.0 * p.n() * g.rows() * p.plaintextLimbs() * (double) g.cols() * g.planes();
  }

  @Benchmark
  public PreparedQuery expand() {
    return expander.expand(query, g);
  }

  @Benchmark
  public long phase1() {
    return server.phase1Only(db, batchQueries);
  }

  @Benchmark
  public Answer answer() {
    return server.answer(db, prepared, null);
  }
}
