package org.jpir.client.tools;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.jpir.api.v1.GetConfigResponse;
import org.jpir.client.ClientDatabase;
import org.jpir.client.net.NetworkPirClient;
import org.jpir.client.net.RemoteDatabase;
import org.jpir.client.net.RetryPolicy;
import org.jpir.core.server.RecordSource;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Concurrent network clients that check what they fetch (the service run of {@code
 * deploy/cluster-test.sh}): each client has its own id and keys (uploaded by its first call),
 * and until the time is up sends calls of random indices to a service and compares every record
 * with the plaintext database. The summary counts calls, queries sent, answered and exact; the
 * run passes only when every query sent was answered exactly and no call failed.
 */
public final class FetchCheck {
  private FetchCheck() {}

  /** What a run saw, summed over its clients. */
  public record Result(int clients, long calls, long sent, long answered, long exact,
      long wrong, long failedCalls, long minCallsPerClient, Map<String, Long> failures) {
    /** True when every query sent was answered exactly and no call failed. */
    public boolean passed() {
      return calls > 0 && failedCalls == 0 && wrong == 0 && answered == sent && exact == sent;
    }

    /** One line: the counts, and the failures by kind. */
    public String describe() {
      return String.format(Locale.ROOT, "fetch-check: %d clients, %d calls (at least %d per"
          + " client), %d queries sent, %d answered, %d exact, %d wrong, %d failed calls%s",
          clients, calls, minCallsPerClient, sent, answered, exact, wrong, failedCalls,
          failures.isEmpty() ? "" : " " + failures);
    }
  }

  /**
   * Runs {@code clients} clients named {@code prefix + n} against {@code server} for {@code
   * seconds}, each call asking {@code perCall} random records of database {@code database}
   * (null: the only one) and checking them against {@code records}.
   */
  public static Result run(String server, String database, RecordSource records, int clients,
      double seconds, int perCall, String prefix, long seed) throws InterruptedException {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    AtomicLong calls = new AtomicLong();
    AtomicLong sent = new AtomicLong();
    AtomicLong answered = new AtomicLong();
    AtomicLong exact = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long[] perClient = new long[clients];
    Map<String, Long> failures = new TreeMap<>();
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int me = c;
      Thread t = new Thread(() -> {
        SplittableRandom rnd = new SplittableRandom(seed + me);
        try (NetworkPirClient net = NetworkPirClient.connect(server, prefix + me,
            RetryPolicy.defaults())) {
          RemoteDatabase db = net.database(database != null ? database
              : only(net.config()));
          long count = db.config().getGeometry().getRecordCount();
          do {
            long[] idx = new long[perCall];
            for (int i = 0; i < perCall; i++) {
              idx[i] = rnd.nextLong(count);
            }
            calls.incrementAndGet();
            perClient[me]++;
            sent.addAndGet(perCall);
            try {
              List<byte[]> got = db.retrieve(idx);
              answered.addAndGet(got.size());
              for (int i = 0; i < got.size(); i++) {
                if (Arrays.equals(expected(records, idx[i]), got.get(i))) {
                  exact.incrementAndGet();
                } else {
                  wrong.incrementAndGet();
                }
              }
            } catch (RuntimeException e) {
              failed.incrementAndGet();
              synchronized (failures) {
                failures.merge(e.getClass().getSimpleName() + ": " + firstLine(e), 1L, Long::sum);
              }
            }
          } while (System.nanoTime() < end);
        } catch (RuntimeException e) {
          failed.incrementAndGet();
          synchronized (failures) {
            failures.merge("client " + me + " " + e.getClass().getSimpleName() + ": "
                + firstLine(e), 1L, Long::sum);
          }
        }
      }, "fetch-check-" + c);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    return new Result(clients, calls.get(), sent.get(), answered.get(), exact.get(), wrong.get(),
        failed.get(), Arrays.stream(perClient).min().orElse(0), failures);
  }

  private static String only(GetConfigResponse c) {
    if (c.getDatabasesCount() != 1) {
      throw new IllegalArgumentException("the service serves " + c.getDatabasesCount()
          + " databases: name one with --database");
    }
    return c.getDatabases(0).getName();
  }

  private static byte[] expected(RecordSource records, long index) {
    byte[] r = new byte[records.recordSize()];
    synchronized (records) {
      records.read(index, r, 0);
    }
    return r;
  }

  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  /**
   * The command line: {@code --server H:P --db SPEC [--database NAME] [--clients N] [--seconds
   * S] [--per-call K] [--prefix P]}; exit 0 when the run passed, 1 otherwise.
   */
  @Command(name = "FetchCheck", mixinStandardHelpOptions = true,
      versionProvider = JpirVersion.class,
      description = "Concurrent clients fetch random records from a service and check them.")
  public static final class Cli implements Callable<Integer> {
    @Option(names = "--server", required = true, description = "the service, host:port")
    String server;

    @Option(names = "--db", required = true, description = "the plaintext database (the"
        + " service's --db: a stored database directory or synthetic:<count>x<size>[:seed])")
    String db;

    @Option(names = "--database", description = "the database's name at the service (default:"
        + " the only one)")
    String database;

    @Option(names = "--clients", description = "concurrent clients (default: ${DEFAULT-VALUE})")
    int clients = 3;

    @Option(names = "--seconds", description = "how long they send calls (default:"
        + " ${DEFAULT-VALUE})")
    double seconds = 30;

    @Option(names = "--per-call", description = "records per call (default: ${DEFAULT-VALUE})")
    int perCall = 2;

    @Option(names = "--prefix", description = "client ids are this and a number (default:"
        + " ${DEFAULT-VALUE})")
    String prefix = "load";

    @Override
    public Integer call() throws Exception {
      if (clients < 1 || perCall < 1 || seconds < 0) {
        throw new CommandLine.ParameterException(new CommandLine(this),
            "--clients and --per-call must be >= 1, --seconds >= 0");
      }
      RecordSource records = ClientDatabase.parse(db).records();
      Result r;
      try {
        r = run(server, database, records, clients, seconds, perCall, prefix,
            System.nanoTime());
      } finally {
        if (records instanceof AutoCloseable ac) {
          ac.close();
        }
      }
      System.out.println(r.describe());
      return r.passed() ? 0 : 1;
    }
  }

  /** Runs {@link Cli} and exits with its code. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new Cli()).execute(args));
  }
}
