package org.jpir.core.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jpir.core.client.CompactClient;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;

/**
 * The order of the expansion's key switches (depth first, or level by level in groups that read
 * each key once) does not change the prepared query: every choice gives it bitwise.
 */
class ExpansionOrderTest {

  @Test
  void groupedLevelOrderEqualsDepthFirstBitwise() {
    check(CompactParams.TEST_INSECURE_256_COMPACT, CompactQueryTest.fullDepthGeometry());
    CompactParams scaled = CompactParams.TEST_INSECURE_256_COMPACT_SCALED;
    // a paired tail: the same expansion (its plane uses the phase-1 matrix of the others)
    Geometry tail = Geometry.of(scaled.server(), 12 * 85 * 3, 300, 85).withPairedTail();
    assertTrue(tail.pairedTail(), tail.toString());
    check(scaled, tail);
  }

  private static void check(CompactParams cp, Geometry g) {
    CompactClient client = CompactQueryTest.client(cp, g, "order");
    EvaluationKeyStore store = new EvaluationKeyStore(cp);
    store.register(client.clientId(), Wire.writeEvaluationKeys(client.evaluationKeys()));
    byte[] q = Wire.writeCompactQuery(client.query(g.recordCount() / 3));
    CompactExpander.Timings t0 = new CompactExpander.Timings();
    PreparedQuery want = new CompactExpander(cp, 1, 0).expand(read(q, cp), g, store, t0);
    int[][] choices = {{8, 3}, {3, 30}, {2, 1}, {64, 2}};
    for (int[] c : choices) {
      CompactExpander.Timings t = new CompactExpander.Timings();
      CompactExpander ex = new CompactExpander(cp, c[0], c[1]);
      for (int round = 0; round < 2; round++) { // the second reuses the pooled ciphertexts
        PreparedQuery got = ex.expand(read(q, cp), g, store, t);
        String tag = cp.id() + " " + g.rows() + "x" + g.cols() + " group " + c[0] + " depth "
            + c[1] + " round " + round;
        assertArrayEquals(want.phase1().toArray(), got.phase1().toArray(), tag + " phase 1");
        assertEquals(want.ggsw().length, got.ggsw().length, tag);
        for (int b = 0; b < want.ggsw().length; b++) {
          assertArrayEquals(want.ggsw()[b].matrix().toArray(), got.ggsw()[b].matrix().toArray(),
              tag + " GGSW " + b);
        }
      }
      assertEquals(2 * t0.keySwitches, t.keySwitches, "key switches, group " + c[0]);
      // a sparse choice of slots (some GGSW levels only): each as the full expansion made it
      for (long levels = 1; levels < 1L << want.ggsw().length; levels++) {
        CompactQuery cq = read(q, cp);
        PreparedGgsw[] some = ex.expandPhase2(cq, store.keysFor(cq), null, levels);
        for (int b = 0; b < want.ggsw().length; b++) {
          String tag = cp.id() + " group " + c[0] + " depth " + c[1] + " levels " + levels
              + " GGSW " + b;
          if ((levels >>> b & 1) == 0) {
            assertNull(some[b], tag);
          } else {
            assertArrayEquals(want.ggsw()[b].matrix().toArray(), some[b].matrix().toArray(),
                tag);
          }
        }
      }
    }
  }

  private static CompactQuery read(byte[] q, CompactParams cp) {
    return Wire.readCompactQuery(q, cp);
  }
}
