package org.jpir.core;

/**
 * How records sit in the database grid of plaintext polynomials: {@code planes} grids of
 * {@code rows x cols} polynomials. Small records are packed {@code recordsPerPoly} to a
 * polynomial; a record larger than a polynomial spans {@code planes} polynomials, one per plane,
 * all answered by one query. Polynomial p of a plane sits at row {@code p % rows}, column {@code
 * p / rows} (column-major: a column holds consecutive records). Record i is in polynomial {@code
 * i / recordsPerPoly} at byte {@code (i % recordsPerPoly) * recordSize}.
 *
 * @param polyBytes bytes per polynomial ({@link PlaintextCodec#polynomialBytes()})
 */
public record Geometry(long recordCount, int recordSize, int polyBytes, int recordsPerPoly,
    int planes, int rows, int cols) implements java.io.Serializable {

  /** Validates; the message names the inconsistent field. */
  public Geometry {
    if (recordCount < 1) {
      throw new IllegalArgumentException("record count " + recordCount + " must be at least 1");
    }
    if (recordSize < 1) {
      throw new IllegalArgumentException("record size " + recordSize + " must be at least 1");
    }
    int expectRpp = recordSize <= polyBytes ? polyBytes / recordSize : 1;
    int expectPlanes = recordSize <= polyBytes ? 1 : (recordSize + polyBytes - 1) / polyBytes;
    if (recordsPerPoly != expectRpp || planes != expectPlanes) {
      throw new IllegalArgumentException("records per polynomial " + recordsPerPoly
          + " and planes " + planes + " do not match record size " + recordSize + " (expected "
          + expectRpp + " and " + expectPlanes + ")");
    }
    if (rows < 1 || cols < 1) {
      throw new IllegalArgumentException("rows " + rows + " and cols " + cols
          + " must be at least 1");
    }
    long polys = (recordCount + recordsPerPoly - 1) / recordsPerPoly;
    if ((long) rows * cols < polys) {
      throw new IllegalArgumentException(rows + " rows x " + cols + " columns hold fewer than the "
          + polys + " polynomials of " + recordCount + " records");
    }
    if ((long) (cols - 1) * rows >= polys) {
      throw new IllegalArgumentException(cols + " columns of " + rows
          + " rows leave a whole column empty for " + polys + " polynomials");
    }
  }

  /** The geometry with a given number of rows (columns follow). */
  public static Geometry of(Params p, long recordCount, int recordSize, int rows) {
    int polyBytes = p.bytesPerPolynomial();
    int rpp = recordSize <= polyBytes ? polyBytes / Math.max(1, recordSize) : 1;
    int planes = recordSize <= polyBytes ? 1 : (recordSize + polyBytes - 1) / polyBytes;
    long polys = (recordCount + rpp - 1) / Math.max(1, rpp);
    int r = (int) Math.min(rows, Math.max(1, polys));
    long cols = (polys + r - 1) / r;
    if (cols > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many columns: " + cols);
    }
    return new Geometry(recordCount, recordSize, polyBytes, rpp, planes, r, (int) cols);
  }

  /**
   * The default geometry: rows about {@code sqrt(polys / 2)} (so query preparation, which grows
   * with rows, and phase 2, which grows with columns, both stay small next to phase 1), capped by
   * {@code maxRows} (the prepared query costs {@code 8 N * rows * plaintextLimbs * 2 glweLimbs}
   * bytes: 1.5 MiB per row at the production preset).
   */
  public static Geometry choose(Params p, long recordCount, int recordSize, int maxRows) {
    if (maxRows < 1) {
      throw new IllegalArgumentException("maxRows " + maxRows + " must be at least 1");
    }
    int polyBytes = p.bytesPerPolynomial();
    int rpp = recordSize <= polyBytes ? polyBytes / Math.max(1, recordSize) : 1;
    long polys = (recordCount + rpp - 1) / Math.max(1, rpp);
    int rows = (int) Math.max(1, Math.min(maxRows, Math.round(Math.sqrt(polys / 2.0))));
    return of(p, recordCount, recordSize, rows);
  }

  /** Polynomials per plane that hold records. */
  public long polynomials() {
    return (recordCount + recordsPerPoly - 1) / recordsPerPoly;
  }

  /** Polynomial index of record i. */
  public long polynomialOf(long record) {
    checkRecord(record);
    return record / recordsPerPoly;
  }

  /** Row of record i. */
  public int rowOf(long record) {
    return (int) (polynomialOf(record) % rows);
  }

  /** Column of record i. */
  public int columnOf(long record) {
    return (int) (polynomialOf(record) / rows);
  }

  /** Byte offset of record i inside its polynomial (0 when records span planes). */
  public int offsetInPolynomial(long record) {
    checkRecord(record);
    return (int) (record % recordsPerPoly) * (planes == 1 ? recordSize : 0);
  }

  /** Throws a message naming the range when {@code record} is not in the database. */
  public void checkRecord(long record) {
    if (record < 0 || record >= recordCount) {
      throw new IllegalArgumentException("record index " + record + " is out of range [0, "
          + recordCount + ")");
    }
  }

  /** Raw database bytes: {@code recordCount * recordSize}. */
  public long rawBytes() {
    return recordCount * recordSize;
  }
}
