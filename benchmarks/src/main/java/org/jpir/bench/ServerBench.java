package org.jpir.bench;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpir.core.client.CompactClient;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.CompactExpander;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.vmp.CpuInfo;
import org.jpir.vmp.ThreadAllocation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pir bench-server}: the server's time per query on one core, measured in one run on the
 * machine at hand, against the ceilings measured in the same run: a synthetic database of {@code
 * --mib} MiB of {@code --record-size}-byte records, its preparation (user and system CPU time of
 * the process), one query at a time (expansion, phase 1, phase 2, each record decoded and
 * compared) and batches of {@code --batch} queries in one pass; then the ceilings, peak FMA of
 * 512- and 256-bit vectors and a streaming read ({@link Ceilings}), after the timed queries so
 * that their loops do not share the kernels' compilation; with phase 1's two time bounds (its flops
 * at the measured peak, its prepared bytes at the measured streaming rate) and the ratios to a
 * peer's figures given on the command line. Writes {@code server-<utc>-<revision>.json} and
 * {@code .md} under {@code --out} and regenerates the index and the README table ({@link
 * ServerBenchReport}). Exit 1 when a record decodes wrongly.
 */
@Command(name = "bench-server", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class,
    description = "Server time per query (expansion, phase 1, phase 2; one query and batches)"
        + " against the ceilings measured in the same run; writes benchmarks/results/server-*.")
public final class ServerBench implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--preset", description = "preset (default: the one the record size selects,"
      + " Presets.forRecordSize)")
  String preset;

  @Option(names = "--mib", description = "database size, MiB (default: ${DEFAULT-VALUE})")
  long mib = 1024;

  @Option(names = "--record-size", description = "bytes per record (default: ${DEFAULT-VALUE})")
  int recordSize = 3072;

  @Option(names = "--queries", description = "timed single queries after the warm-up (default:"
      + " ${DEFAULT-VALUE})")
  int queries = 5;

  @Option(names = "--warmup", description = "untimed queries (and batch passes) first, for the"
      + " JIT (default: ${DEFAULT-VALUE}, as OnionPIRv2's --warmup 3)")
  int warmup = 3;

  @Option(names = "--batch-rounds", description = "timed batch passes after the warm-up"
      + " (default: ${DEFAULT-VALUE})")
  int batchRounds = 3;

  @Option(names = "--batch", description = "queries per batch pass, 0 for none (default:"
      + " ${DEFAULT-VALUE})")
  int batch = 4;

  @Option(names = "--anchor-name", description = "the peer's name (default: ${DEFAULT-VALUE})")
  String anchorName = "OnionPIRv2";

  @Option(names = "--anchor-ms", description = "the peer's server time per query, ms (0: none)")
  double anchorMs;

  @Option(names = "--anchor-expansion-ms", description = "the peer's expansion, ms")
  double anchorExpansionMs;

  @Option(names = "--anchor-phase1-ms", description = "the peer's first dimension, ms")
  double anchorPhase1Ms;

  @Option(names = "--anchor-phase2-ms", description = "the peer's other dimensions, ms")
  double anchorPhase2Ms;

  @Option(names = "--anchor-note", description = "where the peer's figures come from")
  String anchorNote = "";

  @Option(names = "--out", description = "results directory (default: ${DEFAULT-VALUE})")
  Path out = Path.of("benchmarks/results");

  @Option(names = "--readme", description = "README whose table is regenerated (default:"
      + " ${DEFAULT-VALUE}; --no-readme: none)")
  Path readme = Path.of("README.md");

  @Option(names = "--no-readme", description = "leave the README alone")
  boolean noReadme;

  /** Streaming-read array: 1 GiB, or less when --stream-mib says so. */
  @Option(names = "--stream-mib", description = "streaming-read array, MiB (default:"
      + " ${DEFAULT-VALUE})")
  int streamMib = 1024;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ServerBench()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    if (mib < 1 || recordSize < 1 || queries < 1 || warmup < 0 || batch < 0
        || batchRounds < 1 || streamMib < 64) {
      throw new CommandLine.ParameterException(spec.commandLine(), "need --mib >= 1,"
          + " --record-size >= 1, --queries >= 1, --warmup >= 0, --batch >= 0,"
          + " --batch-rounds >= 1, --stream-mib >= 64");
    }
    JsonObject r = new JsonObject();
    r.addProperty("utc", Instant.now().toString());
    r.addProperty("revision", Environment.gitRevision());
    r.addProperty("jdk", Environment.jdk());
    CpuInfo cpu = CpuInfo.get();
    r.addProperty("cpu", cpu.model());
    r.addProperty("cpuDetail", cpu.describe());
    r.addProperty("command", "./pir bench-server " + String.join(" ", spec.commandLine()
        .getParseResult().originalArgs().stream()
        .map(x -> x.matches("[\\w./:=,+-]*") ? x : "'" + x.replace("'", "'\\''") + "'")
        .toList()));
    say("%s; %s; revision %s", cpu.describe(), Environment.jdk(), Environment.gitRevision());

    CompactParams cp = Presets.compactFor(preset == null ? Presets.forRecordSize(recordSize)
        : Presets.byId(preset));
    if (cp == null) {
      throw new CommandLine.ParameterException(new CommandLine(this), "--preset " + preset
          + " is not a compact preset");
    }
    Params p = cp.server();
    long count = (mib << 20) / recordSize;
    CompactParams.GeometryChoice choice = cp.chooseGeometryWithReason(count, recordSize);
    Geometry g = choice.geometry();
    r.addProperty("preset", cp.id());
    r.addProperty("presetReason", preset == null ? Presets.recordSizeReason(recordSize)
        : "--preset");
    r.addProperty("phase1Digits", cp.phase1().toString());
    r.addProperty("mib", mib);
    r.addProperty("recordSize", recordSize);
    r.addProperty("geometry", g.rows() + " x " + g.cols() + " x " + g.planes()
        + (g.pairedTail() ? " (paired tail)" : ""));
    say("preset %s (%s); phase-1 digits %s; %d records: %s", cp.id(),
        r.get("presetReason").getAsString(), cp.phase1(), count, r.get("geometry").getAsString());

    SecureRandom random = new SecureRandom();
    CompactClient client = new CompactClient(cp, g, CompactClient.generateSecret(cp, random),
        "bench", random);
    byte[] keyBytes = Wire.writeEvaluationKeys(client.evaluationKeys());
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register("bench", keyBytes);
    SyntheticRecords src = new SyntheticRecords(g.recordCount(), recordSize, 2026);
    CpuTimes c0 = CpuTimes.now();
    long t0 = System.nanoTime();
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    long prepNanos = System.nanoTime() - t0;
    CpuTimes prep = CpuTimes.now().minus(c0);
    JsonObject pr = new JsonObject();
    pr.addProperty("seconds", prepNanos / 1e9);
    pr.addProperty("userSeconds", prep.user);
    pr.addProperty("systemSeconds", prep.system);
    pr.addProperty("systemOverUser", prep.system / Math.max(1e-9, prep.user));
    pr.addProperty("preparedBytes", db.sizeBytes());
    r.add("prepare", pr);
    say("prepared %.2f GB in %.1f s (user %.1f s, system %.1f s: %.0f%%)", db.sizeBytes() / 1e9,
        prepNanos / 1e9, prep.user, prep.system, 100 * prep.system / Math.max(1e-9, prep.user));

    PirServer server = new PirServer(p);
    CompactExpander ex = new CompactExpander(cp);
    boolean ok = true;
    Timed one = new Timed();
    for (int i = 0; i < warmup + queries; i++) {
      long index = i == 0 ? 0 : i == 1 ? g.recordCount() - 1 : (long) (random.nextDouble()
          * g.recordCount());
      byte[] qb = Wire.writeCompactQuery(client.query(index));
      long x0 = ThreadAllocation.bytes();
      long e0 = System.nanoTime();
      PreparedQuery pq = ex.expand(Wire.readCompactQuery(qb, cp), g, store, null);
      long e1 = System.nanoTime();
      long x1 = ThreadAllocation.bytes();
      PirServer.Timings st = new PirServer.Timings();
      Answer a = server.answer(db, pq, st);
      long x2 = ThreadAllocation.bytes();
      byte[] ab = Wire.writeAnswer(a);
      boolean good = Arrays.equals(src.record(index), client.decode(Wire.readAnswer(ab, p),
          index));
      ok &= good;
      if (i >= warmup) { // the first queries warm the JIT up
        one.add(e1 - e0, st.phase1Nanos, st.phase2Nanos, 1);
        one.allocated(x1 - x0, x2 - x1);
        one.queryBytes = qb.length;
        one.answerBytes = ab.length;
      }
      say("query %d (record %d): %s; expansion %.3f s, phase 1 %.3f s, phase 2 %.3f s;"
          + " allocated %.1f MB expanding, %.1f MB answering", i, index, good ? "ok" : "WRONG",
          (e1 - e0) / 1e9, st.phase1Nanos / 1e9, st.phase2Nanos / 1e9, (x1 - x0) / 1e6,
          (x2 - x1) / 1e6);
    }
    r.addProperty("warmup", warmup);
    Timed batched = null;
    r.addProperty("queryBytes", one.queryBytes);
    r.addProperty("answerBytes", one.answerBytes);
    r.addProperty("keyBytes", keyBytes.length);

    if (batch > 0) {
      Timed many = new Timed();
      // the first rounds warm the batch pass up (at least one: its tiling differs)
      final int batchWarmup = Math.max(1, Math.min(warmup, 2));
      for (int round = 0; round < batchWarmup + batchRounds; round++) {
        PreparedQuery[] qs = new PreparedQuery[batch];
        long[] idx = new long[batch];
        byte[][] wire = new byte[batch][];
        for (int i = 0; i < batch; i++) {
          idx[i] = (long) (random.nextDouble() * g.recordCount());
          wire[i] = Wire.writeCompactQuery(client.query(idx[i]));
        }
        // the server's work only, as for single queries: the client made the queries above
        long e0 = System.nanoTime();
        for (int i = 0; i < batch; i++) {
          qs[i] = ex.expand(Wire.readCompactQuery(wire[i], cp), g, store, null);
        }
        long e1 = System.nanoTime();
        PirServer.Timings st = new PirServer.Timings();
        Answer[] as = server.answerBatch(db, qs, st);
        for (int i = 0; i < batch; i++) {
          boolean good = Arrays.equals(src.record(idx[i]), client.decode(as[i], idx[i]));
          ok &= good;
          if (!good) {
            say("batch record %d: WRONG", idx[i]);
          }
        }
        if (round >= batchWarmup) {
          many.add(e1 - e0, st.phase1Nanos, st.phase2Nanos, batch);
        }
        say("batch of %d (round %d): per query expansion %.3f s, phase 1 %.3f s, phase 2 %.3f s",
            batch, round, (e1 - e0) / 1e9 / batch, st.phase1Nanos / 1e9 / batch,
            st.phase2Nanos / 1e9 / batch);
      }
      r.addProperty("batch", batch);
      // per query of a batch: the same flops, the prepared bytes read once for the whole batch
      batched = many;
    }
    // the ceilings run after the timed queries: their loops of both vector widths, compiled
    // while the kernels were, were seen to leave Java 17's FFT passes compiled without their
    // vector intrinsics in some JVMs (the per-query allocation shows it)
    JsonObject ceil = ceilings();
    r.add("ceilings", ceil);
    double peak = ceil.get("peakFmaWidestGflops").getAsDouble();
    double stream = ceil.get("streamReadGBs").getAsDouble();
    double flops = phase1Flops(p, g, cp);
    double flopBound = flops / (peak * 1e9);
    double streamBound = db.sizeBytes() / (stream * 1e9);
    JsonObject bounds = new JsonObject();
    bounds.addProperty("phase1Flops", flops);
    bounds.addProperty("phase1FlopSeconds", flopBound);
    bounds.addProperty("phase1StreamSeconds", streamBound);
    r.add("bounds", bounds);
    r.add("single", one.json(flopBound, streamBound));
    if (batched != null) {
      r.add("batched", batched.json(flopBound, streamBound / batch));
    }
    JsonObject anchor = new JsonObject();
    anchor.addProperty("name", anchorName);
    anchor.addProperty("serverMs", anchorMs);
    anchor.addProperty("expansionMs", anchorExpansionMs);
    anchor.addProperty("phase1Ms", anchorPhase1Ms);
    anchor.addProperty("phase2Ms", anchorPhase2Ms);
    anchor.addProperty("note", anchorNote);
    r.add("anchor", anchor);
    r.addProperty("allRecordsExact", ok);

    Files.createDirectories(out);
    String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
        .format(Instant.now());
    String base = "server-" + stamp + "-" + r.get("revision").getAsString().replace('+', '_');
    Path json = out.resolve(base + ".json");
    Files.writeString(json, new GsonBuilder().setPrettyPrinting().create().toJson(r),
        StandardCharsets.UTF_8);
    String md = ServerBenchReport.markdown(r);
    Files.writeString(out.resolve(base + ".md"), md, StandardCharsets.UTF_8);
    ServerBenchReport.writeIndex(out);
    if (!noReadme && Files.exists(readme)) {
      ServerBenchReport.updateReadme(readme, out, json);
    }
    System.out.print(md);
    say("wrote %s", json);
    return ok ? 0 : 1;
  }

  /** Phase-1 flops of one query: 8 per complex product of every phase-1 PMAT entry. */
  static double phase1Flops(Params p, Geometry g, CompactParams cp) {
    double f = 0;
    for (int pl = 0; pl < g.planes(); pl++) {
      f += 8.0 * g.rows() * p.plaintextLimbs() * (p.n() / 2) * cp.phase1().columns()
          * g.planeColumns(pl);
    }
    return f;
  }

  /**
   * Ceilings of this core: peak FMA at 512 and 256 bits, the widest the JVM's preferred species
   * reaches (the bound's), and streaming read at that width (under {@code -XX:UseAVX=2} the
   * 512-bit loops run the Vector API's Java fallback: 0.7 GFLOP/s and 1.4 GB/s, not a ceiling).
   */
  private JsonObject ceilings() {
    final boolean has512 = jdk.incubator.vector.DoubleVector.SPECIES_PREFERRED.vectorBitSize()
        >= 512;
    double[] seed = new double[96];
    Arrays.fill(seed, 1.0);
    double sink = 0;
    double best512 = Double.MAX_VALUE;
    double best256 = Double.MAX_VALUE;
    for (int i = 0; i < 30; i++) {
      long a = System.nanoTime();
      sink += Ceilings.peakFma512(seed);
      long b = System.nanoTime();
      sink += Ceilings.peakFma256(seed);
      long c = System.nanoTime();
      best512 = Math.min(best512, b - a);
      best256 = Math.min(best256, c - b);
    }
    double[] big = new double[streamMib << 17];
    for (int i = 0; i < big.length; i++) {
      big[i] = i & 7;
    }
    double bestStream = Double.MAX_VALUE;
    for (int i = 0; i < 8; i++) {
      long a = System.nanoTime();
      sink += has512 ? Ceilings.streamRead512(big) : Ceilings.streamRead256(big);
      bestStream = Math.min(bestStream, System.nanoTime() - a);
    }
    double peak512 = MachineBench.flops("peakFma512") / best512;
    double peak256 = MachineBench.flops("peakFma") / best256;
    JsonObject c = new JsonObject();
    c.addProperty("peakFma512Gflops", peak512);
    c.addProperty("peakFma256Gflops", peak256);
    c.addProperty("peakFmaWidestGflops", has512 ? peak512 : peak256);
    c.addProperty("widestBits", has512 ? 512 : 256);
    c.addProperty("streamReadGBs", 8.0 * big.length / bestStream);
    c.addProperty("streamMiB", streamMib);
    c.addProperty("sink", sink == 42 ? 1 : 0);
    say("ceilings: peak FMA %.1f GFLOP/s (512-bit), %.1f (256-bit); streaming read %.1f GB/s",
        c.get("peakFma512Gflops").getAsDouble(), c.get("peakFma256Gflops").getAsDouble(),
        c.get("streamReadGBs").getAsDouble());
    return c;
  }

  private static void say(String f, Object... a) {
    System.out.println("bench-server: " + String.format(Locale.ROOT, f, a));
  }

  /**
   * Per-query wall times of the timed passes; each phase is reported as the median over the
   * passes (a GC pause or a noisy neighbour in one pass does not move it), the server time as
   * the sum of the three medians.
   */
  private static final class Timed {
    final List<Double> expansion = new ArrayList<>();
    final List<Double> phase1 = new ArrayList<>();
    final List<Double> phase2 = new ArrayList<>();
    final List<Double> expansionAllocated = new ArrayList<>();
    final List<Double> answerAllocated = new ArrayList<>();
    int count;
    int queryBytes;
    int answerBytes;

    /** Bytes one query's expansion and answer allocated (negative: not counted). */
    void allocated(long expansionBytes, long answerBytes) {
      if (expansionBytes >= 0 && answerBytes >= 0) {
        expansionAllocated.add((double) expansionBytes);
        answerAllocated.add((double) answerBytes);
      }
    }

    /** One pass of {@code queries} queries: its times divided by the queries. */
    void add(long expansionNanos, long phase1Nanos, long phase2Nanos, int queries) {
      expansion.add(expansionNanos / 1e9 / queries);
      phase1.add(phase1Nanos / 1e9 / queries);
      phase2.add(phase2Nanos / 1e9 / queries);
      count += queries;
    }

    JsonObject json(double flopBound, double streamBound) {
      JsonObject o = new JsonObject();
      double e = Stats.median(unbox(expansion));
      double p1 = Stats.median(unbox(phase1));
      double p2 = Stats.median(unbox(phase2));
      o.addProperty("queries", count);
      o.addProperty("passes", phase1.size());
      JsonArray each = new JsonArray();
      phase1.forEach(each::add);
      o.add("phase1SecondsEach", each);
      o.addProperty("expansionSeconds", e);
      o.addProperty("phase1Seconds", p1);
      o.addProperty("phase2Seconds", p2);
      o.addProperty("serverSeconds", e + p1 + p2);
      o.addProperty("phase1FlopBoundSeconds", flopBound);
      o.addProperty("phase1StreamBoundSeconds", streamBound);
      o.addProperty("phase1OfBound", Math.max(flopBound, streamBound) / p1);
      if (!expansionAllocated.isEmpty()) {
        // a kernel that runs the Vector API's Java fallback allocates per call (JVMs in that
        // state are slower for their whole life): the medians tell them apart
        o.addProperty("expansionAllocatedBytes", Stats.median(unbox(expansionAllocated)));
        o.addProperty("answerAllocatedBytes", Stats.median(unbox(answerAllocated)));
      }
      return o;
    }
  }

  private static double[] unbox(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** This process's user and system CPU seconds (Linux /proc/self/stat; zeros elsewhere). */
  private record CpuTimes(double user, double system) {
    static CpuTimes now() {
      try {
        String s = Files.readString(Path.of("/proc/self/stat"));
        String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
        double hz = 100.0; // USER_HZ on Linux
        return new CpuTimes(Long.parseLong(f[11]) / hz, Long.parseLong(f[12]) / hz);
      } catch (IOException | RuntimeException e) {
        long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        return new CpuTimes(cpu / 1e9, 0);
      }
    }

    CpuTimes minus(CpuTimes o) {
      return new CpuTimes(user - o.user, system - o.system);
    }
  }
}
