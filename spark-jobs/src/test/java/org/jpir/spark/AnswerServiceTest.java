package org.jpir.spark;

import org.jpir.spark.server.ColumnPartitioning;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.Faults;
import org.jpir.spark.server.MemoryPlan;
import org.jpir.spark.server.SparkTestBase;
import org.jpir.spark.source.SyntheticSourceFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Property;
import org.jpir.client.tools.HostileQueries;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.server.PreparedDatabase;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The answer service end to end in local mode: privacy of the output, isolation, resume. */
class AnswerServiceTest extends SparkTestBase {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SecureRandom RANDOM = new SecureRandom();

  /** Collects every log event's logger, level and formatted message. */
  static final class Capture extends AbstractAppender implements AutoCloseable {
    final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Level rootBefore;

    Capture() {
      super("jpir-capture", null, null, false, Property.EMPTY_ARRAY);
      start();
      LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
      Configuration cfg = ctx.getConfiguration();
      rootBefore = cfg.getRootLogger().getLevel();
      cfg.getRootLogger().addAppender(this, Level.ALL, null);
      cfg.getRootLogger().setLevel(Level.INFO);
      ctx.updateLoggers();
    }

    @Override
    public void append(LogEvent e) {
      String m = e.getMessage().getFormattedMessage();
      lines.add(e.getLoggerName() + " " + e.getLevel() + " " + m
          + (e.getThrown() != null ? " " + e.getThrown() : ""));
    }

    @Override
    public void close() {
      LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
      Configuration cfg = ctx.getConfiguration();
      cfg.getRootLogger().removeAppender(getName());
      cfg.getRootLogger().setLevel(rootBefore);
      ctx.updateLoggers();
      stop();
    }
  }

  /** Whether {@code text} holds {@code number} as a whole token (not inside a longer word). */
  static boolean holdsNumber(String text, long number) {
    return java.util.regex.Pattern.compile("(?<![0-9A-Za-z])" + number + "(?![0-9A-Za-z])")
        .matcher(text).find();
  }

  @Test
  void noIndexAppearsInAnyServerFileNameSizeOrLogLine(@TempDir Path dir) throws Exception {
    // 1-byte records: 2.1 million records in 1172 polynomials, so the indices have 7 digits
    long count = 2_100_000;
    SyntheticSourceFactory src = new SyntheticSourceFactory(count, 1, 31);
    Geometry g = Geometry.choose(P, count, 1, 1024);
    long[] idx = {1_234_567, 2_099_999, 1_500_003, 1_876_543, 1_000_001};
    Path client = Files.createDirectories(dir.resolve("client"));
    Path qdir = Files.createDirectories(dir.resolve("server/queries"));
    Path out = dir.resolve("server/answers");
    PirClient c = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    QueryIdMap ids = new QueryIdMap();
    for (long i : idx) {
      Files.write(qdir.resolve(ids.add(i, RANDOM) + ".query"), Wire.writeQuery(c.query(i)));
    }
    ids.save(client.resolve("ids.map"));
    AnswerJob.Summary s;
    List<String> log;
    try (Capture cap = new Capture()) {
      DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src, 3,
          new DistributedPirServer.Workload(2, null));
      s = AnswerJob.run(server, P, qdir, out, 2, null);
      sc.sc().listenerBus().waitUntilEmpty();
      log = new ArrayList<>(cap.lines);
    }
    assertEquals(idx.length, s.answered());
    assertTrue(log.stream().anyMatch(l -> l.contains("batch 3/3")), "the job's lines were"
        + " captured: " + log.size() + " lines");
    List<Path> written;
    try (Stream<Path> w = Files.walk(dir.resolve("server"))) {
      written = w.filter(Files::isRegularFile).toList();
    }
    Set<Long> sizes = new HashSet<>();
    SyntheticRecords truth = (SyntheticRecords) src.open();
    QueryIdMap mine = QueryIdMap.load(client.resolve("ids.map"), false);
    for (Path f : written) {
      String name = f.getFileName().toString();
      assertTrue(QueryIdMap.isId(AnswerJob.stem(f)), "server file " + name + " is named by id");
      if (name.endsWith(".answer")) {
        sizes.add(Files.size(f));
        long i = mine.index(AnswerJob.stem(f));
        assertArrayEquals(truth.record(i), c.decode(Wire.readAnswer(Files.readAllBytes(f), P),
            i));
      }
      for (long i : idx) {
        assertFalse(holdsNumber(name, i), "file name " + name + " holds index " + i);
      }
    }
    assertEquals(1, sizes.size(), "every answer has the same size: " + sizes);
    assertEquals(2 * idx.length, written.size(), "queries and answers only, no temp files");
    for (String line : log) {
      for (long i : idx) {
        assertFalse(holdsNumber(line, i), "log line holds index " + i + ": " + line);
      }
    }
  }

  @Test
  void badFilesGetErrorsAFailingQueryFailsAloneAndARestartSkipsTheAnswered(@TempDir Path dir)
      throws Exception {
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 19, 1792, 41);
    Geometry g = Geometry.of(P, 8 * 19, 1792, 8);
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src, 3,
        new DistributedPirServer.Workload(12, null));
    Path qdir = Files.createDirectories(dir.resolve("q"));
    Path out = dir.resolve("a");
    PirClient c = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    QueryIdMap ids = new QueryIdMap();
    long[] idx = {0, 151, 40, 77, 100};
    String failing = null;
    for (long i : idx) {
      byte[] q = Wire.writeQuery(c.query(i));
      String id = ids.add(i, RANDOM);
      Files.write(qdir.resolve(id + ".query"), q);
      if (i == 40) {
        failing = id;
        server.inject(Faults.queries(q));
      }
    }
    Map<String, String> hostile = HostileQueries.write(qdir, P, g, RANDOM);
    String fifo = QueryIdMap.newId(RANDOM) + ".query";
    boolean haveFifo = new ProcessBuilder("mkfifo", qdir.resolve(fifo).toString()).start()
        .waitFor() == 0;
    String device = QueryIdMap.newId(RANDOM) + ".query";
    Files.createSymbolicLink(qdir.resolve(device), Path.of("/dev/zero"));
    String big = QueryIdMap.newId(RANDOM) + ".query";
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(qdir.resolve(big).toFile(),
        "rw")) {
      f.setLength(Wire.maxQueryBytes(P, g) + 1);
    }
    int bad = hostile.size() + 2 + (haveFifo ? 1 : 0);

    AnswerJob.Summary s;
    List<String> log;
    try (Capture cap = new Capture()) {
      s = AnswerJob.run(server, P, qdir, out, 12, null);
      log = new ArrayList<>(cap.lines);
    }
    assertEquals(idx.length - 1, s.answered());
    assertEquals(bad + 1, s.rejected());
    // the error file says what happened to the query; Spark's reason (stages, executors, hosts)
    // is the server's and goes to its log only
    String why = Files.readString(out.resolve(failing + ".error"));
    assertTrue(why.contains("failed on the executors") && !why.contains("injected")
        && !why.contains("executor driver"), why);
    String failed = failing;
    assertTrue(log.stream().anyMatch(l -> l.contains(failed) && l.contains("injected")),
        "the log has the reason");
    for (Map.Entry<String, String> e : hostile.entrySet()) {
      String err = Files.readString(out.resolve(AnswerJob.stem(Path.of(e.getKey())) + ".error"));
      String want = e.getValue().startsWith("74-byte") ? "rows in [1,"
          : e.getValue().startsWith("truncated") ? "truncated" : "for preset";
      // a query of a larger preset is refused by its size alone, before it is read
      assertTrue(err.contains(want) || (want.equals("for preset")
          && err.contains("than the largest valid")), e.getValue() + ": " + err);
    }
    assertTrue(Files.readString(out.resolve(AnswerJob.stem(Path.of(device)) + ".error"))
        .contains("not a regular file"));
    assertTrue(Files.readString(out.resolve(AnswerJob.stem(Path.of(big)) + ".error"))
        .contains("than the largest valid"));
    if (haveFifo) {
      assertTrue(Files.readString(out.resolve(AnswerJob.stem(Path.of(fifo)) + ".error"))
          .contains("not a regular file"));
    }
    SyntheticRecords truth = (SyntheticRecords) src.open();
    for (Map.Entry<String, Long> e : ids.entries().entrySet()) {
      Path a = out.resolve(e.getKey() + ".answer");
      if (e.getKey().equals(failing)) {
        assertFalse(Files.exists(a));
        continue;
      }
      assertArrayEquals(truth.record(e.getValue()), c.decode(Wire.readAnswer(
          Files.readAllBytes(a), P), e.getValue()), "record " + e.getValue());
    }

    // a restart on the same output directory answers only what is missing
    server.inject(Faults.NONE);
    String dropped = ids.entries().keySet().iterator().next();
    Files.delete(out.resolve(dropped + ".answer"));
    AnswerJob.Summary again = AnswerJob.run(server, P, qdir, out, 12, null);
    assertEquals(idx.length - 2, again.skipped());
    assertEquals(2, again.answered());
    assertEquals(bad, again.rejected());
    assertFalse(Files.exists(out.resolve(failing + ".error")), "the stale error file is gone");
    for (String id : List.of(dropped, failing)) {
      long i = ids.index(id);
      assertArrayEquals(truth.record(i), c.decode(Wire.readAnswer(
          Files.readAllBytes(out.resolve(id + ".answer")), P), i));
    }
    try (Stream<Path> w = Files.list(out)) {
      assertTrue(w.noneMatch(f -> f.toString().endsWith(".tmp")), "no temporary file left");
    }
  }

  @Test
  void theMemoryPlanMatchesWhatIsAllocatedAndNamesTheSettings() throws Exception {
    SyntheticSourceFactory src = new SyntheticSourceFactory(8 * 19, 1792, 43);
    Geometry g = Geometry.of(P, 8 * 19, 1792, 8);
    DistributedPirServer server = DistributedPirServer.prepare(sc, P, g, src, 3,
        new DistributedPirServer.Workload(2, null));
    MemoryPlan plan = server.memoryPlan();
    PirClient c = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
    ClientQuery q = c.query(3);
    assertEquals(Wire.writeQuery(q).length, Wire.maxQueryBytes(P, g));
    assertEquals(new QueryExpander(P).expand(q, g).sizeBytes(),
        plan.expandedQueryBytes());
    assertEquals(PreparedDatabase.prepare(P, g, src.open()).sizeBytes(),
        MemoryPlan.pvecBytesPerColumn(P, g) * g.cols() * g.planes());
    assertTrue(Wire.writeAnswer(server.answer(List.of(new ClassicQueries(P).accept(q, g)))
        .answers()[0]).length <= Wire.maxAnswerBytes(P, g));

    // production preset, 256 MiB of 1 KiB records, batches of 4, one executor
    Params prod = Presets.ONIONPIR_4096;
    Geometry big = Geometry.choose(prod, 262144, 1024, 1024);
    // 4 asked on the 2 task slots of the executor below
    ColumnPartitioning parts = ColumnPartitioning.plan(big.cols(), 4, 1, 2);
    long gib = 1L << 30;
    MemoryPlan.ExecutorResources small = new MemoryPlan.ExecutorResources(1, 2,
        gib - MemoryPlan.RESERVED, (long) (0.6 * (gib - MemoryPlan.RESERVED)), 0.6, 0, false);
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> MemoryPlan.of(prod, big, parts, 4,
            null, small).check());
    for (String setting : List.of("spark.executor.memory", "spark.memory.fraction", "--batch",
        MemoryPlan.CACHE_SETTING)) {
      assertTrue(e.getMessage().contains(setting), setting + " in: " + e.getMessage());
    }
    // 2 partitions of 128 columns (the phase-1 chunk): 2 x 384 MiB of scratch
    assertEquals(2, parts.count());
    long heap = 3 * gib + gib / 2 - MemoryPlan.RESERVED;
    MemoryPlan.of(prod, big, parts, 4, null,
        new MemoryPlan.ExecutorResources(1, 2, heap, (long) (0.6 * heap), 0.6, 0, true)).check();
  }
}
