package org.jpir.spark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.spark.server.ColumnPartitioning;
import org.junit.jupiter.api.Test;
import org.jpir.core.server.ColumnTree;

/** The cost model's price of phase-1 passes (narrow partitions read the matrix more often). */
class CostModelTest {
  private static final Params P = Presets.byId("test-insecure-256");

  @Test
  void passesFollowTheAlignedBlocksAndTheirChunks() {
    ColumnTree tree = new ColumnTree(1000);
    assertEquals(1, CostPrediction.phase1Passes(tree, 0, 128), "one aligned chunk");
    assertEquals(2, CostPrediction.phase1Passes(tree, 0, 256), "two chunks of 128");
    assertEquals(1, CostPrediction.phase1Passes(tree, 5, 6), "one column");
    // [3, 22): blocks 3, 4-7, 8-15, 16-19, 20-21: five passes
    assertEquals(5, CostPrediction.phase1Passes(tree, 3, 22));
  }

  @Test
  void aPartitionOfTheRatesWidthCostsTheRateAndNarrowOnesPayForTheMatrix() {
    Geometry g = Geometry.of(P, 4L * 1024, P.bytesPerPolynomial(), 4);
    int cols = g.cols();
    double perSecond = 100; // columns per second per query
    int b = 4;
    double m = 2.0 * P.glweLimbs();
    // one partition of 64 aligned columns, rates measured over 64: b * 64 / 100 seconds
    ColumnPartitioning one = ColumnPartitioning.of(new int[] {0, 64, cols}, 1);
    assertEquals(Math.max(b * 64 / perSecond, b * (cols - 64 + CostPrediction.phase1Passes(
        new ColumnTree(cols), 64, cols) * b * m) / perSecond / (1 + b * m / 64)),
        CostPrediction.phase1Seconds(P, g, one, b, perSecond, 64, Double.NaN), 1e-9);
    // one column per partition: each costs (1 + b m) / (1 + b m / 64) columns' time
    int[] bounds = new int[cols + 1];
    for (int i = 0; i <= cols; i++) {
      bounds[i] = i;
    }
    double single = b * (1 + b * m) / (1 + b * m / 64) / perSecond;
    assertEquals(single, CostPrediction.phase1Seconds(P, g, ColumnPartitioning.of(bounds, 1), b,
        perSecond, 64, Double.NaN), 1e-9);
    assertTrue(single > 10 * b / perSecond, "a lone column reads 4 matrices");
    // with a measured pass cost P: w (T - P) / 64 + k P, T = b 64 / rate
    double t64 = b * 64 / perSecond;
    double pass = 0.25 * t64;
    assertEquals((t64 - pass) / 64 + pass, CostPrediction.phase1Seconds(P, g,
        ColumnPartitioning.of(bounds, 1), b, perSecond, 64, pass), 1e-9, "one column, one pass");
    int[] by64 = new int[(cols + 63) / 64 + 1];
    for (int i = 0; i < by64.length; i++) {
      by64[i] = Math.min(cols, 64 * i);
    }
    assertEquals(t64, CostPrediction.phase1Seconds(P, g, ColumnPartitioning.of(by64, 1), b, perSecond,
        64, pass), 1e-9, "aligned partitions of 64 columns: the measured pass");
  }
}
