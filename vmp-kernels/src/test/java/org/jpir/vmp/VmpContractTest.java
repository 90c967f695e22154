package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Contract of {@link Vmp} / {@link VmpKernel}, run against every kernel: ref, panama with its
 * preferred width, and both forced widths. Results are compared bitwise (the FMA-chain order
 * is fixed, see {@link Vmp}), so the stated tolerance is zero ulp, except between the
 * three-product pass and the four-product applies, which agree within rounding (and exactly on
 * integers: {@code gaussTileIsExactOnIntegers}).
 */
class VmpContractTest {

  static final long SEED = 0x5EED0FL;

  static List<String> kernels() {
    return List.of("ref", "panama", "panama256", "panama512", "panama256-1x3", "panama256-2x3",
        "panama128", "panama128-1x3", "panama128-1x1");
  }

  /** (kernel, N, nrows, ncols): odd and edge sizes. */
  static List<Arguments> shapes() {
    List<Arguments> out = new ArrayList<>();
    for (String k : kernels()) {
      for (int n : new int[] {16, 64, 256}) {
        for (int nrows : new int[] {1, 3, 7}) {
          for (int ncols : new int[] {1, 2, 3, 4, 5, 11, 12, 13}) {
            out.add(Arguments.of(k, n, nrows, ncols));
          }
        }
      }
      out.add(Arguments.of(k, 64, 513, 5));
      out.add(Arguments.of(k, 32, 513, 13));
      out.add(Arguments.of(k, 4096, 3, 3));
      out.add(Arguments.of(k, 4096, 2, 12));
    }
    return out;
  }

  static Vmp ops(String kernel) {
    return Vmp.of(kernel);
  }

  static String tag(String kernel, int n, int nrows, int ncols, long seed) {
    return kernel + " N=" + n + " " + nrows + "x" + ncols + " seed=" + seed;
  }

  static double[] randomDoubles(SplittableRandom rnd, int len) {
    double[] a = new double[len];
    for (int i = 0; i < len; i++) {
      a[i] = rnd.nextDouble(-1, 1);
    }
    return a;
  }

  static Pmat randomPmat(SplittableRandom rnd, int n, int nrows, int ncols) {
    Pmat p = Pmat.allocate(n, nrows, ncols);
    p.prepareFromReim(randomDoubles(rnd, n * nrows * ncols), 0);
    return p;
  }

  // ---------------------------------------------------------------- layouts

  static double code(int r, int c, int j) {
    return r * 1_000_000.0 + c * 100_000.0 + j;
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void pmatLayoutFollowsIndexFormula(String kernel, int n, int nrows, int ncols) {
    if (!kernel.equals("ref")) {
      return; // layout does not depend on the kernel
    }
    int m = n / 2;
    double[] src = new double[n * nrows * ncols];
    for (int r = 0; r < nrows; r++) {
      for (int c = 0; c < ncols; c++) {
        for (int j = 0; j < n; j++) {
          src[(r * ncols + c) * n + j] = code(r, c, j);
        }
      }
    }
    Pmat p = Pmat.allocate(n, nrows, ncols);
    p.prepareFromReim(src, 0);
    boolean[] seen = new boolean[p.data().length];
    for (int b = 0; b < m / 4; b++) {
      for (int r = 0; r < nrows; r++) {
        for (int c = 0; c < ncols; c++) {
          int expect = (ncols % 2 == 1 && c == ncols - 1)
              ? b * 8 * nrows * ncols + c * 8 * nrows + 8 * r
              : b * 8 * nrows * ncols + (c / 2) * 16 * nrows + 16 * r + 8 * (c % 2);
          int o = Pmat.offset(n, nrows, ncols, b, r, c);
          assertEquals(expect, o);
          for (int k = 0; k < 4; k++) {
            assertEquals(code(r, c, 4 * b + k), p.data()[p.base() + o + k]);
            assertEquals(code(r, c, m + 4 * b + k), p.data()[p.base() + o + 4 + k]);
          }
          for (int k = 0; k < 8; k++) {
            assertTrue(!seen[o + k], "position written twice");
            seen[o + k] = true;
          }
        }
      }
    }
    // prepareRow gives the same layout
    Pmat q = Pmat.allocate(n, nrows, ncols);
    for (int r = 0; r < nrows; r++) {
      q.prepareRow(r, src, r * ncols * n);
    }
    assertArrayEquals(p.data(), q.data());
  }

  @Test
  void pvecLayoutFollowsIndexFormula() {
    for (int n : new int[] {16, 128}) {
      for (int nrows : new int[] {1, 5}) {
        int m = n / 2;
        double[] src = new double[n * nrows];
        for (int r = 0; r < nrows; r++) {
          for (int j = 0; j < n; j++) {
            src[r * n + j] = code(r, 0, j);
          }
        }
        Pvec v = Pvec.allocate(n, nrows);
        v.prepareFromReim(src, 0);
        for (int b = 0; b < m / 4; b++) {
          for (int r = 0; r < nrows; r++) {
            int o = b * 8 * nrows + 8 * r;
            assertEquals(o, Pvec.offset(n, nrows, b, r));
            for (int k = 0; k < 4; k++) {
              assertEquals(code(r, 0, 4 * b + k), v.data()[v.base() + o + k]);
              assertEquals(code(r, 0, m + 4 * b + k), v.data()[v.base() + o + 4 + k]);
            }
          }
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("kernels")
  void reim4ExtractAndSaveFollowIndexFormula(String kernel) {
    VmpKernel k = KernelProvider.vmpKernel(kernel);
    int n = 64;
    int m = n / 2;
    int rows = 5;
    int off = 3;
    double[] src = new double[off + rows * n];
    for (int r = 0; r < rows; r++) {
      for (int j = 0; j < n; j++) {
        src[off + r * n + j] = code(r, 0, j);
      }
    }
    double[] blk = new double[2 + 8 * rows];
    double[] back = new double[off + rows * n];
    for (int b = 0; b < m / 4; b++) {
      k.extractBlock(n, b, rows, src, off, blk, 2);
      for (int r = 0; r < rows; r++) {
        for (int i = 0; i < 4; i++) {
          assertEquals(code(r, 0, 4 * b + i), blk[2 + 8 * r + i]);
          assertEquals(code(r, 0, m + 4 * b + i), blk[2 + 8 * r + 4 + i]);
        }
      }
      k.saveBlock(n, b, rows, blk, 2, back, off);
    }
    assertArrayEquals(src, back);
    // the public entry points agree
    double[] blk2 = new double[8 * rows];
    Reim4.extractBlock(n, 3, rows, src, off, blk2, 0);
    k.extractBlock(n, 3, rows, src, off, blk, 0);
    for (int i = 0; i < 8 * rows; i++) {
      assertEquals(blk[i], blk2[i]);
    }
  }

  @Test
  void pmatAndPvecFromZnxEqualTransformThenLayout() {
    SplittableRandom rnd = new SplittableRandom(SEED);
    int n = 128;
    int nrows = 3;
    int ncols = 3;
    long[] z = new long[n * nrows * ncols];
    for (int i = 0; i < z.length; i++) {
      z[i] = rnd.nextLong(-(1L << 20), 1L << 20);
    }
    double[] t = new double[z.length];
    for (int i = 0; i < nrows * ncols; i++) {
      Reim.fromZnx(n, z, i * n, t, i * n);
      FftPlan.of(n).fft(t, i * n);
    }
    Pmat a = Pmat.allocate(n, nrows, ncols);
    a.prepareFromZnx(z, 0);
    Pmat b = Pmat.allocate(n, nrows, ncols);
    b.prepareFromReim(t, 0);
    assertArrayEquals(b.data(), a.data(), "seed=" + SEED);
    Pvec va = Pvec.allocate(n, nrows * ncols);
    va.prepareFromZnx(z, 0);
    Pvec vb = Pvec.allocate(n, nrows * ncols);
    vb.prepareFromReim(t, 0);
    assertArrayEquals(vb.data(), va.data(), "seed=" + SEED);
  }

  // ---------------------------------------------------------------- exact arithmetic

  static List<Arguments> exactShapes() {
    List<Arguments> out = new ArrayList<>();
    for (String k : kernels()) {
      out.add(Arguments.of(k, 16, 3, 5));
      out.add(Arguments.of(k, 64, 7, 2));
      out.add(Arguments.of(k, 256, 4, 3));
      out.add(Arguments.of(k, 1024, 2, 1));
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("exactShapes")
  void applyMatchesExactNegacyclicProduct(String kernel, int n, int nrows, int ncols) {
    long seed = SEED + n * 31L + nrows * 7L + ncols;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] vec = new long[n * nrows];
    long[] mat = new long[n * nrows * ncols];
    for (int i = 0; i < vec.length; i++) {
      vec[i] = rnd.nextInt(-512, 513);
    }
    for (int i = 0; i < mat.length; i++) {
      mat[i] = rnd.nextInt(-512, 513);
    }
    long[] expect = new long[n * ncols];
    for (int c = 0; c < ncols; c++) {
      for (int r = 0; r < nrows; r++) {
        int vo = r * n;
        int mo = (r * ncols + c) * n;
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < n; j++) {
            long p = vec[vo + i] * mat[mo + j];
            int d = i + j;
            if (d < n) {
              expect[c * n + d] += p;
            } else {
              expect[c * n + d - n] -= p;
            }
          }
        }
      }
    }
    Pmat pm = Pmat.allocate(n, nrows, ncols);
    pm.prepareFromZnx(mat, 0);
    double[] v = new double[n * nrows];
    for (int r = 0; r < nrows; r++) {
      Reim.fromZnx(n, vec, r * n, v, r * n);
      FftPlan.of(n).fft(v, r * n);
    }
    double[] res = new double[n * ncols];
    ops(kernel).applyDftToDft(pm, v, 0, nrows, res, 0, ncols,
        new double[Vmp.applyDftToDftTmpLength(n, nrows, ncols)]);
    long[] got = new long[n * ncols];
    for (int c = 0; c < ncols; c++) {
      FftPlan.of(n).ifft(res, c * n);
      Reim.toZnx(n, res, c * n, got, c * n);
    }
    assertArrayEquals(expect, got, tag(kernel, n, nrows, ncols, seed));
  }

  // ---------------------------------------------------------------- bitwise agreement

  @ParameterizedTest
  @MethodSource("shapes")
  void pvecApplyAddFormsAndRefAgreeBitwise(String kernel, int n, int nrows, int ncols) {
    long seed = SEED ^ (n * 1_000_003L + nrows * 1009L + ncols);
    String tag = tag(kernel, n, nrows, ncols, seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    Pmat pm = randomPmat(rnd, n, nrows, ncols);
    double[] vec = randomDoubles(rnd, 5 + n * nrows);
    Pvec pv = Pvec.allocate(n, nrows);
    pv.prepareFromReim(vec, 5);
    Vmp o = ops(kernel);
    Vmp ref = ops("ref");
    double[] tmp = new double[Vmp.applyDftToDftTmpLength(n, nrows, ncols)];

    double[] a = randomDoubles(rnd, 2 + n * ncols); // garbage must be overwritten
    o.applyDftToDft(pm, vec, 5, nrows, a, 2, ncols, tmp);
    double[] b = randomDoubles(rnd, 2 + n * ncols);
    o.applyPvecToDft(pm, pv, b, 2, ncols, tmp);
    assertArrayEquals(a, copyHead(b, a), tag + " pvec vs dft");
    // blocks staged in scratch (as for an unaligned PVEC) and read in place agree bitwise
    for (boolean stage : new boolean[] {true, false}) {
      double[] s = randomDoubles(rnd, 2 + n * ncols);
      o.applyPvecToDft(pm, pv, s, 2, ncols, tmp, stage);
      assertArrayEquals(a, copyHead(s, a), tag + " pvec staged=" + stage + " vs dft");
    }
    double[] r = new double[2 + n * ncols];
    ref.applyDftToDft(pm, vec, 5, nrows, r, 2, ncols, tmp);
    assertArrayEquals(copyTail(r, 2), copyTail(a, 2), tag + " vs ref");

    double[] res0 = randomDoubles(rnd, n * ncols);
    double[] add1 = res0.clone();
    o.applyDftToDftAdd(pm, vec, 5, nrows, add1, 0, ncols, tmp);
    double[] add2 = res0.clone();
    o.applyPvecToDftAdd(pm, pv, add2, 0, ncols, tmp);
    double[] expect = new double[n * ncols];
    for (int i = 0; i < expect.length; i++) {
      expect[i] = res0[i] + a[2 + i];
    }
    assertArrayEquals(expect, add1, tag + " dft add");
    assertArrayEquals(expect, add2, tag + " pvec add");
  }

  /** A group apply equals one apply per vector bitwise, whatever the chunking of the PMAT. */
  @ParameterizedTest
  @MethodSource("shapes")
  void groupApplyEqualsOneApplyPerVectorBitwise(String kernel, int n, int nrows, int ncols) {
    long seed = SEED ^ (n * 7_000_003L + nrows * 31L + ncols);
    String tag = tag(kernel, n, nrows, ncols, seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    Pmat pm = randomPmat(rnd, n, nrows, ncols);
    Vmp o = ops(kernel);
    double[] tmp = new double[Vmp.applyDftToDftTmpLength(n, nrows, ncols)];
    int count = 3;
    double[][] vecs = new double[count + 1][];
    double[][] res = new double[count + 1][];
    for (int m = 0; m <= count; m++) {
      vecs[m] = randomDoubles(rnd, 5 + n * nrows);
      res[m] = randomDoubles(rnd, 2 + n * (ncols + 1)); // garbage must be overwritten
    }
    double[] untouched = res[count].clone();
    o.applyDftToDftGroup(pm, vecs, 5, nrows, res, 2, ncols + 1, count, tmp);
    for (int m = 0; m < count; m++) {
      double[] one = randomDoubles(rnd, 2 + n * (ncols + 1));
      o.applyDftToDft(pm, vecs[m], 5, nrows, one, 2, ncols + 1, tmp);
      assertArrayEquals(copyTail(one, 2), copyTail(res[m], 2), tag + " member " + m);
    }
    assertArrayEquals(untouched, res[count], tag + " beyond count");
    assertIae("tmp", () -> o.applyDftToDftGroup(pm, vecs, 5, nrows, res, 2, ncols,
        2, new double[1]));
    assertIae("needs that many", () -> o.applyDftToDftGroup(pm, vecs, 5, nrows, res, 2,
        ncols, count + 2, tmp));
  }

  static double[] copyHead(double[] b, double[] like) {
    double[] c = like.clone();
    System.arraycopy(b, 2, c, 2, like.length - 2);
    return c;
  }

  static double[] copyTail(double[] a, int from) {
    double[] c = new double[a.length - from];
    System.arraycopy(a, from, c, 0, c.length);
    return c;
  }

  @ParameterizedTest
  @MethodSource("kernels")
  void truncatesRowsAndColumnsAndZeroesExtraColumns(String kernel) {
    Vmp o = ops(kernel);
    int n = 64;
    for (int ncols : new int[] {4, 5}) {
      int nrows = 6;
      long seed = SEED + ncols;
      SplittableRandom rnd = new SplittableRandom(seed);
      Pmat pm = randomPmat(rnd, n, nrows, ncols);
      double[] vec = randomDoubles(rnd, n * nrows);
      double[] tmp = new double[Vmp.applyDftToDftTmpLength(n, nrows, ncols)];
      double[] full = new double[n * ncols];
      o.applyDftToDft(pm, vec, 0, nrows, full, 0, ncols, tmp);
      // fewer result columns (including an odd count inside a pair): a prefix of the full one
      for (int rc = 1; rc <= ncols; rc++) {
        double[] part = new double[n * rc];
        o.applyDftToDft(pm, vec, 0, nrows, part, 0, rc, tmp);
        for (int i = 0; i < part.length; i++) {
          assertEquals(full[i], part[i], "resCols=" + rc + " seed=" + seed);
        }
      }
      // more result columns: zeroed, Add leaves them alone
      double[] wide = randomDoubles(rnd, n * (ncols + 2));
      o.applyDftToDft(pm, vec, 0, nrows, wide, 0, ncols + 2, tmp);
      for (int i = 0; i < wide.length; i++) {
        assertEquals(i < full.length ? full[i] : 0.0, wide[i], "seed=" + seed);
      }
      // more vector rows than the matrix: extra rows ignored
      double[] more = randomDoubles(rnd, n * (nrows + 3));
      System.arraycopy(vec, 0, more, 0, vec.length);
      double[] r2 = new double[n * ncols];
      o.applyDftToDft(pm, more, 0, nrows + 3, r2, 0, ncols, tmp);
      assertArrayEquals(full, r2, "seed=" + seed);
      // fewer vector rows: the sum over those rows = the product with a zero-padded vector
      double[] fewer = vec.clone();
      java.util.Arrays.fill(fewer, 2 * n, fewer.length, 0.0);
      double[] r3 = new double[n * ncols];
      o.applyDftToDft(pm, fewer, 0, 2, r3, 0, ncols, tmp);
      Pvec pv = Pvec.allocate(n, 2);
      pv.prepareFromReim(vec, 0);
      double[] r4 = new double[n * ncols];
      o.applyPvecToDft(pm, pv, r4, 0, ncols, tmp);
      assertArrayEquals(r3, r4, "seed=" + seed);
    }
  }

  // ---------------------------------------------------------------- multi-column and batch

  /**
   * The multi-column and batched passes of every kernel, tiling, grouping and write-back equal,
   * bitwise, the per-column apply (four-product kernels) or the reference kernel's Gauss pass
   * (512-bit kernels, which equal the apply within rounding).
   */
  @ParameterizedTest
  @MethodSource("shapes")
  void multiAndBatchEqualApplyOrReferencePassBitwise(String kernel, int n, int nrows,
      int ncols) {
    if (n > 256 && nrows > 3) {
      return;
    }
    long seed = SEED * 7 + n * 131L + nrows * 17L + ncols;
    SplittableRandom rnd = new SplittableRandom(seed);
    int nq = 2;
    // 7 = two groups of 3 plus one single; 19 = two wide blocks of 8 plus 3 (PMATs of at most
    // 2 columns: VmpKernel.gaussWideVectors), or three four-product blocks of 6 plus 1 (two
    // columns: VmpKernel.fourWideVectors)
    int nc = nrows == 513 ? 4 : ncols <= 2 ? 19 : 7;
    Pmat[] qs = new Pmat[nq];
    for (int q = 0; q < nq; q++) {
      qs[q] = randomPmat(rnd, n, nrows, ncols);
    }
    Pvec[] cols = new Pvec[nc];
    for (int c = 0; c < nc; c++) {
      cols[c] = Pvec.allocate(n, nrows);
      cols[c].prepareFromReim(randomDoubles(rnd, n * nrows), 0);
    }
    Vmp o = ops(kernel);
    double[][][] expect = new double[nq][nc][n * ncols];
    double[] t = new double[Vmp.applyPvecToDftTmpLength(n, nrows, ncols)];
    for (int q = 0; q < nq; q++) {
      for (int c = 0; c < nc; c++) {
        o.applyPvecToDft(qs[q], cols[c], expect[q][c], 0, ncols, t);
      }
    }
    if (o.gaussPass(ncols)) {
      // three products: bitwise the reference's Gauss pass, within rounding of the apply
      double[][][] gauss = new double[nq][nc][n * ncols];
      ops("ref").applyPvecBatch(qs, cols, gauss,
          new double[Vmp.applyPvecBatchTmpLength(nq, n, nrows, ncols, nc, 1)], 1);
      for (int q = 0; q < nq; q++) {
        for (int c = 0; c < nc; c++) {
          assertClose(expect[q][c], gauss[q][c], 1e-14 * 8 * nrows,
              tag(kernel, n, nrows, ncols, seed) + " Gauss pass vs apply q" + q + " col " + c);
        }
      }
      expect = gauss;
    }
    for (int tile : new int[] {0, 1, 2, 5, 1000}) {
      double[] tmp = new double[tile == 0
          ? Vmp.applyPvecBatchTmpLength(nq, n, nrows, ncols, nc)
          : Vmp.applyPvecBatchTmpLength(nq, n, nrows, ncols, nc, tile)];
      String tag = tag(kernel, n, nrows, ncols, seed) + " tileRows=" + tile;
      double[][][] got = new double[nq][nc][n * ncols];
      o.applyPvecBatch(qs, cols, got, tmp, tile);
      double[][] single = new double[nc][n * ncols];
      o.applyPvecMulti(qs[1], cols, single, tmp, tile);
      for (int c = 0; c < nc; c++) {
        assertArrayEquals(expect[0][c], got[0][c], tag + " batch q0 col " + c);
        assertArrayEquals(expect[1][c], got[1][c], tag + " batch q1 col " + c);
        assertArrayEquals(expect[1][c], single[c], tag + " multi col " + c);
      }
      // every split of the database columns into groups (1 .. nc, odd and even), and row
      // panels inside the tile with remainders
      for (int group : new int[] {1, 2, 3, 8, 16, nc}) {
        double[][][] g = new double[nq][nc][n * ncols];
        if (tile > 2) {
          o.applyPvecBatch(qs, cols, g, tmp, new Vmp.Tiling(2 + group % 2, tile, group, "t"));
        } else {
          o.applyPvecBatch(qs, cols, g, tmp, tile, group);
        }
        for (int q = 0; q < nq; q++) {
          for (int c = 0; c < nc; c++) {
            assertArrayEquals(expect[q][c], g[q][c], tag + " groupColumns=" + group + " q" + q
                + " col " + c);
          }
        }
      }
      // the results written every 1, 3 or 5 blocks (a last run shorter than the others)
      for (int fb = 1; fb <= Math.min(5, Vmp.finishBlocks(n)); fb += 2) {
        double[][][] g = new double[nq][nc][n * ncols];
        Vmp.Tiling tl = tile == 0 ? Vmp.tiling(o.block(), CpuInfo.get(), ncols, nq)
            : new Vmp.Tiling(Math.min(2, tile), tile, 3, "t");
        o.applyPvecBatch(qs, cols, g, tmp, tl, fb);
        for (int q = 0; q < nq; q++) {
          for (int c = 0; c < nc; c++) {
            assertArrayEquals(expect[q][c], g[q][c], tag + " finishBlocks=" + fb + " q" + q
                + " col " + c);
          }
        }
      }
    }
  }

  /**
   * readAhead stays inside its runs for every run count, length and alignment up to the arrays'
   * ends (an index past an array would throw), and its value comes from the runs alone: ones
   * inside, 1e6 outside, so the sum of any double read outside shows (0 for the reference).
   */
  @ParameterizedTest
  @MethodSource("kernels")
  void readAheadReadsOnlyItsRuns(String kernel) {
    VmpKernel k = KernelProvider.vmpKernel(kernel);
    double[][] a = new double[7][200];
    int[] off = new int[7];
    for (int runs = 0; runs <= 7; runs++) {
      for (int base = 0; base <= 40; base++) {
        for (int len = 0; base + 6 + len <= 200; len += 8) {
          for (int r = 0; r < 7; r++) {
            java.util.Arrays.fill(a[r], 1e6);
            // a different alignment per run; the same array twice for runs 5 and 6
            off[r] = base + r % 5;
            if (r < runs) {
              java.util.Arrays.fill(a[r], off[r], off[r] + len, 1.0);
            }
          }
          double[][] arrays = a.clone();
          arrays[6] = a[5];
          off[6] = off[5];
          double got = k.readAhead(arrays, off, runs, len);
          assertTrue(got >= 0 && got <= (double) runs * len, kernel + " readAhead(" + runs
              + " runs at " + base + ", " + len + ") = " + got);
          if (len == 0 || runs == 0) {
            assertEquals(0.0, got, kernel + " read outside empty runs");
          }
        }
      }
    }
  }

  /** Every (vectors, columns) tile of every kernel against ref mac1 on the same panel, bitwise. */
  @ParameterizedTest
  @MethodSource("kernels")
  void macTileEqualsMac1OnEveryRemainder(String kernel) {
    VmpKernel k = KernelProvider.vmpKernel(kernel);
    VmpKernel ref = KernelProvider.ref().vmpKernel();
    SplittableRandom rnd = new SplittableRandom(SEED + kernel.hashCode());
    for (int rows : new int[] {0, 1, 3, 17}) {
      double[] u0 = randomDoubles(rnd, 3 + 8 * rows);
      double[] u1 = randomDoubles(rnd, 3 + 8 * rows);
      for (int vectors = 1; vectors <= 2; vectors++) {
        for (int cols = 1; cols <= 8; cols++) {
          double[] v = randomDoubles(rnd, 5 + 8 * cols * Math.max(rows, 1));
          int stStride = 16 * cols + 4;
          double[] st0 = randomDoubles(rnd, 7 + 2 * stStride);
          double[] got = st0.clone();
          k.macTile(vectors, cols, rows, u0, u1, 3, v, 5, got, 7, stStride);
          double[] want = st0.clone();
          for (int i = 0; i < vectors; i++) {
            for (int j = 0; j < cols; j++) {
              ref.mac1(rows, i == 0 ? u0 : u1, 3, v, 5 + 8 * j, 8 * cols, want,
                  7 + i * stStride + 16 * j);
            }
          }
          assertArrayEquals(want, got, kernel + " " + vectors + "x" + cols + " rows=" + rows);
        }
      }
    }
  }

  /** packPanels of every kernel follows its index formula at every width and remainder. */
  @ParameterizedTest
  @MethodSource("kernels")
  void packPanelsFollowsIndexFormula(String kernel) {
    VmpKernel k = KernelProvider.vmpKernel(kernel);
    SplittableRandom rnd = new SplittableRandom(SEED + 99);
    int n = 32;
    for (int ncols : new int[] {1, 2, 5, 12, 13}) {
      int nrows = 7;
      Pmat pm = randomPmat(rnd, n, nrows, ncols);
      for (int width = 1; width <= 6; width++) {
        int r0 = 2;
        int rows = 4;
        double[] dst = new double[3 + 8 * rows * ncols];
        k.packPanels(pm.data(), pm.base(), nrows, ncols, 3, r0, rows, width, dst, 3);
        for (int c = 0; c < ncols; c++) {
          int j0 = c - c % width;
          int g = Math.min(width, ncols - j0);
          for (int i = 0; i < rows; i++) {
            int o = Pmat.offset(n, nrows, ncols, 3, r0 + i, c);
            for (int x = 0; x < 8; x++) {
              assertEquals(pm.data()[pm.base() + o + x],
                  dst[3 + 8 * rows * j0 + 8 * g * i + 8 * (c - j0) + x],
                  kernel + " ncols=" + ncols + " width=" + width + " c=" + c + " i=" + i);
            }
          }
        }
      }
    }
  }

  /**
   * The wide Gauss tiles ({@link VmpKernel#macGaussWide}: 8 and 6 vectors at 1 and 2 columns
   * where a kernel has them, the three-at-a-time default elsewhere) against the reference {@code
   * macGauss} of each vector on the same panel and states, bitwise.
   */
  @ParameterizedTest
  @MethodSource("kernels")
  void macGaussWideEqualsTheReferenceTiles(String kernel) {
    VmpKernel k = KernelProvider.vmpKernel(kernel);
    VmpKernel ref = KernelProvider.ref().vmpKernel();
    SplittableRandom rnd = new SplittableRandom(SEED * 3 + kernel.hashCode());
    for (int rows : new int[] {0, 1, 3, 17}) {
      double[][] u = new double[11][];
      for (int q = 0; q < u.length; q++) {
        u[q] = randomDoubles(rnd, 3 + 8 * rows);
      }
      for (int vectors : new int[] {8, 6, 5}) {
        for (int cols = 1; cols <= 3; cols++) {
          double[] v = randomDoubles(rnd, 5 + VmpKernel.gaussRow(cols) * Math.max(rows, 1));
          int stStride = 12 * cols + 12;
          double[] st0 = randomDoubles(rnd, 7 + vectors * stStride);
          double[] got = st0.clone();
          k.macGaussWide(vectors, cols, rows, u, 2, 3, v, 5, got, 7, 7 + 8 * cols, stStride);
          double[] want = st0.clone();
          for (int q = 0; q < vectors; q++) {
            ref.macGauss(1, cols, rows, u[2 + q], null, null, 3, v, 5, want, 7 + q * stStride,
                7 + 8 * cols + q * stStride, stStride);
          }
          if ((cols & 1) == 1) {
            for (int q = 0; q < vectors; q++) {
              int spare = 7 + 8 * cols + q * stStride + 4 * cols;
              System.arraycopy(want, spare, got, spare, 4);
            }
          }
          assertArrayEquals(want, got, kernel + " wide " + vectors + "x" + cols + " rows="
              + rows);
        }
      }
      int wide = k.gaussWideVectors(2);
      assertTrue(wide == 0 || wide == 6 || wide == 8, kernel + ": " + wide);
      assertEquals(0, k.gaussWideVectors(3), kernel);
    }
  }

  /**
   * The wide four-product tiles ({@link VmpKernel#macFourWide}: 6 and 1 vectors at 2 columns
   * where a kernel has them, its scalar default elsewhere) against the reference {@code mac1} of
   * each vector and column on the same panel, bitwise, in the state layout macFourWide states;
   * and {@link VmpKernel#finishFourWide} against {@code finish} of the same sums.
   */
  @ParameterizedTest
  @MethodSource("kernels")
  void macFourWideEqualsTheReferenceTiles(String kernel) {
    VmpKernel k = KernelProvider.vmpKernel(kernel);
    VmpKernel ref = KernelProvider.ref().vmpKernel();
    SplittableRandom rnd = new SplittableRandom(SEED * 5 + kernel.hashCode());
    for (int rows : new int[] {0, 1, 3, 17}) {
      double[][] u = new double[9][];
      for (int q = 0; q < u.length; q++) {
        u[q] = randomDoubles(rnd, 3 + 8 * rows);
      }
      for (int vectors : new int[] {6, 1, 4}) {
        for (int cols = 1; cols <= 3; cols++) {
          double[] v = randomDoubles(rnd, 5 + 8 * cols * Math.max(rows, 1));
          int stStride = 16 * cols + 8;
          double[] st0 = randomDoubles(rnd, 7 + vectors * stStride);
          double[] got = st0.clone();
          k.macFourWide(vectors, cols, rows, u, 2, 3, v, 5, got, 7, stStride);
          double[] want = st0.clone();
          for (int q = 0; q < vectors; q++) {
            for (int j = 0; j < cols; j++) {
              int s = 7 + q * stStride + 16 * j;
              // the reference state is (rr, ri, ir, ii); macFourWide's (rr, ii, ri, ir)
              double[] r = new double[16];
              System.arraycopy(want, s, r, 0, 4);
              System.arraycopy(want, s + 8, r, 4, 4);
              System.arraycopy(want, s + 12, r, 8, 4);
              System.arraycopy(want, s + 4, r, 12, 4);
              ref.mac1(rows, u[2 + q], 3, v, 5 + 8 * j, 8 * cols, r, 0);
              System.arraycopy(r, 0, want, s, 4);
              System.arraycopy(r, 4, want, s + 8, 4);
              System.arraycopy(r, 8, want, s + 12, 4);
              System.arraycopy(r, 12, want, s + 4, 4);
              double[] fr = new double[16];
              double[] fw = new double[16];
              ref.finish(r, 0, fr, 0, 8);
              k.finishFourWide(want, s, fw, 0, 8);
              assertArrayEquals(fr, fw, kernel + " finish " + vectors + "x" + cols);
            }
          }
          assertArrayEquals(want, got, kernel + " four-product wide " + vectors + "x" + cols
              + " rows=" + rows);
        }
      }
      int four = k.fourWideVectors(2);
      assertTrue(four == 0 || four == 6, kernel + ": " + four);
      assertEquals(0, k.fourWideVectors(3), kernel);
    }
  }

  /**
   * Every (vectors, columns) Gauss tile of every kernel against the reference tile on the same
   * panel and states, bitwise (vectors 1-3, columns 1-6: every remainder of every block).
   */
  @ParameterizedTest
  @MethodSource("kernels")
  void macGaussEqualsTheReferenceOnEveryRemainder(String kernel) {
    VmpKernel k = KernelProvider.vmpKernel(kernel);
    VmpKernel ref = KernelProvider.ref().vmpKernel();
    SplittableRandom rnd = new SplittableRandom(SEED + kernel.hashCode());
    for (int rows : new int[] {0, 1, 3, 17}) {
      double[][] u = new double[3][];
      for (int q = 0; q < 3; q++) {
        u[q] = randomDoubles(rnd, 3 + 8 * rows);
      }
      for (int vectors = 1; vectors <= 3; vectors++) {
        for (int cols = 1; cols <= 6; cols++) {
          double[] v = randomDoubles(rnd, 5 + VmpKernel.gaussRow(cols) * Math.max(rows, 1));
          int stStride = 12 * cols + 12;
          double[] st0 = randomDoubles(rnd, 7 + 3 * stStride);
          double[] got = st0.clone();
          k.macGauss(vectors, cols, rows, u[0], vectors > 1 ? u[1] : null,
              vectors > 2 ? u[2] : null, 3, v, 5, got, 7, 7 + 8 * cols, stStride);
          double[] want = st0.clone();
          ref.macGauss(vectors, cols, rows, u[0], u[1], u[2], 3, v, 5, want, 7, 7 + 8 * cols,
              stStride);
          if ((cols & 1) == 1) {
            // the spare K1 slot after an odd last column is the kernel's to write
            for (int q = 0; q < vectors; q++) {
              int spare = 7 + 8 * cols + q * stStride + 4 * cols;
              System.arraycopy(want, spare, got, spare, 4);
            }
          }
          assertArrayEquals(want, got, kernel + " " + vectors + "x" + cols + " rows=" + rows);
        }
      }
    }
  }

  /**
   * The Gauss tile of every kernel, finished, equals the exact complex sum on integer data whose
   * partial sums stay below 2^53 (database digits up to 2^15, matrix digits up to 2^20), for
   * every block remainder: the three-product form is an identity, not an approximation.
   */
  @ParameterizedTest
  @MethodSource("kernels")
  void gaussTileIsExactOnIntegers(String kernel) {
    VmpKernel k = KernelProvider.vmpKernel(kernel);
    SplittableRandom rnd = new SplittableRandom(SEED + 31 * kernel.hashCode());
    int rows = 37;
    int nrows = 40;
    int n = 16;
    for (int ncols : new int[] {1, 2, 3, 4, 5, 6}) {
      Pmat pm = Pmat.allocate(n, nrows, ncols);
      long[][][] mv = new long[nrows][ncols][8]; // [row][col][re0..3, im0..3] of block 1
      for (int r = 0; r < nrows; r++) {
        for (int c = 0; c < ncols; c++) {
          for (int x = 0; x < 8; x++) {
            mv[r][c][x] = rnd.nextLong(-(1L << 20), 1L << 20);
            pm.data()[pm.base() + Pmat.offset(n, nrows, ncols, 1, r, c) + x] = mv[r][c][x];
          }
        }
      }
      for (int width = 1; width <= 4; width++) {
        double[] panel = new double[VmpKernel.gaussPanelsLength(rows, ncols, width)];
        k.packGauss(pm.data(), pm.base(), nrows, ncols, 1, 2, rows, width, panel, 0);
        for (int vectors = 1; vectors <= 3; vectors++) {
          double[][] u = new double[3][8 * rows];
          for (int q = 0; q < vectors; q++) {
            for (int i = 0; i < 8 * rows; i++) {
              u[q][i] = rnd.nextLong(-(1L << 15), 1L << 15);
            }
          }
          int stride = 12 * (ncols + 1);
          double[] st = new double[3 * stride];
          for (int j0 = 0; j0 < ncols; j0 += width) {
            int g = Math.min(width, ncols - j0);
            k.macGauss(vectors, g, rows, u[0], vectors > 1 ? u[1] : null,
                vectors > 2 ? u[2] : null, 0, panel, rows * (j0 / width)
                    * VmpKernel.gaussRow(width), st, 8 * j0, 8 * (ncols + 1) + 4 * j0, stride);
          }
          for (int q = 0; q < vectors; q++) {
            for (int c = 0; c < ncols; c++) {
              double[] out = new double[8];
              k.finishGauss(st, q * stride + 8 * c, q * stride + 8 * (ncols + 1) + 4 * c, out,
                  0, 4);
              for (int lane = 0; lane < 4; lane++) {
                long re = 0;
                long im = 0;
                for (int i = 0; i < rows; i++) {
                  long a = (long) u[q][8 * i + lane];
                  long b = (long) u[q][8 * i + 4 + lane];
                  long cc = mv[2 + i][c][lane];
                  long d = mv[2 + i][c][4 + lane];
                  re += a * cc - b * d;
                  im += a * d + b * cc;
                }
                String tag = kernel + " ncols=" + ncols + " width=" + width + " " + vectors
                    + " vectors, q=" + q + " c=" + c + " lane " + lane;
                assertEquals((double) re, out[lane], tag + " re");
                assertEquals((double) im, out[4 + lane], tag + " im");
              }
            }
          }
        }
      }
    }
  }

  /** packGauss of every kernel follows its index formula at every width and remainder. */
  @ParameterizedTest
  @MethodSource("kernels")
  void packGaussFollowsIndexFormula(String kernel) {
    VmpKernel k = KernelProvider.vmpKernel(kernel);
    SplittableRandom rnd = new SplittableRandom(SEED + 99);
    int n = 32;
    for (int ncols : new int[] {1, 2, 5, 12, 13}) {
      int nrows = 7;
      Pmat pm = randomPmat(rnd, n, nrows, ncols);
      for (int width = 1; width <= 4; width++) {
        int r0 = 2;
        int rows = 4;
        double[] dst = randomDoubles(rnd, 3 + VmpKernel.gaussPanelsLength(rows, ncols, width));
        k.packGauss(pm.data(), pm.base(), nrows, ncols, 3, r0, rows, width, dst, 3);
        for (int j0 = 0; j0 < ncols; j0 += width) {
          int g = Math.min(width, ncols - j0);
          int p = 3 + rows * (j0 / width) * VmpKernel.gaussRow(width);
          for (int i = 0; i < rows; i++) {
            int r = p + VmpKernel.gaussRow(g) * i;
            String tag = kernel + " ncols=" + ncols + " width=" + width + " j0=" + j0 + " i=" + i;
            for (int x = 0; x < g; x++) {
              int o = pm.base() + Pmat.offset(n, nrows, ncols, 3, r0 + i, j0 + x);
              for (int l = 0; l < 4; l++) {
                double c = pm.data()[o + l];
                double d = pm.data()[o + 4 + l];
                assertEquals(d - c, dst[r + 8 * x + l], tag + " d-c");
                assertEquals(c + d, dst[r + 8 * x + 4 + l], tag + " c+d");
                assertEquals(c, dst[r + 8 * g + 4 * x + l], tag + " c");
              }
            }
            if ((g & 1) == 1) {
              for (int l = 0; l < 4; l++) {
                assertEquals(0.0, dst[r + 12 * g + l], tag + " padding");
              }
            }
          }
        }
      }
    }
  }

  @Test
  void blockChoiceFollowsWidthJdkAndRegisters() {
    assertEquals(VmpBlock.B512_3X4, VmpBlock.choose(512, 25, 32, null).block());
    assertEquals(VmpBlock.B256_2X3, VmpBlock.choose(512, 17, 32, null).block());
    // with argument and return type profiles JDK 17 compiles the 512-bit block without boxing
    assertEquals(VmpBlock.B512_3X4, VmpBlock.choose(512, 17, true, 32, null).block());
    assertEquals(VmpBlock.B256_2X3, VmpBlock.choose(512, 17, false, 32, null).block());
    assertEquals(VmpBlock.B256_1X3, VmpBlock.choose(512, 17, true, 16, null).block());
    assertEquals(VmpBlock.B256_2X3, VmpBlock.choose(256, 25, 32, "").block());
    assertEquals(VmpBlock.B256_1X3, VmpBlock.choose(256, 25, 16, null).block());
    assertEquals(VmpBlock.B256_1X3, VmpBlock.choose(512, 25, 32, "256:1x3").block());
    assertTrue(VmpBlock.choose(512, 25, 32, "256:1x3").reason().contains("forced"));
    assertIae("not one of", () -> VmpBlock.choose(512, 25, 32, "512:2x6"));
    assertEquals(12, VmpBlock.B256_1X3.accumulators());
    assertEquals(18, VmpBlock.B512_3X4.accumulators());
    assertEquals(24, VmpBlock.B256_2X3.accumulators());
    assertEquals(VmpBlock.B128_1X3, VmpBlock.choose(128, 25, 32, null).block());
    assertEquals(VmpBlock.B128_1X1, VmpBlock.choose(128, 17, 16, null).block());
    assertEquals(24, VmpBlock.B128_1X3.accumulators());
    assertEquals(8, VmpBlock.B128_1X1.accumulators());
    assertEquals("panama128-1x3", KernelProvider.vmpKernel("panama128-1x3").name());
    for (VmpBlock b : VmpBlock.SUPPORTED) {
      assertEquals(b, KernelProvider.panama().vmpVariant(b).block());
    }
  }

  @Test
  void cpuInfoReadsSysfsAndFallsBack(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws java.io.IOException {
    String[][] idx = {{"1", "Data", "48K"}, {"1", "Instruction", "32K"}, {"2", "Unified", "2048K"},
        {"3", "Unified", "300M"}};
    for (int i = 0; i < idx.length; i++) {
      java.nio.file.Path d = java.nio.file.Files.createDirectories(dir.resolve("c/index" + i));
      java.nio.file.Files.writeString(d.resolve("level"), idx[i][0] + "\n");
      java.nio.file.Files.writeString(d.resolve("type"), idx[i][1] + "\n");
      java.nio.file.Files.writeString(d.resolve("size"), idx[i][2] + "\n");
    }
    java.nio.file.Path info = dir.resolve("cpuinfo");
    java.nio.file.Files.writeString(info, "model name\t: Test CPU\nflags\t\t: fpu avx2 fma\n");
    CpuInfo c = CpuInfo.read(dir.resolve("c"), info);
    assertEquals(48 * 1024, c.l1dBytes());
    assertEquals(2048 * 1024, c.l2Bytes());
    assertEquals("Test CPU", c.model());
    assertTrue(c.avx2() && !c.avx512f());
    CpuInfo f = CpuInfo.read(dir.resolve("missing"), dir.resolve("nope"));
    assertEquals(CpuInfo.FALLBACK_L1D, f.l1dBytes());
    assertEquals(CpuInfo.FALLBACK_L2, f.l2Bytes());
    assertTrue(f.describe().contains("FALLBACK"), f.describe());
    assertEquals(300 * 1024 * 1024, CpuInfo.parseSize("300M"));
    // No sysfs caches (some VMs): AMD's cpuinfo "cache size" is the per-core L2, Intel's the L3.
    java.nio.file.Path amd = dir.resolve("amd");
    java.nio.file.Files.writeString(amd, "vendor_id\t: AuthenticAMD\nmodel name\t: Zen\n"
        + "cache size\t: 1024 KB\nflags\t\t: fpu avx2 fma avx512f\n");
    CpuInfo a = CpuInfo.read(dir.resolve("missing"), amd);
    assertEquals(1024 * 1024, a.l2Bytes());
    assertEquals(CpuInfo.FALLBACK_L1D, a.l1dBytes());
    assertTrue(a.cacheSource().contains("'cache size'"), a.cacheSource());
    java.nio.file.Path intel = dir.resolve("intel");
    java.nio.file.Files.writeString(intel, "vendor_id\t: GenuineIntel\ncache size\t: 491520 KB\n");
    assertEquals(CpuInfo.FALLBACK_L2, CpuInfo.read(dir.resolve("missing"), intel).l2Bytes());
    assertEquals(2048 * 1024, CpuInfo.read(dir.resolve("c"), amd).l2Bytes()); // sysfs wins
    assertEquals(-1, CpuInfo.parseCpuinfoSize("lots"));
    Vmp.Tiling t = Vmp.tiling(VmpBlock.B512_3X4, c, 12, 1);
    assertEquals(640, t.tileRows()); // 768 KiB / 1152 B = 682, whole L1d panels of 64 rows
    assertEquals(640, t.panelRows()); // 512-bit blocks: one panel per tile
    assertEquals(8, t.groupColumns());
    // four-product blocks: 24 KiB / (64 B x 3 columns) = 128; a quarter of the L2 per tile
    assertEquals(128, Vmp.tiling(VmpBlock.B256_1X3, c, 12, 1).panelRows());
    assertEquals(640, Vmp.tiling(VmpBlock.B256_1X3, c, 12, 1).tileRows());
    assertEquals(128, Vmp.tiling(VmpBlock.B256_1X3, c, 12, 8).tileRows()); // at least a panel
    // Intel: 512-bit Gauss panels keep the L1d rule, and the pass does not read ahead
    java.nio.file.Path xeon = dir.resolve("xeon");
    java.nio.file.Files.writeString(xeon, "vendor_id\t: GenuineIntel\nmodel name\t: Xeon\n"
        + "flags\t\t: fpu avx2 fma avx512f\n");
    CpuInfo x = CpuInfo.read(dir.resolve("c"), xeon);
    assertTrue(x.intel() && !c.intel() && !a.intel(), x.vendor());
    assertEquals("AuthenticAMD", a.vendor());
    Vmp.Tiling xt = Vmp.tiling(VmpBlock.B512_3X4, x, 12, 1);
    assertEquals(640, xt.tileRows());
    assertEquals(64, xt.panelRows()); // 24 KiB / (8 B x gaussRow(4) = 384 B)
    assertTrue(xt.reason().contains("Intel"), xt.reason());
    // several queries: one query's panel and the group's row segments share half the L1d
    Vmp.Tiling xb = Vmp.tiling(VmpBlock.B512_3X4, x, 4, 4);
    int l1 = x.l1dBytes() / 2 / (384 + 64 * Vmp.GROUP_STREAMS) / 8 * 8;
    assertEquals(Math.max(8, l1), xb.panelRows(), xb.reason());
    assertTrue(xb.panelRows() < Vmp.tiling(VmpBlock.B512_3X4, x, 4, 1).panelRows(), xb.reason());
    assertEquals(0, xb.tileRows() % xb.panelRows(), xb.reason());
    assertTrue(xb.reason().contains("4 queries"), xb.reason());
    VmpBlock b512 = VmpBlock.B512_3X4;
    VmpBlock b256 = VmpBlock.B256_1X3;
    assertFalse(Vmp.readAhead(null, x, b512));
    assertFalse(Vmp.readAhead(null, x, b256));
    assertTrue(Vmp.readAhead(null, a, b512));
    assertTrue(Vmp.readAhead(null, c, b512));
    assertTrue(Vmp.readAhead("true", x, b512));
    assertFalse(Vmp.readAhead("false", a, b512));
    // AMD by family and block: family 25 with 512-bit blocks (Zen 4) does not read ahead; with
    // 256-bit blocks (Zen 3, or Zen 4 under -XX:UseAVX=2) it does, as Zen 5 (26) does
    for (String[] fam : new String[][] {{"25", "false"}, {"26", "true"}, {"23", "true"},
        {"0x19", "true"}}) {
      java.nio.file.Path z = dir.resolve("zen" + fam[0]);
      java.nio.file.Files.writeString(z, "vendor_id\t: AuthenticAMD\ncpu family\t: " + fam[0]
          + "\nmodel name\t: AMD EPYC\nflags\t\t: fpu avx2 fma avx512f\n");
      CpuInfo zen = CpuInfo.read(dir.resolve("c"), z);
      assertEquals(fam[0].startsWith("0x") ? -1 : Integer.parseInt(fam[0]), zen.family());
      assertEquals(Boolean.parseBoolean(fam[1]), Vmp.readAhead(null, zen, b512),
          "family " + fam[0]);
      assertTrue(Vmp.readAhead(null, zen, b256), "family " + fam[0] + ", 256-bit blocks");
      assertTrue(Vmp.readAhead("true", zen, b512));
      assertFalse(Vmp.readAhead("false", zen, b256));
    }
    assertEquals(-1, a.family());
  }

  @ParameterizedTest
  @MethodSource("kernels")
  void multiUsesMinOfVectorAndMatrixRowsLikeTheApply(String kernel) {
    Vmp o = ops(kernel);
    int n = 32;
    int nrows = 9;
    int ncols = 10; // 6 + 4 matrix columns
    for (int pvRows : new int[] {4, 9, 12}) {
      long seed = SEED + 1000 + pvRows;
      SplittableRandom rnd = new SplittableRandom(seed);
      Pmat pm = randomPmat(rnd, n, nrows, ncols);
      Pvec[] cols = new Pvec[5];
      for (int c = 0; c < cols.length; c++) {
        cols[c] = Pvec.allocate(n, pvRows);
        cols[c].prepareFromReim(randomDoubles(rnd, n * pvRows), 0);
      }
      double[][] got = new double[cols.length][n * ncols];
      o.applyPvecMulti(pm, cols, got, new double[Vmp.applyPvecBatchTmpLength(1, n, nrows,
          ncols, cols.length, 4)], 4);
      for (int c = 0; c < cols.length; c++) {
        double[] one = new double[n * ncols];
        o.applyPvecToDft(pm, cols[c], one, 0, ncols,
            new double[Vmp.applyPvecToDftTmpLength(n, pm.nrows(), ncols)]);
        if (o.gaussPass(ncols)) {
          assertClose(one, got[c], 1e-13, kernel + " pvRows=" + pvRows + " col " + c + " seed="
              + seed);
        } else {
          assertArrayEquals(one, got[c], kernel + " pvRows=" + pvRows + " col " + c + " seed="
              + seed);
        }
      }
    }
  }

  // ---------------------------------------------------------------- bad arguments

  /** Fails unless every element of got is within tol of want's. */
  static void assertClose(double[] want, double[] got, double tol, String msg) {
    assertEquals(want.length, got.length, msg + " length");
    for (int i = 0; i < want.length; i++) {
      if (!(Math.abs(want[i] - got[i]) <= tol)) {
        assertEquals(want[i], got[i], tol, msg + " at " + i);
      }
    }
  }

  static void assertIae(String needle, Executable e) {
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
    assertTrue(x.getMessage().contains(needle),
        "message '" + x.getMessage() + "' should mention '" + needle + "'");
  }

  @Test
  void badArgumentsAreRejectedWithANamedReason() {
    int n = 32;
    Pmat pm = Pmat.allocate(n, 3, 2);
    Pvec pv = Pvec.allocate(n, 3);
    double[] vec = new double[3 * n];
    double[] res = new double[2 * n];
    double[] tmp = new double[Vmp.applyDftToDftTmpLength(n, 3, 2)];
    assertIae("pmat is null", () -> Vmp.get().applyDftToDft(null, vec, 0, 3, res, 0, 2, tmp));
    assertIae("vec", () -> Vmp.get().applyDftToDft(pm, vec, 1, 3, res, 0, 2, tmp));
    assertIae("vec is null", () -> Vmp.get().applyDftToDft(pm, null, 0, 3, res, 0, 2, tmp));
    assertIae("res", () -> Vmp.get().applyDftToDft(pm, vec, 0, 3, res, 0, 3, tmp));
    assertIae("tmp", () -> Vmp.get().applyDftToDft(pm, vec, 0, 3, res, 0, 2, new double[8]));
    assertIae("vecRows", () -> Vmp.get().applyDftToDft(pm, vec, 0, -1, res, 0, 2, tmp));
    assertIae("resCols", () -> Vmp.get().applyDftToDftAdd(pm, vec, 0, 3, res, 0, -1, tmp));
    assertIae("N mismatch",
        () -> Vmp.get().applyPvecToDft(pm, Pvec.allocate(64, 3), res, 0, 2, tmp));
    assertIae("vec is null", () -> Vmp.get().applyPvecToDftAdd(pm, null, res, 0, 2, tmp));
    assertIae("ring degree", () -> Pmat.allocate(24, 3, 2));
    assertIae("nrows", () -> Pmat.allocate(32, 0, 2));
    assertIae("ncols", () -> Pmat.allocate(32, 2, 0));
    assertIae("does not fit", () -> Pmat.allocate(1 << 16, 4096, 12));
    assertIae("row", () -> pm.prepareRow(3, new double[2 * n], 0));
    assertIae("source", () -> pm.prepareFromZnx(new long[n], 0));
    assertIae("block", () -> Reim4.extractBlock(n, 4, 1, vec, 0, tmp, 0));
    double[][] mres = new double[2][2 * n];
    double[] mt = new double[Vmp.applyPvecMultiTmpLength(n, 3, 2, 2)];
    assertIae("cols[1] is null",
        () -> Vmp.get().applyPvecMulti(pm, new Pvec[] {pv, null}, mres, mt));
    assertIae("N mismatch",
        () -> Vmp.get().applyPvecMulti(pm, new Pvec[] {pv, Pvec.allocate(64, 3)}, mres, mt));
    assertIae("nrows mismatch",
        () -> Vmp.get().applyPvecMulti(pm, new Pvec[] {pv, Pvec.allocate(n, 4)}, mres, mt));
    assertIae("res[0][1]",
        () -> Vmp.get().applyPvecMulti(pm, new Pvec[] {pv, pv},
            new double[][] {res, new double[n]}, mt));
    assertIae("tmp", () -> Vmp.get().applyPvecMulti(pm, new Pvec[] {pv, pv}, mres, new double[3]));
    assertIae("queries[1]", () -> Vmp.get().applyPvecBatch(new Pmat[] {pm, Pmat.allocate(n, 3, 3)},
        new Pvec[] {pv}, new double[2][1][2 * n], new double[1000]));
    assertIae("queries", () -> Vmp.get().applyPvecBatch(new Pmat[0], new Pvec[] {pv},
        new double[0][][], new double[1000]));
  }
}
