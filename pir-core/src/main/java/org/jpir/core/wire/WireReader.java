package org.jpir.core.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jpir.core.lwe.BPacking;
import org.jpir.core.params.Params;
import org.jpir.core.wire.Wire.WireException;

/**
 * A bounds-checked reader over the payload of a message (everything between the header and
 * the CRC): every read checks the bytes actually present first, so nothing is allocated for a
 * length the message does not hold. {@link Header#open} makes one positioned after the header.
 */
final class WireReader {
  final byte[] msg;
  private final String what;
  private final int end;
  int pos;

  /** A reader of {@code msg} (a {@code what}, for messages) from byte {@code pos} to the CRC. */
  WireReader(byte[] msg, int pos, String what) {
    this.msg = msg;
    this.pos = pos;
    this.what = what;
    this.end = msg.length - Frame.CRC_BYTES;
  }

  /** Bytes left before the CRC. */
  int remaining() {
    return end - pos;
  }

  /** Throws naming {@code field} unless {@code bytes} bytes are left. */
  void need(long bytes, String field) {
    if (bytes < 0 || bytes > remaining()) {
      throw new WireException("truncated " + what + ": " + field + " needs " + bytes
          + " bytes, " + Math.max(0, remaining()) + " present");
    }
  }

  /** An unsigned byte. */
  int u8(String field) {
    need(1, field);
    return msg[pos++] & 0xFF;
  }

  /** An unsigned big-endian 16-bit value. */
  int u16(String field) {
    need(2, field);
    int v = ((msg[pos] & 0xFF) << 8) | (msg[pos + 1] & 0xFF);
    pos += 2;
    return v;
  }

  /** A big-endian 32-bit value. */
  int i32(String field) {
    need(4, field);
    int v = ((msg[pos] & 0xFF) << 24) | ((msg[pos + 1] & 0xFF) << 16)
        | ((msg[pos + 2] & 0xFF) << 8) | (msg[pos + 3] & 0xFF);
    pos += 4;
    return v;
  }

  /** A big-endian 64-bit value. */
  long i64(String field) {
    long hi = i32(field) & 0xFFFFFFFFL;
    long lo = i32(field) & 0xFFFFFFFFL;
    return (hi << 32) | lo;
  }

  /** A copy of the next {@code len} bytes. */
  byte[] bytes(int len, String field) {
    need(len, field);
    byte[] b = Arrays.copyOfRange(msg, pos, pos + len);
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

  /** Throws unless every byte before the CRC was read. */
  void expectEnd() {
    if (pos != end) {
      throw new WireException(what + " has " + (end - pos) + " unexpected trailing bytes");
    }
  }
}
