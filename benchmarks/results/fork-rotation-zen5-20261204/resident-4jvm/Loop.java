package org.jpir.vmp;
import java.util.*;
/** Scratch: repeated multi-column passes, one line per call (epoch ms, call ms). */
public class Loop {
  public static void main(String[] a) throws Exception {
    int n = 4096, nrows = 548, ncols = 12, nc = 128;
    Vmp ops = Vmp.of("panama");
    Pmat pm = Pmat.allocate(n, nrows, ncols);
    Random r = new Random(1);
    double[] d = pm.data();
    for (int i = 0; i < d.length; i++) d[i] = r.nextGaussian();
    Pvec[] cols = new Pvec[nc];
    double[][] res = new double[nc][n * ncols];
    for (int c = 0; c < nc; c++) { cols[c] = Pvec.allocate(n, nrows); double[] x = cols[c].data(); for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian(); }
    double[] tmp = new double[Vmp.applyPvecMultiTmpLength(n, nrows, ncols, nc)];
    for (int w = 0; w < 10; w++) ops.applyPvecMulti(pm, cols, res, tmp);
    System.out.println("READY"); System.out.flush();
    long end = System.currentTimeMillis() + Long.parseLong(a[0]) * 1000;
    while (System.currentTimeMillis() < end) {
      long t0 = System.nanoTime();
      ops.applyPvecMulti(pm, cols, res, tmp);
      long t1 = System.nanoTime();
      System.out.println(System.currentTimeMillis() + " " + (t1 - t0) / 1e6);
    }
  }
}
