package org.jpir.datasets;

import java.util.Arrays;

/**
 * The variable-length field format: a field of {@code fieldSize} bytes holds a value as an
 * unsigned big-endian length prefix of {@link #prefixBytes(int) w} bytes followed by the value
 * bytes and zero padding: {@code field[0..w) = len, field[w..w+len) = value, field[w+len..) = 0}.
 * The prefix width depends only on the field size: {@code w = 1} when {@code fieldSize <= 256},
 * {@code w = 2} when {@code fieldSize <= 65537}, else {@code w = 4}. A value therefore fits when
 * {@code len <= fieldSize - w}.
 */
public final class LengthPrefix {
  private LengthPrefix() {}

  /** Prefix bytes used by a field of {@code fieldSize} bytes. */
  public static int prefixBytes(int fieldSize) {
    if (fieldSize < 2) {
      throw new IllegalArgumentException("a length-prefixed field needs at least 2 bytes, got "
          + fieldSize);
    }
    return fieldSize <= 256 ? 1 : fieldSize <= 65537 ? 2 : 4;
  }

  /** The largest value a field of {@code fieldSize} bytes holds. */
  public static int capacity(int fieldSize) {
    return fieldSize - prefixBytes(fieldSize);
  }

  /** The smallest field size whose capacity is at least {@code maxLen}. */
  public static int fieldSizeFor(int maxLen) {
    if (maxLen < 0) {
      throw new IllegalArgumentException("negative length " + maxLen);
    }
    if (maxLen + 1 <= 256) {
      return Math.max(2, maxLen + 1);
    }
    if (maxLen + 2 <= 65537) {
      return maxLen + 2;
    }
    return Math.addExact(maxLen, 4);
  }

  /**
   * Writes {@code value[vOff..vOff+len)} as a field of {@code fieldSize} bytes at {@code dst[off..]}.
   * When the value does not fit: truncates it to the capacity if {@code truncate}, else throws a
   * {@link ValueTooLargeException} whose message names {@code what} (the record: line, key, row).
   *
   * @return true when the value was truncated
   */
  public static boolean write(byte[] value, int vOff, int len, byte[] dst, int off, int fieldSize,
      boolean truncate, String what) {
    int w = prefixBytes(fieldSize);
    int cap = fieldSize - w;
    boolean cut = false;
    if (len > cap) {
      if (!truncate) {
        throw new ValueTooLargeException(what + ": value of " + len + " bytes does not fit the "
            + cap + " bytes a " + fieldSize + "-byte record field holds (" + w
            + "-byte length prefix); raise the record size or choose truncation explicitly");
      }
      len = cap;
      cut = true;
    }
    for (int i = 0; i < w; i++) {
      dst[off + i] = (byte) (len >>> (8 * (w - 1 - i)));
    }
    System.arraycopy(value, vOff, dst, off + w, len);
    Arrays.fill(dst, off + w + len, off + fieldSize, (byte) 0);
    return cut;
  }

  /** Reads the value of the field at {@code src[off..off+fieldSize)}. */
  public static byte[] read(byte[] src, int off, int fieldSize) {
    int len = length(src, off, fieldSize);
    return Arrays.copyOfRange(src, off + prefixBytes(fieldSize), off + prefixBytes(fieldSize) + len);
  }

  /** The value length stored in the field at {@code src[off..]}; checks it is in range. */
  public static int length(byte[] src, int off, int fieldSize) {
    int w = prefixBytes(fieldSize);
    long len = 0;
    for (int i = 0; i < w; i++) {
      len = (len << 8) | (src[off + i] & 0xFF);
    }
    if (len > fieldSize - w) {
      throw new IllegalArgumentException("corrupt field: length prefix " + len
          + " exceeds the field's capacity " + (fieldSize - w));
    }
    return (int) len;
  }
}
