package org.jpir.service.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jpir.core.params.Params;
import org.jpir.core.wire.QueryIdMap;
import org.jpir.datasets.progress.Progress;
import org.jpir.spark.AnswerJob;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.server.SparkBatchMetrics;
import org.jpir.spark.source.Storage;

/**
 * The offline {@code answer} job over the service's prepared database, with given queries: they
 * are written as {@code <random id>.cquery} files into a fresh directory, {@link AnswerJob#run}
 * answers them in Spark batches of a given size (what {@code ./pir answer --batch} runs after
 * preparing), then every answer file is decoded and compared with the plaintext record. The
 * job's own time ({@link AnswerJob.Summary#serverSeconds}: its batches, reading the query files
 * and writing the answers included) is what its queries/s count; the files are written before
 * and decoded after it.
 */
final class OfflineRun {
  /**
   * One run's figures.
   *
   * @param queries query files written
   * @param answered answered by the job
   * @param errors error files written
   * @param lost queries with neither an answer nor an error file
   * @param check the answers decoded
   * @param serverSeconds the job's time in its batches
   * @param wallSeconds the job's wall time (listing the directory included)
   * @param batches the job's Spark batches
   * @param spark the job's Spark figures, summed over its batches
   */
  record Result(int queries, int answered, int errors, int lost, Ledger.Check check,
      double serverSeconds, double wallSeconds, int batches, SparkBatchMetrics spark) {
    /** The job's queries/s (as {@code ./pir answer} prints it: answered / time in batches). */
    double qps() {
      return answered / serverSeconds;
    }
  }

  private OfflineRun() {}

  /**
   * Answers {@code queries} (made by the clients, for the prepared {@code server}) with the job in
   * batches of {@code batch}, in a new directory under {@code work} (deleted afterwards); the
   * answers are decoded on {@code threads} threads.
   */
  static Result run(DistributedPirServer server, Params p, AnswerJob.Compact compact,
      List<LoadClients.Planned> queries, int batch, Path work, Ledger.Decoder decoder,
      int threads, SecureRandom random) {
    Path dir;
    try {
      dir = Files.createTempDirectory(work, "offline-");
      Path q = Files.createDirectories(dir.resolve("q"));
      Map<String, LoadClients.Planned> byId = new LinkedHashMap<>();
      for (LoadClients.Planned pq : queries) {
        String id = QueryIdMap.newId(random);
        byId.put(id, pq);
        Files.write(q.resolve(id + ".cquery"), pq.query());
      }
      Path a = dir.resolve("a");
      long t0 = System.nanoTime();
      AnswerJob.Summary s = AnswerJob.run(server, p, Storage.at(q.toUri().toString()),
          Storage.at(a.toUri().toString()), batch, compact, Progress.Mode.QUIET);
      double wall = (System.nanoTime() - t0) / 1e9;
      Ledger ledger = new Ledger();
      int errors = 0;
      for (Map.Entry<String, LoadClients.Planned> e : byId.entrySet()) {
        LoadClients.Planned pq = e.getValue();
        ledger.sent(new Ledger.Sent(e.getKey(), pq.client(), pq.slot(), pq.index(), 0));
        Path ans = a.resolve(e.getKey() + ".answer");
        if (Files.exists(ans)) {
          ledger.answered(e.getKey(), Files.readAllBytes(ans), 0);
        } else if (Files.exists(a.resolve(e.getKey() + ".error"))) {
          ledger.failed(e.getKey(), "error file", 0);
          errors++;
        }
      }
      Ledger.Totals t = ledger.totals();
      Ledger.Check c = ledger.check(decoder, threads);
      delete(dir);
      return new Result(queries.size(), s.answered(), errors, t.lost(), c, s.serverSeconds(),
          wall, (s.answered() + s.rejected() + batch - 1) / batch, s.spark());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
