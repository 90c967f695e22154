package org.jpir.core.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Locale;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.NoiseSamples;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.Wire;
import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Pvec;
import org.jpir.vmp.Vmp;
import org.junit.jupiter.api.Test;

/**
 * Noise and precision at the edge: the largest geometry the chooser returns (1024 rows at the
 * production preset) with every database digit at its extreme value. Footprint about 2.2 GiB
 * (the 1.5 GiB phase-1 PMAT of 4096 x 12 polynomials, two 128 MiB columns and the reference's
 * split columns), inside the 3 GiB test heap.
 */
class EdgeGeometryTest {
  static final SecureRandom RANDOM = new SecureRandom();

  static double lg(double v) {
    return Math.log(v) / Math.log(2);
  }

  @Test
  void chooserNeverReturnsAGeometryBeyondThePhase1PrecisionBound() {
    for (Params p : Presets.all()) {
      int max = Geometry.maxRows(p);
      assertTrue(Geometry.phase1WidthBits(p, max) <= Geometry.PHASE1_MAX_WIDTH_BITS, p.id());
      assertTrue(Geometry.phase1WidthBits(p, max + 1) > Geometry.PHASE1_MAX_WIDTH_BITS, p.id());
      for (int size : new int[] {1, 100, p.bytesPerPolynomial(), 3 * p.bytesPerPolynomial()}) {
        for (long count = 1; count > 0 && count <= (1L << 44) / size; count = count * 3 + 1) {
          for (int cap : new int[] {1, 64, 1024, Integer.MAX_VALUE}) {
            Geometry g;
            try {
              g = Geometry.choose(p, count, size, cap);
            } catch (IllegalArgumentException e) {
              assertTrue(e.getMessage().contains("too many columns"), e.getMessage());
              continue;
            }
            assertTrue(g.rows() <= Math.min(cap, max), p.id() + " " + g);
            assertTrue(Geometry.phase1WidthBits(p, g.rows()) <= Geometry.PHASE1_MAX_WIDTH_BITS,
                p.id() + " " + g);
            g.checkPrecision(p);
          }
        }
      }
    }
    Params p = Presets.ONIONPIR_4096;
    assertEquals(1024, Geometry.maxRows(p));
    assertEquals(54, Geometry.phase1WidthBits(p, 1024));
    assertEquals(1024, Geometry.choose(p, 1L << 32, 4096, Integer.MAX_VALUE).rows());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Geometry.of(p, 1L << 24, p.bytesPerPolynomial(), 1025));
    assertTrue(e.getMessage().contains("phase-1 accumulation would be 55 bits wide"),
        e.getMessage());
    assertEquals(1365, Geometry.maxRows(Presets.ONIONPIR_4096_COMPACT));
  }

  /** The exact phase-1 output of one column: DB digits split as hi 2^8 + lo, each exact. */
  static long[] exactPhase1(Pmat pm, long[] digits, int n, int nrows, int ncols) {
    long[] hi = new long[digits.length];
    long[] lo = new long[digits.length];
    for (int i = 0; i < digits.length; i++) {
      lo[i] = ((digits[i] + 128) & 255) - 128;
      hi[i] = (digits[i] - lo[i]) >> 8;
    }
    long[] out = new long[ncols * n];
    double[] tmp = new double[Vmp.applyPvecToDftTmpLength(n, nrows, ncols)];
    double[] res = new double[ncols * n];
    for (int part = 0; part < 2; part++) {
      Pvec v = Pvec.allocate(n, nrows);
      v.prepareFromZnx(part == 0 ? hi : lo, 0);
      Vmp.get().applyPvecToDft(pm, v, res, 0, ncols, tmp);
      for (int c = 0; c < ncols; c++) {
        FftPlan.of(n).ifft(res, c * n);
      }
      for (int j = 0; j < out.length; j++) {
        double x = res[j] * 2.0 / n;
        long r = Math.round(x);
        // 8 + 15 + log2 N + log2 nrows = 47 bits here: exact with margin (FftPlan's bound)
        assertTrue(Math.abs(x - r) < 0.01, "split product not exact: " + x);
        out[j] += part == 0 ? r << 8 : r;
      }
    }
    return out;
  }

  @Test
  void decodesExactlyAtTheLargestGeometryWithWorstCaseDigitsAndNoiseWithinTheEstimate() {
    Params p = Presets.ONIONPIR_4096;
    int n = p.n();
    int rows = Geometry.maxRows(p);
    // two full columns (one CMux level): column 0 every digit -2^15, column 1 random extremes
    ExtremeRecords src = new ExtremeRecords(p, 2L * rows, 77, rows);
    Geometry g = Geometry.of(p, src.recordCount(), src.recordSize(), rows);
    assertEquals(1024, g.rows());
    assertEquals(2, g.cols());
    SecretKey sk = SecretKey.generate(p, RANDOM);
    PirClient client = new PirClient(p, g, sk, RANDOM);
    PreparedDatabase db = PreparedDatabase.prepare(p, g, src);
    PirServer server = new PirServer(p);
    ColumnEncoder enc = new ColumnEncoder(p, g, src);
    double estimate = Noise.answer(p, g.rows(), g.cols());
    long index = rows + 123;
    // about 200 MB on the wire: the client's copy is dropped before it is parsed back
    byte[] queryBytes = Wire.writeQuery(client.query(index));
    ClientQuery received = Wire.readQuery(queryBytes, p, g);
    queryBytes = null;
    PreparedQuery pq = new QueryExpander(p).expand(received, g);
    received = null;
    Answer a = Wire.readAnswer(Wire.writeAnswer(server.answer(db, pq, null)), p, g);
    assertArrayEquals(src.record(index), client.decode(a, index), "record " + index);
    long[] msg = new long[p.plaintextLimbs() * n];
    System.arraycopy(enc.digits(0, g.columnOf(index)), g.rowOf(index) * p.plaintextLimbs() * n,
        msg, 0, p.plaintextLimbs() * n);
    double[] e = client.noise(a, 0, msg);
    double var = NoiseSamples.variance(e);
    double max = 0;
    for (double v : e) {
      max = Math.max(max, Math.abs(v));
    }
    System.out.printf(Locale.ROOT, "edge %dx%d record %d: noise std 2^%.2f (estimate 2^%.2f),"
        + " max 2^%.2f, decoding margin 2^%.0f%n", g.rows(), g.cols(), index, lg(var) / 2,
        lg(estimate) / 2, lg(max), lg(Noise.margin(p)));
    assertTrue(var <= estimate * NoiseSamples.tolerance(n), "noise variance " + var
        + " above the estimate " + estimate);
    assertTrue(var >= 0.5 * estimate, "worst-case digits make the estimate tight: " + var
        + " vs " + estimate);
    assertTrue(max <= 6 * Math.sqrt(estimate) && max < Noise.margin(p), "max " + max);
    for (int col = 0; col < 2; col++) {
      checkPhase1IsExact(p, pq.phase1(), db.plane(0)[col], enc.digits(0, col), rows, col);
    }
  }

  /**
   * Phase 1 of one column against exact integer arithmetic, both as the per-column apply (four
   * products per complex product) and as the server's database pass (three products, {@link
   * Vmp#applyPvecMulti}).
   */
  static void checkPhase1IsExact(Params p, Pmat pm, Pvec column, long[] digits, int rows,
      int col) {
    int n = p.n();
    int nrows = rows * p.plaintextLimbs();
    int ncols = p.glweColumns();
    long[] exact = exactPhase1(pm, digits, n, nrows, ncols);
    double[] apply = new double[ncols * n];
    Vmp.get().applyPvecToDft(pm, column, apply, 0, ncols,
        new double[Vmp.applyPvecToDftTmpLength(n, nrows, ncols)]);
    checkExact(p, apply, exact, rows, col, "apply");
    double[][] pass = new double[1][ncols * n];
    Vmp.get().applyPvecMulti(pm, new Pvec[] {column}, pass,
        new double[Vmp.applyPvecMultiTmpLength(n, nrows, ncols, 1)]);
    checkExact(p, pass[0], exact, rows, col, "pass");
  }

  private static void checkExact(Params p, double[] res, long[] exact, int rows, int col,
      String form) {
    int n = p.n();
    double worst = 0;
    long wrong = 0;
    for (int c = 0; c < p.glweColumns(); c++) {
      FftPlan.of(n).ifft(res, c * n);
    }
    for (int j = 0; j < exact.length; j++) {
      double x = res[j] * 2.0 / n;
      worst = Math.max(worst, Math.abs(x - exact[j]));
      wrong += Math.round(x) != exact[j] ? 1 : 0;
    }
    System.out.printf(Locale.ROOT, "edge phase 1 (%s), column %d (width %d bits): largest FFT"
        + " error 2^%.2f of the 2^-1 that rounding tolerates, %d wrong coefficients%n", form, col,
        Geometry.phase1WidthBits(p, rows), lg(worst), wrong);
    assertEquals(0, wrong, "phase 1 (" + form + ") at the edge is exact");
    assertTrue(worst < 0.125, "phase 1 (" + form + "): at least 2 bits of margin: " + worst);
  }
}
