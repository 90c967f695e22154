package org.jpir.core.params;

/**
 * How records sit in the database grid of plaintext polynomials: {@code planes} grids of
 * {@code rows x cols} polynomials. Small records are packed {@code recordsPerPoly} to a
 * polynomial; a record larger than a polynomial spans {@code planes} polynomials, one per plane,
 * all answered by one query. Polynomial p of a plane sits at row {@code p % rows}, column {@code
 * p / rows} (column-major: a column holds consecutive records). Record i is in polynomial {@code
 * i / recordsPerPoly} at byte {@code (i % recordsPerPoly) * recordSize}.
 *
 * @param polyBytes bytes per polynomial ({@link
 *     org.jpir.core.lwe.PlaintextCodec#polynomialBytes()})
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

  /**
   * Largest phase-1 accumulation width, in bits, that a geometry may have ({@link
   * #phase1WidthBits}). The FFT result is exact while its rounding error stays below 1/2; with
   * database digits at their extreme {@code -2^(K-1)} and query digits uniform (every ciphertext
   * digit is), the largest error measured at width 54 (N = 4096, 1024 rows of 4 limbs) is
   * 2^-5.5, i.e. 4.5 bits of margin (test {@code EdgeGeometryTest}). This is one bit above the
   * 53-bit mantissa bound for adversarial query digits too: a client that crafts its digits only
   * spoils its own answer.
   */
  public static final int PHASE1_MAX_WIDTH_BITS = 54;

  /**
   * The phase-1 accumulation width of {@code rows} rows at preset {@code p}: {@code log2} of
   * (largest database digit x largest query digit x N x rows x plaintextLimbs), i.e. {@code 2(K-1)
   * + log2 N + ceil(log2(rows * plaintextLimbs))}: the bit size of the worst-case exact sum one
   * FFT slot accumulates before the inverse transform.
   */
  public static int phase1WidthBits(Params p, int rows) {
    long nrows = (long) rows * p.plaintextLimbs();
    int logRows = nrows <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(nrows - 1);
    return 2 * (p.base2k() - 1) + Integer.numberOfTrailingZeros(p.n()) + logRows;
  }

  /**
   * The most rows any geometry of preset {@code p} may have: the largest with {@link
   * #phase1WidthBits} at most {@link #PHASE1_MAX_WIDTH_BITS} (1024 at the production presets'
   * N = 4096 with 4 limbs).
   */
  public static int maxRows(Params p) {
    int spare = PHASE1_MAX_WIDTH_BITS - 2 * (p.base2k() - 1)
        - Integer.numberOfTrailingZeros(p.n());
    if (spare < 0) {
      return 0;
    }
    long r = (1L << Math.min(spare, 40)) / p.plaintextLimbs();
    return (int) Math.min(r, 1 << 20);
  }

  /**
   * Throws when this geometry's phase-1 accumulation at preset {@code p} exceeds {@link
   * #PHASE1_MAX_WIDTH_BITS} (or its polynomials are not the preset's).
   */
  public void checkPrecision(Params p) {
    if (polyBytes != p.bytesPerPolynomial()) {
      throw new IllegalArgumentException("geometry has " + polyBytes + " bytes per polynomial, "
          + "preset " + p.id() + " has " + p.bytesPerPolynomial());
    }
    if (rows > maxRows(p)) {
      throw new IllegalArgumentException(rows + " rows exceed the " + maxRows(p) + " that preset "
          + p.id() + " allows: the phase-1 accumulation would be " + phase1WidthBits(p, rows)
          + " bits wide, more than the FFT's " + PHASE1_MAX_WIDTH_BITS);
    }
  }

  /**
   * The geometry with a given number of rows (columns follow).
   *
   * @throws IllegalArgumentException when the rows exceed {@link #maxRows}
   */
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
    Geometry g = new Geometry(recordCount, recordSize, polyBytes, rpp, planes, r, (int) cols);
    g.checkPrecision(p);
    return g;
  }

  /**
   * The default geometry: rows about {@code sqrt(polys / 2)} (so query preparation, which grows
   * with rows, and phase 2, which grows with columns, both stay small next to phase 1), capped by
   * {@code maxRows} (the prepared query costs {@code 8 N * rows * plaintextLimbs * 2 glweLimbs}
   * bytes: 1.5 MiB per row at the production preset) and by {@link #maxRows(Params)} (the
   * phase-1 precision bound), which every geometry returned meets.
   */
  public static Geometry choose(Params p, long recordCount, int recordSize, int maxRows) {
    if (maxRows < 1) {
      throw new IllegalArgumentException("maxRows " + maxRows + " must be at least 1");
    }
    maxRows = Math.min(maxRows, maxRows(p));
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

  /**
   * Height of the column tree over {@code cols} columns, {@code ceil(log2 cols)}: the CMux levels
   * of phase 2 and the GGSWs a query carries.
   */
  public static int levels(int cols) {
    return cols <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(cols - 1);
  }

  /** {@link #levels(int)} of this geometry's columns. */
  public int levels() {
    return levels(cols());
  }
}
