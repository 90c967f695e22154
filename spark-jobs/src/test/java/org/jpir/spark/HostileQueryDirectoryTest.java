package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.core.wire.Wire;
import org.jpir.spark.source.DatabaseSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The query directory as hostile ground, through the commands as an operator runs them ({@code
 * pir answer}, {@code pir serve}): a name with a colon ({@code a:b.cquery}, once a Hadoop path
 * error that stopped both), a name with a line break (once a forged log line), links to files
 * outside the directory (once read, or their existence, size and type told in the error file),
 * a FIFO and a directory under query names. The good queries beside them are answered, the job
 * exits 0, the service keeps answering, every bad name is logged once and escaped.
 */
class HostileQueryDirectoryTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final String DB = "synthetic:300x64:5";
  static final SecureRandom RANDOM = new SecureRandom();
  /** A name with a line break that would forge a log line if logged raw. */
  static final String NEWLINE = "forged\nWARN  AnswerJob - every query answered.query";
  /** The size of the file outside the directory that a link points to. */
  static final int OUTSIDE_SIZE = 123_457;

  @TempDir Path dir;

  final Geometry g = DatabaseSpec.parse(DB).geometry(P, 1024);
  final SyntheticRecords truth = (SyntheticRecords) DatabaseSpec.parse(DB).factory().open();
  final PirClient client = new PirClient(P, g, SecretKey.generate(P, RANDOM), RANDOM);
  final QueryIdMap ids = new QueryIdMap();

  /** Writes a good query for {@code index} as a client does (temporary name, then rename). */
  void query(Path qdir, long index) throws IOException {
    String id = ids.add(index, RANDOM);
    Path tmp = qdir.resolve("." + id + ".tmp");
    Files.write(tmp, Wire.writeQuery(client.query(index)));
    Files.move(tmp, qdir.resolve(id + ".query"), StandardCopyOption.ATOMIC_MOVE);
  }

  /** Whether a FIFO could be made at {@code f}. */
  static boolean mkfifo(Path f) throws InterruptedException {
    try {
      return new ProcessBuilder("mkfifo", f.toString()).inheritIO().start().waitFor() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Plants the hostile entries into {@code qdir} (targets of links in {@code outside}); returns
   * the ids of the entries named like queries that must get an error file, with what they are.
   */
  Map<String, String> plant(Path qdir, Path outside) throws Exception {
    byte[] good = Wire.writeQuery(client.query(11));
    Files.write(qdir.resolve("a:b.cquery"), good);
    // not a valid query either: a server that read it would log its rejection, name and all
    Files.write(qdir.resolve(NEWLINE), java.util.Arrays.copyOf(good, 10));
    Map<String, String> named = new LinkedHashMap<>();
    // a valid query outside: following the link would answer it
    Path valid = Files.write(outside.resolve("valid.query"), good);
    String id = QueryIdMap.newId(RANDOM);
    Files.createSymbolicLink(qdir.resolve(id + ".query"), valid);
    named.put(id, "link to a valid query outside");
    Path big = Files.write(outside.resolve("big"), new byte[OUTSIDE_SIZE]);
    id = QueryIdMap.newId(RANDOM);
    Files.createSymbolicLink(qdir.resolve(id + ".query"), big);
    named.put(id, "link to a large file outside");
    id = QueryIdMap.newId(RANDOM);
    Files.createSymbolicLink(qdir.resolve(id + ".query"), outside.resolve("absent"));
    named.put(id, "link to nothing");
    id = QueryIdMap.newId(RANDOM);
    Files.createDirectory(qdir.resolve(id + ".query"));
    named.put(id, "directory");
    id = QueryIdMap.newId(RANDOM);
    if (mkfifo(qdir.resolve(id + ".query"))) {
      named.put(id, "FIFO");
    }
    return named;
  }

  /** The answers of every id in the map decode to their records; returns how many there are. */
  int checkAnswers(Path out) throws IOException {
    for (Map.Entry<String, Long> e : ids.entries().entrySet()) {
      byte[] a = Files.readAllBytes(out.resolve(e.getKey() + ".answer"));
      assertArrayEquals(truth.record(e.getValue()), client.decode(Wire.readAnswer(a, P, g),
          e.getValue()), "record " + e.getValue());
    }
    return ids.size();
  }

  /**
   * Each hostile entry got an error file with the same words (whatever a link points to), none
   * naming anything outside, and no answer.
   */
  static void checkErrors(Path out, Map<String, String> named, Path outside) throws IOException {
    Set<String> texts = new HashSet<>();
    for (Map.Entry<String, String> e : named.entrySet()) {
      assertFalse(Files.exists(out.resolve(e.getKey() + ".answer")), e.getValue());
      String err = Files.readString(out.resolve(e.getKey() + ".error"));
      assertTrue(err.contains("is not a regular file"), e.getValue() + ": " + err);
      assertFalse(err.contains(String.valueOf(OUTSIDE_SIZE)) || err.contains(outside.toString())
          || err.contains("valid.query") || err.contains("big"), e.getValue() + ": " + err);
      texts.add(err.replace(e.getKey(), "ID"));
    }
    assertEquals(1, texts.size(), "one text for links, FIFOs and directories alike: " + texts);
  }

  /** Only id-named answers and error files (and the stop file) in the answer directory. */
  static void checkOutputNames(Path out) throws IOException {
    try (Stream<Path> s = Files.list(out)) {
      List<String> odd = s.map(f -> f.getFileName().toString())
          .filter(n -> !n.matches("[0-9a-f]{32}\\.(answer|error)") && !n.equals("STOP"))
          .toList();
      assertEquals(List.of(), odd);
    }
  }

  /** The jobs' own log lines: one line each, and the skipped names in them each once. */
  static void checkLog(List<String> log, String... skippedOnce) {
    List<String> ours = log.stream().filter(l -> l.startsWith("org.jpir")).toList();
    for (String l : ours) {
      assertFalse(l.contains("\n") || l.contains("\r"), "a log line holds a line break: " + l);
    }
    for (String name : skippedOnce) {
      long n = ours.stream().filter(l -> l.contains("skipping \"" + name + "\"")).count();
      assertEquals(1, n, "skipped " + name + " logged once: " + ours);
    }
  }

  @Test
  void answerAnswersTheGoodQueriesBesideHostileEntriesAndExitsZero(@TempDir Path outside)
      throws Exception {
    Path qdir = Files.createDirectories(dir.resolve("q"));
    Path out = dir.resolve("a");
    for (long i : new long[] {0, 150, 299}) {
      query(qdir, i);
    }
    Map<String, String> named = plant(qdir, outside);
    int rc;
    List<String> log;
    try (AnswerServiceTest.Capture cap = new AnswerServiceTest.Capture()) {
      rc = PirJob.run(new String[] {"answer", "--db", DB, "--preset", P.id(), "--queries",
          qdir.toString(), "--out", out.toString(), "--batch", "2"});
      log = new ArrayList<>(cap.lines);
    }
    assertEquals(0, rc);
    assertEquals(3, checkAnswers(out));
    checkErrors(out, named, outside);
    checkOutputNames(out);
    checkLog(log, "a:b.cquery", "forged\\u000aWARN  AnswerJob - every query answered.query");
  }

  @Test
  void serveKeepsAnsweringAndLogsEachHostileEntryOnce(@TempDir Path outside) throws Exception {
    Path qdir = Files.createDirectories(dir.resolve("q"));
    Path out = dir.resolve("a");
    query(qdir, 1);
    query(qdir, 298);
    Map<String, String> named = plant(qdir, outside);
    List<String> log;
    int rc;
    try (AnswerServiceTest.Capture cap = new AnswerServiceTest.Capture()) {
      CompletableFuture<Integer> serve = CompletableFuture.supplyAsync(() -> {
        try {
          return PirJob.run(new String[] {"serve", "--db", DB, "--preset", P.id(), "--queries",
              qdir.toString(), "--out", out.toString(), "--batch", "2", "--poll-ms", "20"});
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      waitFor("the first answers", () -> count(out, ".answer") == 2, serve);
      // more queries and another bad name while it runs, over many polls
      Files.write(qdir.resolve("c:d.query"), Wire.writeQuery(client.query(3)));
      query(qdir, 42);
      Thread.sleep(300);
      query(qdir, 43);
      waitFor("the later answers", () -> count(out, ".answer") == 4, serve);
      Files.createFile(out.resolve("STOP"));
      rc = serve.get(120, TimeUnit.SECONDS);
      log = new ArrayList<>(cap.lines);
    }
    assertEquals(0, rc);
    assertEquals(4, checkAnswers(out));
    checkErrors(out, named, outside);
    checkOutputNames(out);
    checkLog(log, "a:b.cquery", "c:d.query",
        "forged\\u000aWARN  AnswerJob - every query answered.query");
  }

  private static long count(Path d, String suffix) {
    if (!Files.isDirectory(d)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(f -> f.toString().endsWith(suffix)).count();
    } catch (IOException e) {
      return 0;
    }
  }

  private static void waitFor(String what, BooleanSupplier c, CompletableFuture<?> job)
      throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!c.getAsBoolean()) {
      if (job.isDone()) {
        job.get(); // its failure, if it failed
        throw new AssertionError("the service stopped before " + what);
      }
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }
}
