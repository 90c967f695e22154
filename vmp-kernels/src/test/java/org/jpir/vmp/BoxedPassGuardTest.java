package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link BoxedPassGuard}: its rule on recorded passes, and a pass whose wide kernel allocates
 * (as a kernel compiled without its vector intrinsics does) leaving its wide kernels for the
 * narrow blocks, with the sums of the reference's Gauss pass.
 */
class BoxedPassGuardTest {
  private static final long BIG = BoxedPassGuard.MIN_WORK;

  @Test
  void tripsOnlyAfterWarmPassesAndConsecutiveStrikesOfLargePasses() {
    BoxedPassGuard g = new BoxedPassGuard();
    long boxed = (long) (BIG * BoxedPassGuard.BYTES_PER_UNIT) + 1;
    // small passes and uncounted allocation never count
    for (int i = 0; i < 100; i++) {
      assertFalse(g.observe(BIG - 1, Long.MAX_VALUE / 2, "p"));
      assertFalse(g.observe(BIG, -1, "p"));
    }
    // the warm passes may allocate (the JIT is compiling)
    for (int i = 0; i < BoxedPassGuard.WARM_PASSES; i++) {
      assertFalse(g.observe(BIG, boxed, "p"));
    }
    // a clean pass between strikes starts the count again
    for (int i = 0; i < BoxedPassGuard.STRIKES - 1; i++) {
      assertFalse(g.observe(BIG, boxed, "p"));
    }
    assertFalse(g.observe(BIG, 2048, "p"));
    assertFalse(g.tripped());
    for (int i = 0; i < BoxedPassGuard.STRIKES - 1; i++) {
      assertFalse(g.observe(BIG, boxed, "p"));
    }
    assertTrue(g.observe(BIG, boxed, "p"));
    assertTrue(g.tripped());
    assertFalse(g.observe(BIG, boxed, "p"), "one trip only");
  }

  @Test
  void aPassWhoseWideKernelAllocatesFallsBackToTheNarrowBlocks() {
    assumeTrue(ThreadAllocation.bytes() >= 0, "this JVM does not count allocated bytes");
    VmpKernel ref = KernelProvider.ref().vmpKernel();
    // the reference kernel with a four-product wide kernel that allocates on every call
    InvocationHandler h = (proxy, m, args) -> switch (m.getName()) {
      case "fourWideVectors" -> (Integer) args[0] == 2 ? 6 : 0;
      case "macFourWide" -> {
        sink = new byte[128];
        yield InvocationHandler.invokeDefault(proxy, m, args);
      }
      default -> m.invoke(ref, args);
    };
    VmpKernel boxed = (VmpKernel) Proxy.newProxyInstance(VmpKernel.class.getClassLoader(),
        new Class<?>[] {VmpKernel.class}, h);
    Vmp o = new Vmp(boxed);
    int n = 2048;
    int nrows = 8;
    int ncols = 2;
    int nc = (int) (BIG / nrows / (n / 8)); // one pass = MIN_WORK column-row-blocks
    SplittableRandom rnd = new SplittableRandom(41);
    Pmat pm = VmpContractTest.randomPmat(rnd, n, nrows, ncols);
    Pvec[] cols = new Pvec[nc];
    for (int c = 0; c < nc; c++) {
      cols[c] = Pvec.allocate(n, nrows);
      cols[c].prepareFromReim(VmpContractTest.randomDoubles(rnd, n * nrows), 0);
    }
    double[][] res = new double[nc][n * ncols];
    double[] tmp = new double[Vmp.applyPvecMultiTmpLength(n, nrows, ncols, nc)];
    double[][] gauss = new double[nc][n * ncols];
    Vmp.of("ref").applyPvecMulti(pm, cols, gauss, tmp);
    assertFalse(o.gaussPass(ncols), "the four-product path at first");
    int passes = 0;
    while (!o.wideKernelsOff() && passes < 2 * (BoxedPassGuard.WARM_PASSES
        + BoxedPassGuard.STRIKES)) {
      o.applyPvecMulti(pm, cols, res, tmp);
      passes++;
    }
    assertTrue(o.wideKernelsOff(), "still on the allocating kernel after " + passes + " passes");
    assertTrue(passes == BoxedPassGuard.WARM_PASSES + BoxedPassGuard.STRIKES,
        "tripped after " + passes + " passes");
    assertTrue(o.gaussPass(ncols));
    o.applyPvecMulti(pm, cols, res, tmp);
    for (int c = 0; c < nc; c++) {
      assertArrayEquals(gauss[c], res[c], "column " + c + " after the fall-back");
    }
  }

  static Object sink;
}
