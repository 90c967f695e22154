package org.jpir.core.server;

import java.util.Arrays;
import org.jpir.core.lwe.PlaintextCodec;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.vmp.Pvec;

/**
 * Builds the plaintext of one database column and prepares it: the column's {@code rows}
 * polynomials of one plane, each as plaintextLimbs digit polynomials, stacked as the PVEC rows
 * {@code r*plaintextLimbs + l} (the phase-1 vector). Not thread-safe (holds scratch).
 */
public final class ColumnEncoder {
  private final Params p;
  private final Geometry g;
  private final RecordSource source;
  private final PlaintextCodec codec;
  private final byte[] polyBuf;
  private final byte[] pairBuf;
  private final byte[] recordBuf;
  private final long[] digits;

  /** An encoder of {@code source} laid out as {@code g}. */
  public ColumnEncoder(Params p, Geometry g, RecordSource source) {
    if (source.recordCount() != g.recordCount() || source.recordSize() != g.recordSize()) {
      throw new IllegalArgumentException("record source has " + source.recordCount()
          + " records of " + source.recordSize() + " bytes; geometry expects " + g.recordCount()
          + " of " + g.recordSize());
    }
    this.p = p;
    this.g = g;
    this.source = source;
    this.codec = new PlaintextCodec(p);
    this.polyBuf = new byte[codec.polynomialBytes()];
    this.pairBuf = new byte[codec.polynomialBytes()];
    this.recordBuf = new byte[g.recordSize()];
    this.digits = new long[g.rows() * p.plaintextLimbs() * p.n()];
  }

  /**
   * Fills {@code dst} with the bytes of polynomial {@code poly} of {@code plane}: bytes {@code
   * [plane * polyBytes, (plane + 1) * polyBytes)} of slot {@code poly} ({@link Geometry}), zero
   * past the last record.
   */
  public void polynomialBytes(int plane, long poly, byte[] dst) {
    Arrays.fill(dst, (byte) 0);
    int pb = codec.polynomialBytes();
    int rs = g.recordSize();
    long start = (long) plane * pb;
    long first = poly * g.recordsPerPoly();
    for (int s = 0; s < g.recordsPerPoly(); s++) {
      long rec = first + s;
      long from = (long) s * rs;
      if (rec >= g.recordCount() || from >= start + pb) {
        break;
      }
      if (from + rs <= start) {
        continue;
      }
      if (from >= start && from + rs <= start + pb) {
        source.read(rec, dst, (int) (from - start));
      } else {
        source.read(rec, recordBuf, 0);
        long lo = Math.max(from, start);
        long hi = Math.min(from + rs, start + pb);
        System.arraycopy(recordBuf, (int) (lo - from), dst, (int) (lo - start), (int) (hi - lo));
      }
    }
  }

  /**
   * The plaintext digits of column {@code col} of {@code plane} (layout above; rows rows): for a
   * paired tail plane col is a pair j ({@link Geometry#planeColumns}), row r holding the tails of
   * slots (r, 2j) and (r, 2j + 1).
   */
  public long[] digits(int plane, int col) {
    int n = p.n();
    int lim = p.plaintextLimbs();
    for (int r = 0; r < g.rows(); r++) {
      if (g.isPairedPlane(plane)) {
        pairedTailBytes(plane, col, r);
      } else {
        polynomialBytes(plane, (long) col * g.rows() + r, polyBuf);
      }
      codec.encode(polyBuf, 0, polyBuf.length, digits, r * lim * n);
    }
    return digits;
  }

  /**
   * polyBuf = the tail of slot (r, 2j) at byte 0 and that of slot (r, 2j + 1), when that column
   * exists, at polyBytes / 2.
   */
  private void pairedTailBytes(int plane, int j, int r) {
    long even = 2L * j * g.rows() + r;
    polynomialBytes(plane, even, polyBuf);
    if (2L * j + 1 < g.cols()) {
      polynomialBytes(plane, even + g.rows(), pairBuf);
      System.arraycopy(pairBuf, 0, polyBuf, polyBuf.length / 2, g.tailBytes());
    }
  }

  /** The prepared (PVEC) form of column {@code col} of {@code plane}. */
  public Pvec prepare(int plane, int col) {
    Pvec v = Pvec.allocate(p.n(), g.rows() * p.plaintextLimbs());
    v.prepareFromZnx(digits(plane, col), 0);
    return v;
  }
}
