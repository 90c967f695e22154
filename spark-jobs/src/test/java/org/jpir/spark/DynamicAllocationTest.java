package org.jpir.spark;

import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.source.SyntheticSourceFactory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.junit.jupiter.api.Test;

/**
 * A job under dynamic allocation stops in {@link DistributedPirServer#prepare} with the settings
 * to use, before it plans or prepares anything.
 */
class DynamicAllocationTest {
  static final Params P = Presets.TEST_INSECURE_256;

  @Test
  void prepareRefusesDynamicAllocationBeforeRunningAJob() {
    SparkConf c = SparkSetup.conf("jpir-dynamic-allocation-test", "local[1]")
        .set("spark.dynamicAllocation.enabled", "true");
    try (JavaSparkContext sc = new JavaSparkContext(c)) {
      sc.setLogLevel("WARN");
      Geometry g = Geometry.of(P, 8, 1792, 1);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> DistributedPirServer.prepare(sc, P, g, new SyntheticSourceFactory(8, 1792, 1), 0));
      assertTrue(e.getMessage().contains("spark.dynamicAllocation.enabled=false")
          && e.getMessage().contains("spark.executor.instances"), e.getMessage());
      assertEquals(0, sc.sc().statusTracker().getJobIdsForGroup(null).length,
          "no job ran before the refusal");
    }
  }
}
