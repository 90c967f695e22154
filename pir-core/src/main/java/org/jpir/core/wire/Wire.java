package org.jpir.core.wire;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import org.jpir.core.lwe.BPacking;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.AnswerSwitch;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Security;

/**
 * The versioned binary wire format of keys, queries and answers. Every message is: magic
 * {@code "JPIR"}, format version (u16), message type (u8), preset id (u16 length + UTF-8), the
 * type's fields (big-endian; arrays as u32 length + elements), then a CRC-32 of everything
 * before it. Readers reject wrong magic, versions, types, presets, lengths, truncation and
 * checksum mismatches with a {@link WireException} naming what is wrong: every declared size is
 * checked against the preset (and the database geometry, when given) and against the bytes
 * actually present before anything is allocated, so a decoder allocates at most a few times the
 * message's own size. {@code max*Bytes} give the largest valid message for a preset and
 * geometry, so a reader can refuse a larger file unread ({@link #readFile}).
 *
 * <p>Version 3: the b parts of compact queries and evaluation keys travel rounded and bit-packed
 * ({@link BPacking}): a u8 bit count (the preset's), then per array its u32 length in K-bit
 * digits ({@code keyLimbs N} per GLWE) and {@code ceil(length / keyLimbs * bits / 8)} bytes,
 * padding bits zero.
 */
public final class Wire {
  /** Current format version. */
  public static final int VERSION = 3;
  static final byte[] MAGIC = {'J', 'P', 'I', 'R'};
  static final int TYPE_SECRET_KEY = 1;
  static final int TYPE_QUERY = 2;
  static final int TYPE_ANSWER = 3;
  static final int TYPE_EVALUATION_KEYS = 4;
  static final int TYPE_COMPACT_QUERY = 5;
  static final int TYPE_SHARED_ANSWER = 6;
  static final int TYPE_PACKING_KEY = 7;

  private Wire() {}

  /** Bad input on the wire. */
  public static final class WireException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    WireException(String message) {
      super(message);
    }
  }

  private static String typeName(int type) {
    switch (type) {
      case TYPE_SECRET_KEY: return "secret key";
      case TYPE_QUERY: return "query";
      case TYPE_ANSWER: return "answer";
      case TYPE_EVALUATION_KEYS: return "evaluation keys";
      case TYPE_COMPACT_QUERY: return "compact query";
      case TYPE_SHARED_ANSWER: return "shared-mask answer";
      case TYPE_PACKING_KEY: return "packing key";
      default: return "unknown type " + type;
    }
  }

  private static DataOutputStream header(ByteArrayOutputStream bytes, int type, String preset)
      throws IOException {
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(MAGIC);
    out.writeShort(VERSION);
    out.writeByte(type);
    out.writeUTF(preset);
    return out;
  }

  private static byte[] finish(ByteArrayOutputStream bytes, DataOutputStream out)
      throws IOException {
    out.writeInt(0); // the CRC's place
    out.flush();
    return sealChecksum(bytes instanceof Exact ? ((Exact) bytes).array() : bytes.toByteArray());
  }

  /**
   * A byte stream allocated once at the message's known size, whose array is handed out without
   * the copy {@code toByteArray} makes: a classic query of 1024 rows is about 200 MB, and growing
   * a stream to it by doubling needs about three times that.
   */
  private static final class Exact extends ByteArrayOutputStream {
    Exact(long size) {
      super(checkedSize(size));
    }

    private static int checkedSize(long size) {
      if (size > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException("a message of " + size + " bytes is too large");
      }
      return (int) size;
    }

    /** The bytes written: the array itself when it is full (the expected case). */
    byte[] array() {
      return count == buf.length ? buf : toByteArray();
    }
  }

  /** The CRC-32 of everything in {@code msg} before its last {@link #CRC_BYTES} bytes. */
  private static int checksum(byte[] msg) {
    CRC32 crc = new CRC32();
    crc.update(msg, 0, msg.length - CRC_BYTES);
    return (int) crc.getValue();
  }

  /**
   * Overwrites the last {@link #CRC_BYTES} bytes of {@code msg} with the CRC-32 of the bytes
   * before them and returns {@code msg}: for tools that forge hostile messages to test the
   * decoders, which check every field regardless of the checksum.
   */
  public static byte[] sealChecksum(byte[] msg) {
    if (msg.length < CRC_BYTES) {
      throw new IllegalArgumentException("a message of " + msg.length + " bytes has no checksum");
    }
    int v = checksum(msg);
    for (int i = 0; i < CRC_BYTES; i++) {
      msg[msg.length - CRC_BYTES + i] = (byte) (v >>> (24 - 8 * i));
    }
    return msg;
  }

  /**
   * A query message of preset {@code presetId} holding {@code fields} as given (header, fields,
   * valid checksum), whatever they declare: for tools that forge hostile queries.
   */
  public static byte[] forgeQuery(String presetId, byte[] fields) {
    return forge(TYPE_QUERY, presetId, fields);
  }

  /** A message of {@code type} for {@code presetId} with {@code fields} and a valid checksum. */
  static byte[] forge(int type, String presetId, byte[] fields) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = header(bytes, type, presetId);
      out.write(fields);
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes {@code a.length} and the values big-endian, through a buffer of at most 64 KiB. */
  private static void writeShorts(DataOutputStream out, short[] a) throws IOException {
    out.writeInt(a.length);
    byte[] buf = new byte[2 * Math.min(a.length, 1 << 15)];
    for (int start = 0; start < a.length; start += buf.length / 2) {
      int len = Math.min(buf.length / 2, a.length - start);
      for (int i = 0; i < len; i++) {
        short v = a[start + i];
        buf[2 * i] = (byte) (v >> 8);
        buf[2 * i + 1] = (byte) v;
      }
      out.write(buf, 0, 2 * len);
    }
  }

  /** Writes {@code a.length} and the b parts of {@code a}, rounded to {@code bits}, bit-packed. */
  private static void writePacked(DataOutputStream out, short[] a, Params kp, int bits)
      throws IOException {
    out.writeInt(a.length);
    out.write(BPacking.pack(a, kp.n(), kp.glweLimbs(), kp.base2k(), bits));
  }

  /** Bytes of a packed b array of {@code digits} K-bit digits: u32 length + packed bits. */
  static long packedBytes(long digits, Params kp, int bits) {
    return 4 + BPacking.bytes(digits / kp.glweLimbs(), bits);
  }

  /** Bytes of the fixed header: magic, version, type and the preset id (u16 length + bytes). */
  static long headerBytes(String presetId) {
    return MAGIC.length + 2 + 1 + 2 + presetId.getBytes(StandardCharsets.UTF_8).length;
  }

  /** Bytes of the trailing CRC-32. */
  static final int CRC_BYTES = 4;
  /** Longest client id ({@link EvaluationKeys#checkClientId}). */
  static final int MAX_CLIENT_ID = 64;

  /**
   * A bounds-checked reader over the payload of a message (everything between the header and
   * the CRC): every read checks the bytes actually present first, so nothing is allocated for a
   * length the message does not hold.
   */
  private static final class Reader {
    private final byte[] msg;
    private final String what;
    private final int end;
    private int pos;

    Reader(byte[] msg, int pos, String what) {
      this.msg = msg;
      this.pos = pos;
      this.what = what;
      this.end = msg.length - CRC_BYTES;
    }

    int remaining() {
      return end - pos;
    }

    private void need(long bytes, String field) {
      if (bytes < 0 || bytes > remaining()) {
        throw new WireException("truncated " + what + ": " + field + " needs " + bytes
            + " bytes, " + Math.max(0, remaining()) + " present");
      }
    }

    int u8(String field) {
      need(1, field);
      return msg[pos++] & 0xFF;
    }

    int u16(String field) {
      need(2, field);
      int v = ((msg[pos] & 0xFF) << 8) | (msg[pos + 1] & 0xFF);
      pos += 2;
      return v;
    }

    int i32(String field) {
      need(4, field);
      int v = ((msg[pos] & 0xFF) << 24) | ((msg[pos + 1] & 0xFF) << 16)
          | ((msg[pos + 2] & 0xFF) << 8) | (msg[pos + 3] & 0xFF);
      pos += 4;
      return v;
    }

    long i64(String field) {
      long hi = i32(field) & 0xFFFFFFFFL;
      long lo = i32(field) & 0xFFFFFFFFL;
      return (hi << 32) | lo;
    }

    byte[] bytes(int len, String field) {
      need(len, field);
      byte[] b = java.util.Arrays.copyOfRange(msg, pos, pos + len);
      pos += len;
      return b;
    }

    /** A u16-length string of at most {@code maxLen} bytes of printable ASCII. */
    String ascii(String field, int maxLen) {
      int len = u16(field + " length");
      if (len > maxLen) {
        throw new WireException(what + " has a " + field + " of " + len + " bytes, at most "
            + maxLen + " allowed");
      }
      need(len, field);
      for (int i = pos; i < pos + len; i++) {
        if (msg[i] < 0x20 || msg[i] > 0x7E) {
          throw new WireException(what + " has a " + field + " that is not printable ASCII");
        }
      }
      String v = new String(msg, pos, len, StandardCharsets.US_ASCII);
      pos += len;
      return v;
    }

    /** A u32-length array of 16-bit words whose length must be {@code expected}. */
    short[] shorts(String field, long expected) {
      return shorts(field, expected, i32(field + " length"));
    }

    /** The elements of an array of {@code len} words ({@code expected} < 0: any checked length). */
    short[] shorts(String field, long expected, int len) {
      if (expected >= 0 && len != expected) {
        throw new WireException(what + ": " + field + " has length " + Integer.toUnsignedString(len)
            + ", expected " + expected);
      }
      need(2L * len, field);
      short[] a = new short[len];
      for (int i = 0; i < len; i++) {
        a[i] = (short) (((msg[pos + 2 * i] & 0xFF) << 8) | (msg[pos + 2 * i + 1] & 0xFF));
      }
      pos += 2 * len;
      return a;
    }

    /**
     * A u32-length array of 16-bit words whose length is {@code unit} times 0 to {@code maxUnits}.
     */
    short[] shortsMultiple(String field, long unit, int maxUnits) {
      int len = i32(field + " length");
      long l = Integer.toUnsignedLong(len);
      if (l % unit != 0 || l / unit > maxUnits) {
        throw new WireException(what + ": " + field + " has length " + l + ", expected a"
            + " multiple of " + unit + " up to " + maxUnits + " x " + unit);
      }
      return shorts(field, -1, len);
    }

    /**
     * A u32-length array of b parts rounded to {@code bits} and bit-packed, whose length in digits
     * is {@code unit} times {@code minUnits} to {@code maxUnits}; every size is checked against
     * the bytes present before allocating.
     */
    short[] packed(String field, Params kp, int bits, long unit, int minUnits, int maxUnits) {
      int len = i32(field + " length");
      long l = Integer.toUnsignedLong(len);
      if (l % unit != 0 || l / unit < minUnits || l / unit > maxUnits) {
        throw new WireException(what + ": " + field + " has length " + l + ", expected "
            + (minUnits == maxUnits ? String.valueOf(minUnits * unit)
                : "a multiple of " + unit + " from " + minUnits + " to " + maxUnits + " x "
                    + unit));
      }
      long bytes = BPacking.bytes(l / kp.glweLimbs(), bits);
      need(bytes, field);
      short[] a = BPacking.unpack(msg, pos, len, kp.n(), kp.glweLimbs(), kp.base2k(), bits);
      if (a == null) {
        throw new WireException(what + ": " + field + " has non-zero padding bits");
      }
      pos += (int) bytes;
      return a;
    }

    /** A u8 bit count that must equal {@code expected}. */
    void bits(String field, int expected) {
      int b = u8(field);
      if (b != expected) {
        throw new WireException(what + " has b parts of " + b + " bits, preset expects "
            + expected);
      }
    }

    void expectEnd() {
      if (pos != end) {
        throw new WireException(what + " has " + (end - pos) + " unexpected trailing bytes");
      }
    }
  }

  /** A short printable rendering of a hostile string for messages. */
  private static String quote(byte[] b, int off, int len) {
    StringBuilder sb = new StringBuilder("'");
    for (int i = off; i < off + Math.min(len, 64); i++) {
      int c = b[i] & 0xFF;
      sb.append(c >= 0x20 && c < 0x7F ? (char) c : '?');
    }
    return sb.append(len > 64 ? "...'" : "'").toString();
  }

  /**
   * Opens a message: checks length, magic, version, type, checksum and preset (in that order,
   * before anything is allocated), and returns a reader positioned after the header.
   */
  private static Reader open(byte[] msg, int type, Params p) {
    Security.requireAllowed(p);
    String what = typeName(type);
    if (msg == null || msg.length < headerBytes("") + CRC_BYTES) {
      throw new WireException("truncated " + what + ": only " + (msg == null ? 0 : msg.length)
          + " bytes");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (msg[i] != MAGIC[i]) {
        throw new WireException("not a jpir message (bad magic) where a " + what
            + " was expected");
      }
    }
    int version = ((msg[4] & 0xFF) << 8) | (msg[5] & 0xFF);
    if (version != VERSION) {
      throw new WireException(what + " has format version " + version + ", this build reads"
          + " version " + VERSION);
    }
    int t = msg[6] & 0xFF;
    if (t != type) {
      throw new WireException("expected a " + what + " but got a " + typeName(t));
    }
    int e = msg.length - CRC_BYTES;
    int stored = ((msg[e] & 0xFF) << 24) | ((msg[e + 1] & 0xFF) << 16)
        | ((msg[e + 2] & 0xFF) << 8) | (msg[e + 3] & 0xFF);
    if (checksum(msg) != stored) {
      throw new WireException(what + " is corrupted or truncated (checksum mismatch over "
          + msg.length + " bytes)");
    }
    Reader in = new Reader(msg, 7, what);
    int len = in.u16("preset id length");
    in.need(len, "preset id");
    byte[] expected = p.id().getBytes(StandardCharsets.UTF_8);
    if (!java.util.Arrays.equals(msg, 9, 9 + len, expected, 0, expected.length)) {
      throw new WireException(what + " is for preset " + quote(msg, 9, len) + ", expected '"
          + p.id() + "'");
    }
    in.pos += len;
    return in;
  }

  private static void requireGeometry(String what, int rows, int cols, Geometry g) {
    if (g != null && (rows != g.rows() || cols != g.cols())) {
      throw new WireException(what + " was made for " + rows + " rows x " + cols
          + " columns, the database has " + g.rows() + " x " + g.cols());
    }
  }

  // ---- largest valid messages (what a reader may refuse unread) ------------------------------

  /** The exact size of a query for preset {@code p} and geometry {@code g}. */
  public static long maxQueryBytes(Params p, Geometry g) {
    long per = (long) p.glweLimbs() * p.n();
    return headerBytes(p.id()) + 4 + 4 + Prg.SEED_BYTES
        + 4 + 2L * g.rows() * p.plaintextLimbs() * per
        + 4 + 2L * Geometry.levels(g.cols()) * 2 * p.ggswLevels() * per + CRC_BYTES;
  }

  /** The largest compact query for {@code cp} and geometry {@code g} (client id of 64 bytes). */
  public static long maxCompactQueryBytes(CompactParams cp, Geometry g) {
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    return headerBytes(cp.id()) + 2 + MAX_CLIENT_ID + 8 + 4 + 4 + Prg.SEED_BYTES + 1
        + packedBytes(per, cp.keys(), cp.queryBits())
        + packedBytes(cp.phase2Glwes(g.rows(), g.cols()) * per, cp.keys(), cp.queryBits())
        + CRC_BYTES;
  }

  /**
   * The largest answer of preset {@code p} for geometry {@code g}: planes, N, the two bit widths
   * and the b count, then each plane's switched values bit-packed ({@link Answer#planeBytes}, b
   * of all N coefficients; an answer made for {@code g} by {@link
   * org.jpir.core.server.PirServer#toAnswer(Glwe[], Geometry)} may be smaller, {@link
   * #answerBytes}).
   */
  public static long maxAnswerBytes(Params p, Geometry g) {
    return answerBytes(p, g.planes(), p.n());
  }

  /**
   * The exact size of an answer of {@code planes} planes whose last plane's b holds {@code nb}
   * coefficients (the others N).
   */
  public static long answerBytes(Params p, int planes, int nb) {
    return headerBytes(p.id()) + 4 + 4 + 1 + 1 + 4
        + Answer.payloadBytes(planes, p.n(), p.answerBitsB(), p.answerBitsA(), nb) + CRC_BYTES;
  }

  /**
   * The exact size of a shared-mask answer ({@link PlanePacking}) of {@code planes} planes whose
   * last plane's b holds {@code nb} coefficients.
   */
  public static long sharedAnswerBytes(Params p, int planes, int nb) {
    return headerBytes(p.id()) + 4 + 4 + 1 + 1 + 4
        + Answer.sharedPayloadBytes(planes, p.n(), p.answerBitsB(), p.answerBitsA(), nb)
        + CRC_BYTES;
  }

  /** The largest evaluation-key message for {@code cp} (client id of 64 bytes). */
  public static long maxEvaluationKeysBytes(CompactParams cp) {
    return evaluationKeysBytes(cp, cp.automorphisms(), MAX_CLIENT_ID);
  }

  /** The exact size of evaluation keys of {@code depth} automorphisms and a client id's bytes. */
  public static long evaluationKeysBytes(CompactParams cp, int depth, int clientIdBytes) {
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    return headerBytes(cp.id()) + 2 + clientIdBytes + Prg.SEED_BYTES + 1
        + packedBytes((long) depth * cp.ksLevels() * per, cp.keys(), cp.keyBits())
        + packedBytes(2L * cp.keys().ggswLevels() * per, cp.keys(), cp.keyBits()) + CRC_BYTES;
  }

  /** The exact size of a secret key of preset {@code p}. */
  public static long maxSecretKeyBytes(Params p) {
    return headerBytes(p.id()) + 4 + p.n() + CRC_BYTES;
  }

  /**
   * Reads a file that must be a regular file (links are followed) of at most {@code maxBytes}
   * bytes, refusing it unread otherwise (a FIFO, a device, a directory, an oversized file); at
   * most {@code maxBytes + 1} bytes are read even if the file grows meanwhile.
   *
   * @throws WireException naming the file and the limit
   * @throws java.io.UncheckedIOException when it cannot be read
   */
  public static byte[] readFile(java.nio.file.Path f, long maxBytes, String what) {
    if (!java.nio.file.Files.isRegularFile(f)) {
      throw new WireException(what + " " + f.getFileName() + " is not a regular file");
    }
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(f)) {
      long size = java.nio.file.Files.size(f);
      if (size > maxBytes) {
        throw new WireException(what + " " + f.getFileName() + " has " + size
            + " bytes, more than the largest valid " + maxBytes);
      }
      return readBounded(in, maxBytes, what + " " + f.getFileName());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot read " + what + " " + f.getFileName(), e);
    }
  }

  /**
   * Reads a stream to its end, refusing more than {@code maxBytes} bytes (at most {@code maxBytes
   * + 1} are read).
   *
   * @throws WireException when the stream holds more
   */
  public static byte[] readBounded(java.io.InputStream in, long maxBytes, String what)
      throws IOException {
    int cap = (int) Math.min(maxBytes, Integer.MAX_VALUE - 16);
    byte[] b = in.readNBytes(cap);
    if (b.length == cap && in.read() >= 0) {
      throw new WireException(what + " holds more than the largest valid " + maxBytes
          + " bytes");
    }
    return b;
  }

  /** Serializes a query. */
  public static byte[] writeQuery(ClientQuery q) {
    try {
      ByteArrayOutputStream bytes = new Exact(headerBytes(q.paramsId()) + 8 + q.seed().length
          + 4 + 2L * q.phase1B().length + 4 + 2L * q.ggswB().length + CRC_BYTES);
      DataOutputStream out = header(bytes, TYPE_QUERY, q.paramsId());
      out.writeInt(q.rows());
      out.writeInt(q.cols());
      out.write(q.seed());
      writeShorts(out, q.phase1B());
      writeShorts(out, q.ggswB());
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Parses and validates a query for preset {@code p} (any geometry the preset allows).
   *
   * @throws WireException naming the field that is wrong
   */
  public static ClientQuery readQuery(byte[] msg, Params p) {
    return readQuery(msg, p, null);
  }

  /**
   * Parses and validates a query for preset {@code p} and the database geometry {@code g} (null:
   * any geometry the preset allows). Every declared size is checked against the preset, the
   * geometry and the bytes present before anything is allocated.
   *
   * @throws WireException naming the field that is wrong
   */
  public static ClientQuery readQuery(byte[] msg, Params p, Geometry g) {
    Reader in = open(msg, TYPE_QUERY, p);
    int rows = in.i32("rows");
    int cols = in.i32("cols");
    int maxRows = Geometry.maxRows(p);
    if (rows < 1 || rows > maxRows || cols < 1) {
      throw new WireException("query geometry " + rows + " x " + cols + " is invalid for preset "
          + p.id() + " (rows in [1, " + maxRows + "], cols >= 1)");
    }
    requireGeometry("query", rows, cols, g);
    byte[] seed = in.bytes(Prg.SEED_BYTES, "seed");
    long per = (long) p.glweLimbs() * p.n();
    short[] b1 = in.shorts("phase-1 part", (long) rows * p.plaintextLimbs() * per);
    short[] b2 = in.shorts("phase-2 part", (long) Geometry.levels(cols) * 2 * p.ggswLevels() * per);
    in.expectEnd();
    ClientQuery q = new ClientQuery(p.id(), rows, cols, seed, b1, b2);
    try {
      q.validate(p);
    } catch (IllegalArgumentException e) {
      throw new WireException("query is invalid: " + e.getMessage());
    }
    return q;
  }

  /** Serializes an answer: its values bit-packed, most significant bit first, per plane. */
  public static byte[] writeAnswer(Answer a) {
    if (a.sharedA()) {
      return writeSharedAnswer(a);
    }
    try {
      ByteArrayOutputStream bytes = new Exact(headerBytes(a.paramsId()) + 14
          + a.sizeBytes() + CRC_BYTES);
      DataOutputStream out = header(bytes, TYPE_ANSWER, a.paramsId());
      out.writeInt(a.planes());
      out.writeInt(a.n());
      out.writeByte(a.bitsB());
      out.writeByte(a.bitsA());
      out.writeInt(a.bCoefficients());
      long[] v = a.values();
      for (int pl = 0; pl < a.planes(); pl++) {
        int nb = a.bCoefficients(pl);
        byte[] buf = new byte[(int) Answer.planeBytes(a.n(), a.bitsB(), a.bitsA(), nb)];
        int off = a.bOffset(pl);
        long bit = 0;
        for (int j = 0; j < nb + a.n(); j++) {
          int bits = j < nb ? a.bitsB() : a.bitsA();
          bit = putBits(buf, bit, v[off + j], bits);
        }
        out.write(buf);
      }
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A shared-mask answer ({@link PlanePacking}): the header of {@link #writeAnswer} with type
   * {@value #TYPE_SHARED_ANSWER}, then one bit stream: the b values of every plane in order (N,
   * .., N, bCoefficients), then the N values of the shared a, padded to a byte.
   */
  private static byte[] writeSharedAnswer(Answer a) {
    try {
      long payload = a.sizeBytes();
      ByteArrayOutputStream bytes = new Exact(headerBytes(a.paramsId()) + 14 + payload
          + CRC_BYTES);
      DataOutputStream out = header(bytes, TYPE_SHARED_ANSWER, a.paramsId());
      out.writeInt(a.planes());
      out.writeInt(a.n());
      out.writeByte(a.bitsB());
      out.writeByte(a.bitsA());
      out.writeInt(a.bCoefficients());
      byte[] buf = new byte[(int) payload];
      long[] v = a.values();
      int nbAll = v.length - a.n();
      long bit = 0;
      for (int j = 0; j < v.length; j++) {
        bit = putBits(buf, bit, v[j], j < nbAll ? a.bitsB() : a.bitsA());
      }
      out.write(buf);
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes the low {@code bits} bits of {@code value} at bit {@code pos} of buf (MSB first). */
  private static long putBits(byte[] buf, long pos, long value, int bits) {
    for (int i = bits - 1; i >= 0; i--) {
      if (((value >>> i) & 1) != 0) {
        buf[(int) (pos >>> 3)] |= (byte) (0x80 >>> (pos & 7));
      }
      pos++;
    }
    return pos;
  }

  /** Reads {@code bits} bits at bit {@code pos} of {@code msg} from byte {@code base} (MSB first). */
  private static long getBits(byte[] msg, int base, long pos, int bits) {
    long v = 0;
    for (int i = 0; i < bits; i++) {
      long p = pos + i;
      v = (v << 1) | ((msg[base + (int) (p >>> 3)] >>> (7 - (p & 7))) & 1);
    }
    return v;
  }

  /**
   * Parses an answer for preset {@code p} (any number of planes the message holds).
   *
   * @throws WireException naming the field that is wrong
   */
  public static Answer readAnswer(byte[] msg, Params p) {
    return readAnswer(msg, p, null);
  }

  /**
   * Parses an answer for preset {@code p} and geometry {@code g} (null: any plane count, b of 1
   * to N coefficients); sizes are checked against both and the bytes present before anything
   * is allocated; the padding bits of each plane must be zero.
   *
   * @throws WireException naming the field that is wrong
   */
  public static Answer readAnswer(byte[] msg, Params p, Geometry g) {
    boolean shared = msg != null && msg.length > 6 && (msg[6] & 0xFF) == TYPE_SHARED_ANSWER;
    Reader in = open(msg, shared ? TYPE_SHARED_ANSWER : TYPE_ANSWER, p);
    int planes = in.i32("planes");
    int n = in.i32("ring degree");
    int bitsB = in.u8("bits of b");
    int bitsA = in.u8("bits of a");
    int nb = in.i32("b coefficients");
    int trimmed = g == null ? -1 : AnswerSwitch.bCoefficients(p, g);
    if (planes < (shared ? 2 : 1) || (g != null && planes != g.planes()) || n != p.n()
        || bitsB != p.answerBitsB() || bitsA != p.answerBitsA() || nb < 1 || nb > p.n()
        || (g != null && nb != p.n() && nb != trimmed)) {
      throw new WireException("answer shape " + planes + " planes, N = " + n + ", b of " + nb
          + " x " + bitsB + " bits, a of " + bitsA + " bits is invalid for preset " + p.id()
          + " (N = " + p.n() + ", b " + p.answerBitsB() + " bits, a " + p.answerBitsA() + " bits"
          + (g != null ? ", planes " + g.planes() + ", b of " + trimmed + " or " + p.n()
              + " coefficients" : "") + ")");
    }
    if (shared) {
      long payload = Answer.sharedPayloadBytes(planes, n, bitsB, bitsA, nb);
      in.need(payload, "data");
      long[] v = new long[Math.toIntExact(Answer.valueCount(planes, n, nb, true))];
      int nbAll = v.length - n;
      long bit = 0;
      for (int j = 0; j < v.length; j++) {
        int bits = j < nbAll ? bitsB : bitsA;
        v[j] = getBits(msg, in.pos, bit, bits);
        bit += bits;
      }
      long pad = payload * 8 - bit;
      if (pad > 0 && getBits(msg, in.pos, bit, (int) pad) != 0) {
        throw new WireException("shared-mask answer has non-zero padding bits");
      }
      in.pos += (int) payload;
      in.expectEnd();
      return new Answer(p.id(), planes, n, bitsB, bitsA, nb, v, true);
    }
    in.need(Answer.payloadBytes(planes, n, bitsB, bitsA, nb), "data");
    long[] v = new long[Math.toIntExact(Answer.valueCount(planes, n, nb))];
    int base = in.pos;
    for (int pl = 0; pl < planes; pl++) {
      int nbHere = pl == planes - 1 ? nb : n;
      long planeBytes = Answer.planeBytes(n, bitsB, bitsA, nbHere);
      int off = pl * 2 * n;
      long bit = 0;
      for (int j = 0; j < nbHere + n; j++) {
        int bits = j < nbHere ? bitsB : bitsA;
        v[off + j] = getBits(msg, base, bit, bits);
        bit += bits;
      }
      long pad = planeBytes * 8 - bit;
      if (pad > 0 && getBits(msg, base, bit, (int) pad) != 0) {
        throw new WireException("answer plane " + pl + " has non-zero padding bits");
      }
      base += (int) planeBytes;
    }
    in.pos = base;
    in.expectEnd();
    return new Answer(p.id(), planes, n, bitsB, bitsA, nb, v);
  }

  /**
   * Serializes the upload of a plane-packing key ({@link PlanePacking}): planes (u8), the 32-byte
   * seed, then the rows' b parts as 16-bit digits (u32 length, {@link PlanePacking#keyDigits}).
   */
  public static byte[] writePackingKey(Params p, PlanePacking.Upload u) {
    try {
      ByteArrayOutputStream bytes = new Exact(packingKeyBytes(p, u.planes()));
      DataOutputStream out = header(bytes, TYPE_PACKING_KEY, p.id());
      out.writeByte(u.planes());
      out.write(u.seed());
      short[] d = new short[u.rowsB().length];
      for (int i = 0; i < d.length; i++) {
        d[i] = (short) u.rowsB()[i];
      }
      writeShorts(out, d);
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The exact size of a packing key of preset {@code p} for {@code planes} planes. */
  public static long packingKeyBytes(Params p, int planes) {
    return headerBytes(p.id()) + 1 + Prg.SEED_BYTES + 4
        + 2 * new PlanePacking(p, planes).keyDigits() + CRC_BYTES;
  }

  /**
   * Parses a packing key of preset {@code p} for geometry {@code g} (its planes); sizes are
   * checked before anything is allocated.
   *
   * @throws WireException naming the field that is wrong
   */
  public static PlanePacking.Upload readPackingKey(byte[] msg, Params p, Geometry g) {
    Reader in = open(msg, TYPE_PACKING_KEY, p);
    int planes = in.u8("planes");
    if (planes != g.planes() || planes < 2) {
      throw new WireException("packing key for " + planes + " planes, the database has "
          + g.planes() + " (at least 2 needed)");
    }
    byte[] seed = in.bytes(Prg.SEED_BYTES, "seed");
    short[] d = in.shorts("rows", new PlanePacking(p, planes).keyDigits());
    in.expectEnd();
    long[] rows = new long[d.length];
    long half = 1L << (p.base2k() - 1);
    for (int i = 0; i < d.length; i++) {
      rows[i] = d[i];
      if (rows[i] < -half || rows[i] >= half) {
        throw new WireException("packing key digit " + rows[i] + " is outside the K-bit range");
      }
    }
    return new PlanePacking.Upload(planes, seed, rows);
  }

  /** Serializes a secret key (for the client's own storage; never send it). */
  public static byte[] writeSecretKey(SecretKey sk) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = header(bytes, TYPE_SECRET_KEY, sk.params().id());
      long[] s = sk.coefficients();
      out.writeInt(s.length);
      for (long c : s) {
        out.writeByte((int) c);
      }
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The preset id in the header of a secret key of this format version (printable ASCII, at
   * most 64 characters), or null when {@code msg} is not one; nothing past the header is checked.
   * For naming the preset of a key made for another preset than the one expected.
   */
  public static String secretKeyPreset(byte[] msg) {
    if (msg == null || msg.length < headerBytes("") + CRC_BYTES) {
      return null;
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (msg[i] != MAGIC[i]) {
        return null;
      }
    }
    int version = ((msg[4] & 0xFF) << 8) | (msg[5] & 0xFF);
    int len = ((msg[7] & 0xFF) << 8) | (msg[8] & 0xFF);
    if (version != VERSION || (msg[6] & 0xFF) != TYPE_SECRET_KEY || len > 64
        || 9 + len > msg.length - CRC_BYTES) {
      return null;
    }
    for (int i = 9; i < 9 + len; i++) {
      if (msg[i] < 0x20 || msg[i] >= 0x7F) {
        return null;
      }
    }
    return new String(msg, 9, len, StandardCharsets.US_ASCII);
  }

  /**
   * Parses a secret key for preset {@code p}.
   *
   * @throws WireException naming the field that is wrong
   */
  public static SecretKey readSecretKey(byte[] msg, Params p) {
    Reader in = open(msg, TYPE_SECRET_KEY, p);
    int len = in.i32("coefficient count");
    if (len != p.n()) {
      throw new WireException("secret key has " + len + " coefficients, expected " + p.n());
    }
    byte[] raw = in.bytes(len, "coefficients");
    in.expectEnd();
    long[] s = new long[len];
    for (int i = 0; i < len; i++) {
      s[i] = raw[i];
    }
    try {
      return new SecretKey(p, s);
    } catch (IllegalArgumentException e) {
      throw new WireException("secret key is invalid: " + e.getMessage());
    }
  }

  /**
   * Serializes a client's evaluation keys of a compact preset of {@link CompactParams#all}.
   *
   * @throws IllegalArgumentException when the preset is unknown or the keys are not rounded to
   *     its bits
   */
  public static byte[] writeEvaluationKeys(EvaluationKeys k) {
    return writeEvaluationKeys(k, CompactParams.find(k.paramsId()));
  }

  /**
   * Serializes a client's evaluation keys of the compact preset {@code cp}, their b parts
   * bit-packed at {@code cp.keyBits()}.
   *
   * @throws IllegalArgumentException when the keys are not of {@code cp} or not rounded to its
   *     bits
   */
  public static byte[] writeEvaluationKeys(EvaluationKeys k, CompactParams cp) {
    k.validate(cp);
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = header(bytes, TYPE_EVALUATION_KEYS, k.paramsId());
      out.writeUTF(k.clientId());
      out.write(k.seed());
      out.writeByte(cp.keyBits());
      writePacked(out, k.kskB(), cp.keys(), cp.keyBits());
      writePacked(out, k.ggswSB(), cp.keys(), cp.keyBits());
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Parses and validates evaluation keys for the compact preset {@code cp}; sizes are checked
   * against the preset and the bytes present before anything is allocated.
   *
   * @throws WireException naming the field that is wrong
   */
  public static EvaluationKeys readEvaluationKeys(byte[] msg, CompactParams cp) {
    Reader in = open(msg, TYPE_EVALUATION_KEYS, cp.server());
    String client = in.ascii("client id", MAX_CLIENT_ID);
    byte[] seed = in.bytes(Prg.SEED_BYTES, "seed");
    in.bits("bits of b", cp.keyBits());
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    short[] ksk = in.packed("key-switching part", cp.keys(), cp.keyBits(),
        (long) cp.ksLevels() * per, 0, cp.automorphisms());
    short[] g = in.packed("GGSW(s) part", cp.keys(), cp.keyBits(),
        2L * cp.keys().ggswLevels() * per, 1, 1);
    in.expectEnd();
    EvaluationKeys k = new EvaluationKeys(cp.id(), client, seed, ksk, g);
    try {
      k.validate(cp);
    } catch (IllegalArgumentException e) {
      throw new WireException("evaluation keys are invalid: " + e.getMessage());
    }
    return k;
  }

  /**
   * Serializes a compact query of a compact preset of {@link CompactParams#all}.
   *
   * @throws IllegalArgumentException when the preset is unknown or the query is not rounded to
   *     its bits
   */
  public static byte[] writeCompactQuery(CompactQuery q) {
    return writeCompactQuery(q, CompactParams.find(q.paramsId()));
  }

  /**
   * Serializes a compact query of {@code cp}, its b parts bit-packed at {@code cp.queryBits()}.
   *
   * @throws IllegalArgumentException when the query is not of {@code cp} or not rounded to its
   *     bits
   */
  public static byte[] writeCompactQuery(CompactQuery q, CompactParams cp) {
    q.validate(cp);
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = header(bytes, TYPE_COMPACT_QUERY, q.paramsId());
      out.writeUTF(q.clientId());
      out.writeLong(q.keysFingerprint());
      out.writeInt(q.rows());
      out.writeInt(q.cols());
      out.write(q.seed());
      out.writeByte(cp.queryBits());
      writePacked(out, q.phase1B(), cp.keys(), cp.queryBits());
      writePacked(out, q.phase2B(), cp.keys(), cp.queryBits());
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Parses and validates a compact query for the compact preset {@code cp} (any geometry it
   * allows).
   *
   * @throws WireException naming the field that is wrong
   */
  public static CompactQuery readCompactQuery(byte[] msg, CompactParams cp) {
    return readCompactQuery(msg, cp, null);
  }

  /**
   * Parses and validates a compact query for {@code cp} and geometry {@code g} (null: any
   * geometry {@code cp} allows); sizes are checked against both and the bytes present before
   * anything is allocated.
   *
   * @throws WireException naming the field that is wrong
   */
  public static CompactQuery readCompactQuery(byte[] msg, CompactParams cp, Geometry g) {
    Reader in = open(msg, TYPE_COMPACT_QUERY, cp.server());
    String client = in.ascii("client id", MAX_CLIENT_ID);
    long fp = in.i64("keys fingerprint");
    int rows = in.i32("rows");
    int cols = in.i32("cols");
    try {
      cp.checkGeometry(rows, cols);
    } catch (IllegalArgumentException e) {
      throw new WireException("compact query geometry " + rows + " x " + cols + " is invalid: "
          + e.getMessage());
    }
    requireGeometry("compact query", rows, cols, g);
    byte[] seed = in.bytes(Prg.SEED_BYTES, "seed");
    in.bits("bits of b", cp.queryBits());
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    short[] b1 = in.packed("phase-1 part", cp.keys(), cp.queryBits(), per, 1, 1);
    int e2 = cp.phase2Glwes(rows, cols);
    short[] b2 = in.packed("phase-2 part", cp.keys(), cp.queryBits(), per, e2, e2);
    in.expectEnd();
    CompactQuery q = new CompactQuery(cp.id(), client, fp, rows, cols, seed, b1, b2);
    try {
      q.validate(cp);
    } catch (IllegalArgumentException e) {
      throw new WireException("compact query is invalid: " + e.getMessage());
    }
    return q;
  }
}
