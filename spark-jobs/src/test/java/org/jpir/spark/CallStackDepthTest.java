package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.SecureRandom;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
import org.jpir.core.client.CompactClient;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.Wire;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.SparkTestBase;
import org.jpir.spark.source.DatabaseSpec;
import org.jpir.spark.source.SyntheticSourceFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How deep the answer path is: the distinct main-source files on the call stacks from {@link
 * AnswerJob}'s entry to the kernel calls for one compact query (issue 42: at most 15). The stacks
 * are recorded by JFR's method tracing (JDK 25+, {@code jdk.MethodTrace}, no breakpoints and no
 * hook in the code): one stack at every call into the public classes of {@code vmp-kernels} (the
 * kernels: expansion, phase 1, the fold, plane packing), at the decode ({@code
 * Wire.readCompactQuery}) and at the final answer ({@code PirServer.toAnswer}), in every thread
 * (the driver's and the local executors'). A file is counted once: inner classes and lambdas
 * under their outer file; the kernel classes themselves are the destination and not counted;
 * the traced decode and answer methods count their own file. In local mode the executors run in
 * the driver's JVM, so the driver's frames below a Spark job (AnswerJob, the server, the
 * transport) are on the driver's own stacks of the fold's root.
 */
class CallStackDepthTest extends SparkTestBase {
  /** The most files the issue allows. */
  static final int MAX_FILES = 15;
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;
  /** The public classes of vmp-kernels that the layers above call: the kernel calls. */
  static final List<String> KERNELS = List.of("org.jpir.vmp.Vmp", "org.jpir.vmp.FftPlan",
      "org.jpir.vmp.Reim", "org.jpir.vmp.Reim4", "org.jpir.vmp.Znx", "org.jpir.vmp.Pmat",
      "org.jpir.vmp.Pvec");
  /** The stages that reach no kernel: their own entry points. */
  static final List<String> ENDS = List.of("org.jpir.core.wire.Wire::readCompactQuery",
      "org.jpir.core.server.PirServer::toAnswer", "org.jpir.core.server.PirServer::toSharedAnswer");

  /** The bottom of an executor's task. */
  static final String TASK_RUNNER = "org.apache.spark.executor.Executor$TaskRunner";

  @TempDir Path dir;

  @Test
  void oneCompactQueryCrossesAtMostFifteenFiles() throws Exception {
    assumeTrue(Runtime.version().feature() >= 25, "JFR method tracing needs JDK 25");
    SyntheticSourceFactory src = new SyntheticSourceFactory(500, 300, 13);
    Geometry g = DatabaseSpec.parse("synthetic:500x300:13").geometry(CP.server(), 1024);
    DistributedPirServer server = DistributedPirServer.prepare(sc, CP.server(), g, src, 2);
    SecureRandom random = new SecureRandom();
    CompactClient bob = new CompactClient(CP, g, CompactClient.generateSecret(CP, random), "bob",
        random);
    Path keys = Files.createDirectories(dir.resolve("keys"));
    Files.write(keys.resolve("bob.evk"), Wire.writeEvaluationKeys(bob.evaluationKeys()));
    Path q = Files.createDirectories(dir.resolve("q"));
    long index = 321;
    String id = String.format("%032x", index);
    Files.write(q.resolve(id + ".cquery"), Wire.writeCompactQuery(bob.query(index)));
    AnswerJob.Compact compact = new AnswerJob.Compact(CP, new EvaluationKeyStore(CP, keys));

    Path jfr = dir.resolve("stacks.jfr");
    AnswerJob.Summary s;
    try (Recording r = new Recording()) {
      r.enable("jdk.MethodTrace").with("filter", String.join(";", KERNELS) + ";"
          + String.join(";", ENDS)).withStackTrace();
      r.start();
      s = AnswerJob.run(server, CP.server(), q, dir.resolve("a"), 1, compact);
      r.stop();
      r.dump(jfr);
    }
    assertEquals(1, s.answered());
    byte[] answer = Files.readAllBytes(dir.resolve("a").resolve(id + ".answer"));
    assertArrayEquals(((SyntheticRecords) src.open()).record(index),
        bob.decode(Wire.readAnswer(answer, CP.server(), g), index), "the answer decodes");

    // file -> one method of each stage seen on a stack through it (for the report)
    TreeMap<String, Set<String>> files = new TreeMap<>();
    Set<String> seen = new TreeSet<>();
    int stacks = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
      if (!e.getEventType().getName().equals("jdk.MethodTrace") || e.getStackTrace() == null) {
        continue;
      }
      RecordedMethod traced = e.getValue("method");
      String tracedClass = traced.getType().getName();
      List<RecordedFrame> frames = e.getStackTrace().getFrames();
      // from AnswerJob's entry (the deepest AnswerJob frame) up, or the whole stack of a task
      int bottom = -1;
      for (int i = frames.size() - 1; i >= 0 && bottom < 0; i--) {
        String c = frames.get(i).getMethod().getType().getName();
        if (outer(c).equals(AnswerJob.class.getName()) || c.equals(TASK_RUNNER)) {
          bottom = i;
        }
      }
      // JFR keeps the top 64 frames: the entry must be among them
      assertTrue(bottom >= 0, "a stack without AnswerJob or a Spark task at its bottom");
      Set<String> here = new TreeSet<>();
      if (!tracedClass.startsWith("org.jpir.vmp.")) {
        here.add(outer(tracedClass));
      }
      for (int i = 0; i <= bottom; i++) {
        RecordedMethod m = frames.get(i).getMethod();
        String c = m.getType().getName();
        if (c.startsWith("org.jpir.") && !c.startsWith("org.jpir.vmp.") && main(outer(c))) {
          here.add(outer(c));
          seen.add(simple(outer(c)) + "." + m.getName());
        }
      }
      if (!here.isEmpty()) {
        stacks++;
      }
      for (String f : here) {
        files.computeIfAbsent(f, k -> new TreeSet<>()).add(simple(tracedClass) + "."
            + traced.getName());
      }
    }
    StringBuilder report = new StringBuilder();
    files.forEach((f, ends) -> report.append("  ").append(f).append("  (reaches ")
        .append(String.join(", ", ends.stream().limit(4).toList())).append(")\n"));
    System.out.println("call stack: " + files.size() + " distinct main-source files on " + stacks
        + " stacks from AnswerJob to the kernel calls of one compact query:\n" + report);
    // every stage of the query was recorded
    for (String stage : List.of("CompactQueries.accept", "CompactExpander.expand",
        "PirServer.answerRange", "CmuxFold.fold", "BatchSteps.answers")) {
      assertTrue(seen.contains(stage), "no stack through " + stage + ": " + seen);
    }
    assertTrue(files.containsKey(AnswerJob.class.getName()), report.toString());
    assertTrue(files.size() <= MAX_FILES, files.size() + " files on the answer path, at most "
        + MAX_FILES + ":\n" + report);
  }

  /** The outer class of a binary name (inner classes and lambdas belong to their file). */
  static String outer(String binaryName) {
    int d = binaryName.indexOf('$');
    return d < 0 ? binaryName : binaryName.substring(0, d);
  }

  static String simple(String name) {
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /** True for a class of a module's main sources (not test classes). */
  static boolean main(String className) {
    try {
      CodeSource cs = Class.forName(className, false, CallStackDepthTest.class.getClassLoader())
          .getProtectionDomain().getCodeSource();
      return cs != null && !cs.getLocation().toString().contains("/test-classes/");
    } catch (ClassNotFoundException e) {
      throw new AssertionError("class " + className + " on a stack is not on the class path", e);
    }
  }
}
