package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Every SIMD-study benchmark sets up and runs once at a small size, outside JMH. */
class SimdBenchSmokeTest {
  @Test
  void polyOperationsRun() {
    SimdPolyBench b = new SimdPolyBench();
    b.n = 2048;
    b.setup();
    assertNotNull(b.fft());
    assertNotNull(b.ifft());
    assertNotNull(b.fromZnx());
    assertNotNull(b.toZnx());
    assertNotNull(b.reim4Extract());
    assertNotNull(b.normalize());
  }

  @Test
  void vmpOperationsRunAndAgree() {
    double[] dft = null;
    double[] pvecRes = null;
    double[][] multi = null;
    for (String m : new String[] {"applyDftToDft", "applyPvecToDft", "multiColumn",
        "pmatPrepare", "pvecPrepare"}) {
      SimdVmpBench b = new SimdVmpBench();
      b.shape = "2048:16:4";
      b.setup(m);
      switch (m) {
        case "applyDftToDft": dft = b.applyDftToDft().clone(); break;
        case "applyPvecToDft": pvecRes = b.applyPvecToDft().clone(); break;
        case "multiColumn": multi = b.multiColumn(); break;
        case "pmatPrepare": assertEquals(16, b.pmatPrepare().nrows()); break;
        default: assertEquals(16, b.pvecPrepare().nrows()); break;
      }
    }
    assertEquals(2048 * 4, dft.length);
    assertEquals(SimdVmpBench.COLUMNS, multi.length);
    assertTrue(pvecRes.length == dft.length);
  }

  @Test
  void externalProductRuns() {
    SimdPirBench b = new SimdPirBench();
    b.mib = 1;
    b.setup("externalProduct");
    assertNotNull(b.externalProduct());
  }

  @Test
  void queryPhasesRun() {
    SimdPirBench b = new SimdPirBench();
    b.mib = 1;
    b.setup("query"); // decodes and checks one answer
    assertTrue(b.phase1() > 0);
    assertEquals(1, b.phase2().size());
    assertNotNull(b.query());
  }
}
