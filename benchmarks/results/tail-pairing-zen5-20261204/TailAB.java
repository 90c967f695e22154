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

public class TailAB {
  public static void main(String[] a) {
    CompactParams cp = CompactParams.ONIONPIR_2048_COMPACT;
    Params p = cp.server();
    int mib = Integer.parseInt(a[0]);
    int rounds = Integer.parseInt(a[1]);
    long count = ((long) mib << 20) / 3072;
    Geometry plain = Geometry.of(p, count, 3072, 448);
    Geometry paired = plain.withPairedTail();
    SyntheticRecords src = new SyntheticRecords(count, 3072, 5);
    SecureRandom rnd = new SecureRandom();
    CompactClient client = new CompactClient(cp, plain, CompactClient.generateSecret(cp, rnd), "ab", rnd);
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register(client.clientId(), Wire.writeEvaluationKeys(client.evaluationKeys()));
    PreparedDatabase dbA = PreparedDatabase.prepare(p, plain, src);
    PreparedDatabase dbB = PreparedDatabase.prepare(p, paired, src);
    System.out.printf("%s: %s (%d MB PVEC) against %s (%d MB)%n", cp.id(), plain, dbA.sizeBytes() >> 20, paired, dbB.sizeBytes() >> 20);
    CompactExpander ex = new CompactExpander(cp);
    long idx = count / 2 + 1; // an odd row
    CompactQuery q = client.query(idx);
    PreparedQuery pq = ex.expand(q, store.keysFor(q), null, true);
    PirServer server = new PirServer(p);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[] ta = new double[rounds], tb = new double[rounds], r = new double[rounds];
    for (int i = 0; i < rounds + 2; i++) {
      boolean aFirst = (i & 1) == 0;
      double x = 0, y = 0;
      for (int k = 0; k < 2; k++) {
        boolean doA = (k == 0) == aFirst;
        long t0 = mx.getCurrentThreadCpuTime();
        Answer ans = server.answer(doA ? dbA : dbB, pq, null);
        double s = (mx.getCurrentThreadCpuTime() - t0) / 1e9;
        if (i == 0 && !Arrays.equals(src.record(idx), client.decode(ans, idx))) {
          throw new AssertionError("wrong record from " + (doA ? "plain" : "paired"));
        }
        if (doA) x = s; else y = s;
      }
      if (i >= 2) { ta[i - 2] = x; tb[i - 2] = y; r[i - 2] = y / x; }
      System.out.printf("round %d: plain %.3f s, paired %.3f s, paired/plain %.3f%n", i, x, y, y / x);
    }
    Arrays.sort(ta); Arrays.sort(tb); Arrays.sort(r);
    System.out.printf("medians over %d rounds (2 warm-up rounds left out, order alternating): plain %.3f s, paired %.3f s; paired/plain %.3f [min %.3f, max %.3f]%n",
        rounds, ta[rounds / 2], tb[rounds / 2], r[rounds / 2], r[0], r[rounds - 1]);
  }
}
