package org.jpir.core.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.wire.Answer;
import org.jpir.vmp.Pmat;
import org.junit.jupiter.api.Test;

class ColumnTreeTest {
  static final Params P = Presets.TEST_INSECURE_256;

  @Test
  void blocksAreAlignedOrderedAndCoverTheRange() {
    for (int cols = 1; cols <= 70; cols++) {
      ColumnTree t = new ColumnTree(cols);
      for (int a = 0; a < cols; a++) {
        for (int b = a + 1; b <= cols; b++) {
          int x = a;
          for (int[] bl : t.blocks(a, b)) {
            assertEquals(x, bl[1], "blocks of [" + a + ", " + b + ") in " + cols);
            assertEquals(0, bl[1] % (1 << bl[0]), "aligned");
            assertTrue(bl[0] <= t.height());
            x = Math.min(cols, bl[1] + (1 << bl[0]));
            assertTrue(x <= b, "inside the range");
          }
          assertEquals(b, x, "covers [" + a + ", " + b + ") in " + cols);
        }
      }
    }
    assertEquals(1, new ColumnTree(37).blocks(0, 37).size(), "the whole grid is one block");
    assertThrows(IllegalArgumentException.class, () -> new ColumnTree(10).blocks(3, 3));
    assertThrows(IllegalArgumentException.class, () -> new ColumnTree(10).blocks(0, 11));
  }

  @Test
  void anyCutAndAnyGroupingOfContiguousSpansGivesTheSingleJvmAnswerBitForBit() {
    int rows = 2;
    int cols = 45;
    Geometry g = Geometry.of(P, (long) rows * cols, 1792, rows);
    assertEquals(cols, g.cols());
    cutsAndGroupings(g, new long[] {0, 77, (long) rows * cols - 1});
  }

  /**
   * The same with a paired tail plane (column pairs): cuts inside a pair fold the pair's two
   * copies, and the root's half is selected once.
   */
  @Test
  void anyCutOfAPairedTailPlaneGivesTheSingleJvmAnswerBitForBit() {
    int pb = P.bytesPerPolynomial();
    Geometry g = Geometry.of(P, 2L * 45, pb + pb / 2 - 5, 2).withPairedTail();
    assertEquals(45, g.cols());
    assertEquals(23, g.planeColumns(1));
    cutsAndGroupings(g, new long[] {0, 3, 77, 2L * 45 - 1});
  }

  private static void cutsAndGroupings(Geometry g, long[] idx) {
    SecureRandom rnd = new SecureRandom();
    int cols = g.cols();
    SyntheticRecords src = new SyntheticRecords(g.recordCount(), g.recordSize(), 9);
    PreparedDatabase whole = PreparedDatabase.prepare(P, g, src);
    PirClient client = new PirClient(P, g, SecretKey.generate(P, rnd), rnd);
    PreparedQuery[] qs = new PreparedQuery[idx.length];
    PreparedGgsw[][] ggsw = new PreparedGgsw[idx.length][];
    for (int i = 0; i < idx.length; i++) {
      qs[i] = new QueryExpander(P).expand(client.query(idx[i]), g);
      ggsw[i] = qs[i].ggsw();
    }
    PirServer server = new PirServer(P);
    Answer[] expected = server.answerBatch(whole, qs, null);
    ColumnTree tree = new ColumnTree(cols);
    SplittableRandom cut = new SplittableRandom(45);
    for (int trial = 0; trial < 4; trial++) {
      // random contiguous spans of width 1..12
      List<FoldSpan> spans = new ArrayList<>();
      for (int a = 0; a < cols; ) {
        int b = Math.min(cols, a + 1 + cut.nextInt(12));
        PreparedDatabase part = trial % 2 == 0 ? PreparedDatabase.prepare(P, g, src, a, b - a,
            null) : whole.slice(a, b - a);
        FoldSpan s = BatchSteps.answerSpan(server, part, qs, spans.size(), new PirServer.Timings(),
            0, "t");
        assertTrue(s.nodeCount() <= 2 * tree.height() + 1, s.nodeCount() + " nodes");
        spans.add(s);
        a = b;
      }
      // merge random runs of 2..4 contiguous spans until one remains
      while (spans.size() > 1) {
        List<FoldSpan> next = new ArrayList<>();
        for (int i = 0; i < spans.size(); ) {
          int k = Math.min(spans.size() - i, 2 + cut.nextInt(3));
          FoldSpan m = BatchSteps.mergeSpans(server, cols, spans.subList(i, i + k), next.size(),
              ggsw, "t");
          assertTrue(m.nodeCount() <= 2 * tree.height() + 1, m.nodeCount() + " nodes");
          next.add(m);
          i += k;
        }
        spans = next;
      }
      FoldSpan root = spans.get(0);
      assertEquals(1, root.nodeCount());
      assertEquals(Geometry.levels(cols), root.levels()[0]);
      for (int q = 0; q < qs.length; q++) {
        Glwe[] roots = new Glwe[g.planes()];
        for (int pl = 0; pl < roots.length; pl++) {
          roots[pl] = root.nodes()[q][pl][0];
        }
        server.selectTailHalf(roots, g, ggsw[q]);
        Answer a = server.toAnswer(roots, g);
        assertArrayEquals(expected[q].data(), a.data(), "trial " + trial + ", query " + q);
        assertArrayEquals(src.record(idx[q]), client.decode(a, idx[q]));
      }
    }
  }

  @Test
  void mergeRefusesSpansThatAreNotContiguous() {
    Glwe z = new Glwe(P.n(), P.glweLimbs());
    FoldSpan a = new FoldSpan(0, 0, 4, new int[] {2}, new int[] {0}, new Glwe[][][] {{{z}}}, 0,
        0, 0, 0, "t");
    FoldSpan c = new FoldSpan(2, 8, 12, new int[] {2}, new int[] {8}, new Glwe[][][] {{{z}}}, 0,
        0, 0, 0, "t");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BatchSteps.mergeSpans(new PirServer(P), 16, List.of(a, c), 0, new PreparedGgsw[1][],
            "t"));
    assertTrue(e.getMessage().contains("does not continue at column 4"), e.getMessage());
  }
}
