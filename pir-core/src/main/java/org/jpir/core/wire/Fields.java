package org.jpir.core.wire;

import java.io.DataOutputStream;
import java.io.IOException;
import org.jpir.core.lwe.BPacking;
import org.jpir.core.params.Params;

/**
 * How the array fields of a message are written: 16-bit words (u32 length + big-endian words),
 * rounded b parts bit-packed ({@link BPacking}: u32 length in K-bit digits + packed bits) and
 * bit strings most significant bit first. {@link WireReader} reads them back.
 */
final class Fields {
  private Fields() {}

  /** Writes {@code a.length} and the values big-endian, through a buffer of at most 64 KiB. */
  static void writeShorts(DataOutputStream out, short[] a) throws IOException {
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
  static void writePacked(DataOutputStream out, short[] a, Params kp, int bits)
      throws IOException {
    out.writeInt(a.length);
    out.write(BPacking.pack(a, kp.n(), kp.glweLimbs(), kp.base2k(), bits));
  }

  /** Bytes of a packed b array of {@code digits} K-bit digits: u32 length + packed bits. */
  static long packedBytes(long digits, Params kp, int bits) {
    return 4 + BPacking.bytes(digits / kp.glweLimbs(), bits);
  }

  /** Writes the low {@code bits} bits of {@code value} at bit {@code pos} of buf (MSB first). */
  static long putBits(byte[] buf, long pos, long value, int bits) {
    for (int i = bits - 1; i >= 0; i--) {
      if (((value >>> i) & 1) != 0) {
        buf[(int) (pos >>> 3)] |= (byte) (0x80 >>> (pos & 7));
      }
      pos++;
    }
    return pos;
  }

  /** Reads {@code bits} bits at bit {@code pos} of {@code msg} from byte {@code base} (MSB first). */
  static long getBits(byte[] msg, int base, long pos, int bits) {
    long v = 0;
    for (int i = 0; i < bits; i++) {
      long p = pos + i;
      v = (v << 1) | ((msg[base + (int) (p >>> 3)] >>> (7 - (p & 7))) & 1);
    }
    return v;
  }
}
