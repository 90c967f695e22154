package org.jpir.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reading message files that come from the other party (queries on the server, answers on the
 * client) without trusting them: a path that is not a regular file (a FIFO, a device, a
 * directory, a link to one of those) or that is larger than the largest valid message for the
 * job's preset and geometry is refused before a byte is read, and at most that many bytes are
 * ever read. The size bounds are the exact lengths of the {@link Wire} encodings.
 */
public final class MessageFiles {
  private MessageFiles() {}

  /** A refused file; the message names the file and the reason. */
  public static final class RefusedFileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    RefusedFileException(String m) {
      super(m);
    }
  }

  /** Header plus checksum: magic, version, type, the preset id as modified UTF-8, CRC-32. */
  private static long frame(Params p) {
    return 4 + 2 + 1 + 2 + p.id().getBytes(StandardCharsets.UTF_8).length + 4;
  }

  /** The exact length of a classic query for {@code p} at geometry {@code g}. */
  public static long queryBytes(Params p, Geometry g) {
    long per = (long) p.glweLimbs() * p.n();
    long b1 = (long) g.rows() * p.plaintextLimbs() * per;
    long b2 = (long) Noise.levels(g.cols()) * 2 * p.ggswLevels() * per;
    return frame(p) + 4 + 4 + Prg.SEED_BYTES + 4 + 2 * b1 + 4 + 2 * b2;
  }

  /** The largest compact query for {@code cp} at {@code g} (client id of at most 65535 bytes). */
  public static long maxCompactQueryBytes(CompactParams cp, Geometry g) {
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    long b2 = Noise.levels(g.cols()) == 0 ? 0 : per;
    return frame(cp.server()) + 2 + 65535 + 8 + 4 + 4 + Prg.SEED_BYTES + 4 + 2 * per + 4
        + 2 * b2;
  }

  /** The largest answer for {@code p} at {@code g} (every plane, at most glweLimbs limbs). */
  public static long maxAnswerBytes(Params p, Geometry g) {
    return frame(p) + 4 + 4 + 4 + 2L * g.planes() * 2 * p.glweLimbs() * p.n();
  }

  /**
   * The preset id in a message's header, read without trusting anything after it; null when the
   * bytes do not start with a jpir header (bad magic, too short, id running past the end).
   */
  public static String presetOf(byte[] msg) {
    int off = Wire.MAGIC.length + 2 + 1;
    if (msg == null || msg.length < off + 2) {
      return null;
    }
    for (int i = 0; i < Wire.MAGIC.length; i++) {
      if (msg[i] != Wire.MAGIC[i]) {
        return null;
      }
    }
    int len = ((msg[off] & 0xFF) << 8) | (msg[off + 1] & 0xFF);
    if (off + 2 + len > msg.length) {
      return null;
    }
    return new String(msg, off + 2, len, StandardCharsets.UTF_8);
  }

  /**
   * Checks a classic query's header against the job before the decoder sees it: its preset, its
   * declared rows and columns (which size every array the decoder allocates) and its exact
   * length; so a message that declares more than the geometry holds never reaches an allocation.
   *
   * @throws Wire.WireException naming the mismatch
   */
  public static void checkQueryHeader(byte[] msg, Params p, Geometry g) {
    int at = fieldsStart(msg, p, "query");
    if (msg.length < at + 8) {
      throw new Wire.WireException("truncated query: " + msg.length + " bytes");
    }
    int rows = intAt(msg, at);
    int cols = intAt(msg, at + 4);
    if (rows != g.rows() || cols != g.cols()) {
      throw new Wire.WireException("query declares " + rows + " rows x " + cols + " columns,"
          + " the database has " + g.rows() + " x " + g.cols());
    }
    long want = queryBytes(p, g);
    if (msg.length != want) {
      throw new Wire.WireException("query is " + msg.length + " bytes, a query for preset "
          + p.id() + " at " + g.rows() + " x " + g.cols() + " is exactly " + want + " bytes"
          + " (truncated or extended)");
    }
  }

  /**
   * Checks an answer's header before the decoder sees it: preset, planes (must be the
   * geometry's), limbs (at most glweLimbs) and the exact length those imply.
   *
   * @throws Wire.WireException naming the mismatch
   */
  public static void checkAnswerHeader(byte[] msg, Params p, Geometry g) {
    int at = fieldsStart(msg, p, "answer");
    if (msg.length < at + 8) {
      throw new Wire.WireException("truncated answer: " + msg.length + " bytes");
    }
    int planes = intAt(msg, at);
    int limbs = intAt(msg, at + 4);
    if (planes != g.planes() || limbs < 1 || limbs > p.glweLimbs()) {
      throw new Wire.WireException("answer declares " + planes + " planes x " + limbs
          + " limbs; expected " + g.planes() + " planes of at most " + p.glweLimbs() + " limbs");
    }
    long want = at + 8 + 4 + 2L * planes * 2 * limbs * p.n() + 4;
    if (msg.length != want) {
      throw new Wire.WireException("answer is " + msg.length + " bytes, expected " + want
          + " (truncated or extended)");
    }
  }

  /** Offset of the first field after the header; checks magic and the preset id. */
  private static int fieldsStart(byte[] msg, Params p, String what) {
    String preset = presetOf(msg);
    if (preset == null) {
      throw new Wire.WireException("not a jpir " + what + " (bad magic or truncated header)");
    }
    if (!preset.equals(p.id())) {
      throw new Wire.WireException(what + " is for preset '" + preset + "', expected '"
          + p.id() + "'");
    }
    return Wire.MAGIC.length + 2 + 1 + 2 + preset.getBytes(StandardCharsets.UTF_8).length;
  }

  private static int intAt(byte[] b, int i) {
    return ((b[i] & 0xFF) << 24) | ((b[i + 1] & 0xFF) << 16) | ((b[i + 2] & 0xFF) << 8)
        | (b[i + 3] & 0xFF);
  }

  /**
   * The bytes of {@code file}, which must be a regular file (links are followed to one) of at
   * most {@code maxBytes} bytes; {@code what} names the expected content in the messages.
   *
   * @throws RefusedFileException when the file is not a regular file or too large (nothing read)
   * @throws IOException when it cannot be read
   */
  public static byte[] read(Path file, long maxBytes, String what) throws IOException {
    if (maxBytes < 0 || maxBytes > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("size bound " + maxBytes + " is out of range");
    }
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    if (!a.isRegularFile()) {
      throw new RefusedFileException(what + " " + file.getFileName() + " refused: not a regular"
          + " file (" + (a.isDirectory() ? "a directory" : "a device, FIFO or socket") + ")");
    }
    if (a.size() > maxBytes) {
      throw new RefusedFileException(what + " " + file.getFileName() + " refused: " + a.size()
          + " bytes, larger than the largest valid one (" + maxBytes + " bytes)");
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] b = in.readNBytes((int) maxBytes + 1);
      if (b.length > maxBytes) {
        throw new RefusedFileException(what + " " + file.getFileName() + " refused: it grew"
            + " past " + maxBytes + " bytes while being read");
      }
      return b;
    }
  }
}
