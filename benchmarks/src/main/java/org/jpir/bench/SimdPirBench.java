package org.jpir.bench;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.lwe.Prg;
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
import org.jpir.vmp.Pmat;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The SIMD study's scheme-level operations at the production preset (N = 4096) with the JVM-wide
 * kernels: one external product (GLWE x prepared GGSW), phase 1 over every column of a
 * {@code mib} MiB synthetic database (plane 0), phase 2 (the CMux fold of one plane's column
 * results) and one whole query ({@link PirServer#answer}). The whole-query setup decodes its
 * answer and checks it against the generator before anything is timed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SimdPirBench {
  @Param({"16"})
  public int mib;

  private Params p;
  private GlweOps ops;
  private Glwe x;
  private PreparedGgsw ggsw;
  private Glwe out;
  private Geometry g;
  private PreparedDatabase db;
  private PreparedQuery prepared;
  private PirServer server;
  private List<Glwe> leaves;
  private int levels;

  @Setup(Level.Trial)
  public void setup(BenchmarkParams bp) {
    setup(bp.getBenchmark().substring(bp.getBenchmark().lastIndexOf('.') + 1));
  }

  /** Builds what benchmark {@code method} needs. */
  void setup(String method) {
    p = Presets.ONIONPIR_4096;
    ops = new GlweOps(p);
    SecureRandom random = new SecureRandom();
    SecretKey sk = SecretKey.generate(p, random);
    Prg mask = new Prg(new byte[Prg.SEED_BYTES], 1);
    Prg noise = new Prg(new byte[Prg.SEED_BYTES], 2);
    if (method.equals("externalProduct")) {
      x = ops.encrypt(sk, null, mask, noise);
      ggsw = ops.prepare(ops.encryptGgsw(sk, 1, mask, noise));
      out = new Glwe(p.n(), p.glweLimbs());
      return;
    }
    int recordSize = p.bytesPerPolynomial();
    long count = ((long) mib << 20) / recordSize;
    SyntheticRecords src = new SyntheticRecords(count, recordSize, 11);
    g = Geometry.choose(p, count, recordSize, 1024);
    db = PreparedDatabase.prepare(p, g, src);
    PirClient client = new PirClient(p, g, sk, random);
    long index = count / 3;
    ClientQuery query = client.query(index);
    server = new PirServer(p);
    prepared = new QueryExpander(p).expand(query, g);
    if (method.equals("query")) {
      Answer a = server.answer(db, prepared, null);
      if (!Arrays.equals(client.decode(a, index), src.record(index))) {
        throw new IllegalStateException("SimdPirBench: decoded record differs from the database");
      }
    }
    levels = PirServer.rangeLevel(g.cols(), g.cols());
    leaves = new ArrayList<>();
    for (int c = 0; c < g.cols(); c++) {
      leaves.add(ops.encrypt(sk, null, mask, noise));
    }
    System.out.printf("%nSimdPirBench: %d rows x %d columns, %d planes, fold depth %d%n",
        g.rows(), g.cols(), g.planes(), levels);
  }

  @Benchmark
  public Glwe externalProduct() {
    ops.externalProduct(x, ggsw, out);
    return out;
  }

  /** Phase 1 over all columns of plane 0. */
  @Benchmark
  public long phase1() {
    return server.phase1Only(db, new PreparedQuery[] {prepared});
  }

  /** Phase 2 of one plane: the CMux tree over its column results. */
  @Benchmark
  public List<Glwe> phase2() {
    return server.fold(leaves, 0, levels, prepared.ggsw());
  }

  /** One whole query: every plane, phase 1 and phase 2, and the rounded answer. */
  @Benchmark
  public Answer query() {
    return server.answer(db, prepared, null);
  }
}
