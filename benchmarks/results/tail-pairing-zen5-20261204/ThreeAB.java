import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.SecureRandom;
import java.util.Arrays;
import org.jpir.core.client.CompactClient;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.query.*;
import org.jpir.core.server.*;
import org.jpir.core.wire.*;

/** Server CPU time per query (expansion + phases 1 and 2) of three configurations in one JVM, order rotating. */
public class ThreeAB {
  record Conf(String name, CompactParams cp, Geometry g, CompactClient client, EvaluationKeyStore store, PreparedDatabase db) {}

  static Conf conf(String name, CompactParams cp, Geometry g, SyntheticRecords src, SecureRandom rnd) {
    CompactClient c = new CompactClient(cp, g, CompactClient.generateSecret(cp, rnd), name, rnd);
    EvaluationKeyStore s = new EvaluationKeyStore(cp);
    s.register(c.clientId(), Wire.writeEvaluationKeys(c.evaluationKeys()));
    PreparedDatabase db = PreparedDatabase.prepare(cp.server(), g, src);
    System.out.printf("%s: %s, %d MB PVEC%n", name, g, db.sizeBytes() >> 20);
    return new Conf(name, cp, g, c, s, db);
  }

  public static void main(String[] a) {
    int mib = Integer.parseInt(a[0]);
    int rounds = Integer.parseInt(a[1]);
    long count = ((long) mib << 20) / 3072;
    long gibCount = (1L << 30) / 3072;
    SyntheticRecords src = new SyntheticRecords(count, 3072, 5);
    SecureRandom rnd = new SecureRandom();
    CompactParams c2 = CompactParams.ONIONPIR_2048_COMPACT, c4 = CompactParams.ONIONPIR_4096_COMPACT;
    int rows2 = c2.chooseGeometry(gibCount, 3072).rows(), rows4 = c4.chooseGeometry(gibCount, 3072).rows();
    Geometry plain = Geometry.of(c2.server(), count, 3072, rows2);
    boolean withPlain = a.length < 3 || !a[2].equals("no-plain");
    Conf[] cs = withPlain ? new Conf[] {conf("2048-plain", c2, plain, src, rnd), conf("2048-paired", c2, plain.withPairedTail(), src, rnd),
        conf("4096", c4, Geometry.of(c4.server(), count, 3072, rows4), src, rnd)}
        : new Conf[] {conf("2048-paired", c2, plain.withPairedTail(), src, rnd), conf("4096", c4, Geometry.of(c4.server(), count, 3072, rows4), src, rnd)};
    int nc = cs.length;
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[][] t = new double[nc][rounds];
    for (int i = 0; i < rounds + 2; i++) {
      StringBuilder line = new StringBuilder("round " + i + ":");
      for (int k = 0; k < nc; k++) {
        int j = (i + k) % nc;
        Conf c = cs[j];
        long idx = (i * 7919L + 12345) % count;
        CompactQuery q = c.client().query(idx);
        byte[] wire = Wire.writeCompactQuery(q);
        long t0 = mx.getCurrentThreadCpuTime();
        PreparedQuery pq = new CompactExpander(c.cp()).expand(Wire.readCompactQuery(wire, c.cp()), c.g(), c.store(), null);
        Answer ans = new PirServer(c.cp().server()).answer(c.db(), pq, null);
        double s = (mx.getCurrentThreadCpuTime() - t0) / 1e9;
        if (!Arrays.equals(src.record(idx), c.client().decode(ans, idx))) {
          throw new AssertionError("wrong record " + idx + " from " + c.name());
        }
        if (i >= 2) t[j][i - 2] = s;
        line.append(String.format(" %s %.3f s", c.name(), s));
      }
      System.out.println(line);
    }
    double[] med = new double[nc];
    for (int j = 0; j < nc; j++) { double[] x = t[j].clone(); Arrays.sort(x); med[j] = x[rounds / 2]; }
    if (nc == 2) {
      double[] r = new double[rounds];
      for (int i = 0; i < rounds; i++) r[i] = t[0][i] / t[1][i];
      Arrays.sort(r);
      System.out.printf("medians over %d rounds (2 warm-up rounds left out, alternating order, every record checked): 2048-paired %.3f s, 4096 %.3f s; paired/4096 %.3f [%.3f, %.3f]%n",
          rounds, med[0], med[1], r[rounds / 2], r[0], r[rounds - 1]);
      return;
    }
    double[][] ratio = new double[2][rounds];
    for (int i = 0; i < rounds; i++) { ratio[0][i] = t[1][i] / t[0][i]; ratio[1][i] = t[1][i] / t[2][i]; }
    for (double[] r : ratio) Arrays.sort(r);
    System.out.printf("medians over %d rounds (2 warm-up rounds left out, rotating order, every record checked): 2048-plain %.3f s, 2048-paired %.3f s, 4096 %.3f s; paired/plain %.3f [%.3f, %.3f]; paired/4096 %.3f [%.3f, %.3f]%n",
        rounds, med[0], med[1], med[2], ratio[0][rounds / 2], ratio[0][0], ratio[0][rounds - 1], ratio[1][rounds / 2], ratio[1][0], ratio[1][rounds - 1]);
  }
}
