package org.jpir.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.jpir.vmp.CpuInfo;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Pvec;
import org.jpir.vmp.Vmp;

/**
 * Paired A/B of the phase-1 pass at two matrix widths in one JVM: the same {@code columns}
 * database PVECs of {@code rows} rows at ring degree N, multiplied by a PMAT of {@code a} and of
 * {@code b} columns ({@link Vmp#applyPvecBatch}, one query), alternating the order every round;
 * prints the median times and the median of the per-round ratios b / a with its quartiles.
 * Usage: {@code ./pir java org.jpir.bench.MatrixColumnsAb [N rows columns a b rounds]} (default
 * {@code 2048 448 128 6 4 10}: the N = 2048 preset's phase 1 in its server limbs and in its two
 * wide digits). Needs about {@code 8 N rows columns} bytes of heap.
 */
public final class MatrixColumnsAb {
  private MatrixColumnsAb() {}

  public static void main(String[] args) {
    int[] v = {2048, 448, 128, 6, 4, 10};
    for (int i = 0; i < Math.min(args.length, v.length); i++) {
      v[i] = Integer.parseInt(args[i]);
    }
    int n = v[0];
    int rows = v[1];
    int cols = v[2];
    int[] widths = {v[3], v[4]};
    int rounds = v[5];
    Random rnd = new Random(3);
    Pvec[] db = new Pvec[cols];
    double[] buf = new double[rows * n];
    for (int i = 0; i < buf.length; i++) {
      buf[i] = rnd.nextInt(256) - 128;
    }
    for (int c = 0; c < cols; c++) {
      db[c] = Pvec.allocate(n, rows);
      db[c].prepareFromReim(buf, 0);
    }
    Pmat[][] pm = new Pmat[2][];
    double[][][][] res = new double[2][][][];
    double[][] tmp = new double[2][];
    for (int s = 0; s < 2; s++) {
      int k = widths[s];
      Pmat m = Pmat.allocate(n, rows, k);
      double[] row = new double[k * n];
      for (int i = 0; i < row.length; i++) {
        row[i] = rnd.nextGaussian();
      }
      for (int r = 0; r < rows; r++) {
        m.prepareRow(r, row, 0);
      }
      pm[s] = new Pmat[] {m};
      res[s] = new double[1][cols][k * n];
      tmp[s] = new double[Vmp.applyPvecBatchTmpLength(1, n, rows, k, cols)];
    }
    for (int w = 0; w < 3; w++) {
      for (int s = 0; s < 2; s++) {
        Vmp.get().applyPvecBatch(pm[s], db, res[s], tmp[s]);
      }
    }
    double[][] t = new double[2][rounds];
    double[] ratio = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      for (int q = 0; q < 2; q++) {
        int s = (r + q) % 2;
        long t0 = System.nanoTime();
        Vmp.get().applyPvecBatch(pm[s], db, res[s], tmp[s]);
        t[s][r] = (System.nanoTime() - t0) / 1e6;
      }
      ratio[r] = t[1][r] / t[0][r];
    }
    Arrays.sort(t[0]);
    Arrays.sort(t[1]);
    Arrays.sort(ratio);
    System.out.printf(Locale.ROOT, "%s; pass of %d columns x %d rows, N = %d: %d matrix columns"
        + " median %.1f ms, %d columns median %.1f ms; paired ratio %d/%d median %.3f [q1 %.3f"
        + " q3 %.3f]%n", CpuInfo.get().describe(), cols, rows, n, widths[0],
        t[0][rounds / 2], widths[1], t[1][rounds / 2], widths[1], widths[0], ratio[rounds / 2],
        ratio[rounds / 4], ratio[(3 * rounds) / 4]);
  }
}
