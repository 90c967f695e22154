package org.jpir.core.params;

import java.io.Serializable;

/**
 * How records sit in the database grid of plaintext polynomials: {@code planes} grids of
 * {@code rows x cols} polynomials. Slot s is polynomial s of every plane, read as one string of
 * {@code planes * polyBytes} bytes (plane pl holds its bytes {@code [pl * polyBytes, (pl + 1) *
 * polyBytes)}), and holds the {@code recordsPerPoly = floor(planes * polyBytes / recordSize)}
 * records {@code s * recordsPerPoly ..}, record i at byte {@code (i % recordsPerPoly) *
 * recordSize} of slot {@code i / recordsPerPoly}; one query answers a whole slot. Small records
 * are packed to one plane; a record larger than a polynomial spans planes, and two such records
 * may share a slot of one plane more when that wastes less ({@link #slotPlanes}). Slot p of a plane
 * sits at row {@code p % rows}, column {@code p / rows} (column-major: a column holds
 * consecutive records).
 *
 * <p>With {@code pairedTail} (one record per slot, its last plane at most half used) the last
 * plane pairs columns: it has {@code ceil(cols / 2)} columns ({@link #planeColumns}), and its
 * polynomial at row r of pair j holds the tail of slot {@code (r, 2j)} in bytes {@code [0,
 * tailBytes)} and that of slot {@code (r, 2j + 1)} (when {@code 2j + 1 < cols}) in bytes {@code
 * [polyBytes / 2, polyBytes / 2 + tailBytes)}. Phase 1 selects its row as in the other planes;
 * the CMux tree folds the pairs from level 1 (column bit 0 left out), and its root R becomes
 * {@code CMux(bit 0, R, R X^(-N/2))}, which brings the wanted tail to the low coefficients: one
 * CMux instead of a level of {@code cols / 2}.
 *
 * @param polyBytes bytes per polynomial ({@link
 *     org.jpir.core.lwe.PlaintextCodec#polynomialBytes()})
 * @param pairedTail whether the last plane pairs the tails of columns 2j and 2j + 1
 */
public record Geometry(long recordCount, int recordSize, int polyBytes, int recordsPerPoly,
    int planes, int rows, int cols, boolean pairedTail) implements Serializable {

  /** A geometry without paired tails. */
  public Geometry(long recordCount, int recordSize, int polyBytes, int recordsPerPoly,
      int planes, int rows, int cols) {
    this(recordCount, recordSize, polyBytes, recordsPerPoly, planes, rows, cols, false);
  }

  /** Validates; the message names the inconsistent field. */
  public Geometry {
    if (pairedTail && !canPairTail(recordSize, polyBytes, recordsPerPoly, planes)) {
      throw new IllegalArgumentException("paired tails need one record per slot of two or more"
          + " planes whose last plane is at most half used; records of " + recordSize
          + " bytes in " + planes + " planes of " + polyBytes + " bytes are not");
    }
    if (recordCount < 1) {
      throw new IllegalArgumentException("record count " + recordCount + " must be at least 1");
    }
    if (recordSize < 1) {
      throw new IllegalArgumentException("record size " + recordSize + " must be at least 1");
    }
    if (planes < 1 || planes > MAX_PLANES) {
      throw new IllegalArgumentException("planes " + planes + " must be in [1, " + MAX_PLANES
          + "]");
    }
    long fit = (long) planes * polyBytes / recordSize;
    if (fit < 1 || recordsPerPoly != fit
        || (long) (planes - 1) * polyBytes >= (long) recordsPerPoly * recordSize) {
      throw new IllegalArgumentException("records per polynomial " + recordsPerPoly
          + " and planes " + planes + " do not match record size " + recordSize + " (a slot of "
          + planes + " polynomials of " + polyBytes + " bytes holds " + fit + " records, and no"
          + " plane of a slot may be all padding)");
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

  /** Most planes a slot may span (a record of up to {@code MAX_PLANES} polynomials). */
  public static final int MAX_PLANES = 1 << 12;

  /**
   * Planes of the slot for records of {@code recordSize} bytes in polynomials of {@code polyBytes}:
   * one for a record that fits a polynomial; else {@code P = ceil(recordSize / polyBytes)}, or
   * {@code P + 1} when that slot holds enough records to need fewer polynomials per record
   * ({@code (P + 1) / floor((P + 1) polyBytes / recordSize) < P}; e.g. two 3 KiB records in
   * three 2 KiB planes instead of one in two, a quarter less database to stream). The answer
   * grows by one plane; {@link #slotPlanes(int, int, boolean)} without sharing keeps P.
   */
  public static int slotPlanes(int recordSize, int polyBytes) {
    return slotPlanes(recordSize, polyBytes, true);
  }

  /**
   * Whether the default geometries ({@link #of(Params, long, int, int)}, {@link #choose}) let
   * records spanning planes share slots: no, because the extra plane costs more answer bytes
   * (N = 2048, 3 KiB records: shared-mask answer 14,388 B against 9,396) than the quarter of the
   * database it saves costs server time; {@link #of(Params, long, int, int, boolean)} opts in.
   */
  public static final boolean SHARE_SLOTS_BY_DEFAULT = false;

  /**
   * Whether the compact geometry chooser pairs the tails of a half-used last plane ({@link
   * #withPairedTail}): yes; the answer and the client are unchanged, and the server streams the
   * last plane's polynomials once per two columns and folds half as many of them.
   */
  public static final boolean PAIR_TAILS_BY_DEFAULT = true;

  /** {@link #slotPlanes(int, int)}, or always {@code ceil(recordSize / polyBytes)} when not {@code share}. */
  public static int slotPlanes(int recordSize, int polyBytes, boolean share) {
    if (recordSize < 1 || polyBytes < 1) {
      throw new IllegalArgumentException("record size " + recordSize + " and polynomial bytes "
          + polyBytes + " must be at least 1");
    }
    if (recordSize <= polyBytes) {
      return 1;
    }
    long p1 = ((long) recordSize + polyBytes - 1) / polyBytes;
    if (p1 > MAX_PLANES) {
      throw new IllegalArgumentException("record size " + recordSize + " spans " + p1
          + " polynomials of " + polyBytes + " bytes, more than " + MAX_PLANES);
    }
    long p2 = p1 + 1;
    long fit2 = p2 * polyBytes / recordSize;
    if (share && p2 <= MAX_PLANES && fit2 >= 2 && p2 < p1 * fit2) {
      return (int) p2;
    }
    return (int) p1;
  }

  /** Records a slot of {@code planes} polynomials holds: {@code floor(planes polyBytes / recordSize)}. */
  public static int slotRecords(int recordSize, int polyBytes, int planes) {
    return (int) ((long) planes * polyBytes / Math.max(1, recordSize));
  }

  /**
   * Largest phase-1 accumulation width, in bits, that a geometry may have ({@link
   * #phase1WidthBits}). The FFT result is exact while its rounding error stays below 1/2; with
   * database digits at their extreme {@code -2^(K-1)} and query digits uniform (every ciphertext
   * digit is), the largest error measured at width 54 (N = 4096, 1024 rows of 4 limbs) is
   * 2^-5.3 for the four-product apply and 2^-4.8 for the server's three-product database pass,
   * i.e. 3.8 bits of margin (test {@code EdgeGeometryTest}, which requires 2). This is one bit
   * above the 53-bit mantissa bound for adversarial query digits too: a client that crafts its
   * digits only spoils its own answer.
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
    return of(p, recordCount, recordSize, rows, SHARE_SLOTS_BY_DEFAULT);
  }

  /**
   * {@link #of(Params, long, int, int)}, with slots shared by records spanning planes only when
   * {@code share} ({@link #slotPlanes(int, int, boolean)}).
   */
  public static Geometry of(Params p, long recordCount, int recordSize, int rows, boolean share) {
    int polyBytes = p.bytesPerPolynomial();
    int planes = slotPlanes(Math.max(1, recordSize), polyBytes, share);
    int rpp = slotRecords(recordSize, polyBytes, planes);
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
    int rpp = slotRecords(recordSize, polyBytes,
        slotPlanes(Math.max(1, recordSize), polyBytes, SHARE_SLOTS_BY_DEFAULT));
    long polys = (recordCount + rpp - 1) / Math.max(1, rpp);
    int rows = (int) Math.max(1, Math.min(maxRows, Math.round(Math.sqrt(polys / 2.0))));
    return of(p, recordCount, recordSize, rows);
  }

  /** Bytes of a slot: {@code planes * polyBytes}. */
  public long slotBytes() {
    return (long) planes * polyBytes;
  }

  /** Bytes of a slot that hold records: {@code recordsPerPoly * recordSize}. */
  public long usedSlotBytes() {
    return (long) recordsPerPoly * recordSize;
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

  /** Where a record lies: the row and column of its slot. */
  public record Cell(int row, int column) {}

  /** The cell of record i ({@link #rowOf}, {@link #columnOf}); throws when i is out of range. */
  public Cell cellOf(long record) {
    long poly = polynomialOf(record);
    return new Cell((int) (poly % rows), (int) (poly / rows));
  }

  /** Byte offset of record i inside its slot: {@code (i % recordsPerPoly) * recordSize}. */
  public int offsetInSlot(long record) {
    checkRecord(record);
    return (int) (record % recordsPerPoly) * recordSize;
  }

  /** Throws a message naming the range when {@code record} is not in the database. */
  public void checkRecord(long record) {
    if (record < 0 || record >= recordCount) {
      throw new IllegalArgumentException("record index " + record + " is out of range [0, "
          + recordCount + ")");
    }
  }

  /** Whether slots of this shape may pair their last planes' tails (see the class comment). */
  public static boolean canPairTail(int recordSize, int polyBytes, int recordsPerPoly,
      int planes) {
    return recordsPerPoly == 1 && planes >= 2 && polyBytes % 2 == 0
        && recordSize - (long) (planes - 1) * polyBytes <= polyBytes / 2;
  }

  /** {@link #canPairTail(int, int, int, int)} of this geometry's shape. */
  public boolean canPairTail() {
    return canPairTail(recordSize, polyBytes, recordsPerPoly, planes);
  }

  /** This geometry with the last planes' tails paired; throws when its shape does not allow it. */
  public Geometry withPairedTail() {
    return new Geometry(recordCount, recordSize, polyBytes, recordsPerPoly, planes, rows, cols,
        true);
  }

  /** This geometry with every plane full-height. */
  public Geometry withoutPairedTail() {
    return new Geometry(recordCount, recordSize, polyBytes, recordsPerPoly, planes, rows, cols);
  }

  /** Bytes of a record in the last plane of its slot: {@code recordSize - (planes - 1) polyBytes}. */
  public int tailBytes() {
    return (int) (recordSize - (long) (planes - 1) * polyBytes);
  }

  /** Columns of plane {@code plane}: {@code ceil(cols / 2)} pairs for a paired last plane, else cols. */
  public int planeColumns(int plane) {
    return isPairedPlane(plane) ? (cols + 1) / 2 : cols;
  }

  /**
   * The columns of plane {@code plane} that hold grid columns {@code [first, first + count)}:
   * {@code {from, to}}, the pairs {@code [first / 2, (first + count - 1) / 2 + 1)} for a paired
   * last plane, else the same range.
   */
  public int[] planeColumnRange(int plane, int first, int count) {
    if (first < 0 || count < 1 || (long) first + count > cols) {
      throw new IllegalArgumentException("column range [" + first + ", " + ((long) first + count)
          + ") is not inside [0, " + cols + ")");
    }
    return isPairedPlane(plane) ? new int[] {first / 2, (first + count - 1) / 2 + 1}
        : new int[] {first, first + count};
  }

  /** Polynomials of grid columns {@code [first, first + count)} over every plane. */
  public long polynomials(int first, int count) {
    long s = 0;
    for (int pl = 0; pl < planes; pl++) {
      int[] r = planeColumnRange(pl, first, count);
      s += (long) rows * (r[1] - r[0]);
    }
    return s;
  }

  /** Whether plane {@code plane} is a paired tail plane. */
  public boolean isPairedPlane(int plane) {
    return pairedTail && plane == planes - 1;
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
