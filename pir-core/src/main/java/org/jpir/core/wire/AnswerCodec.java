package org.jpir.core.wire;

import static org.jpir.core.wire.Frame.CRC_BYTES;
import static org.jpir.core.wire.Frame.TYPE_ANSWER;
import static org.jpir.core.wire.Frame.TYPE_SHARED_ANSWER;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.jpir.core.params.AnswerSwitch;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.wire.Wire.WireException;

/**
 * Answers (type 3: planes, N, bits of b and of a, the last plane's b count, then each plane's
 * switched values bit-packed, most significant bit first) and shared-mask answers (type 6: the
 * same fields, then one bit stream of every plane's b and the shared a), and their sizes.
 */
final class AnswerCodec {
  /** Bytes of the fields before the values: planes, N (u32), two bit widths (u8), b count. */
  static final int SHAPE_BYTES = 4 + 4 + 1 + 1 + 4;

  private AnswerCodec() {}

  /** The exact size of an answer of {@code planes} planes, the last one's b of {@code nb}. */
  static long answerBytes(Params p, int planes, int nb) {
    return Frame.headerBytes(p.id()) + SHAPE_BYTES
        + Answer.payloadBytes(planes, p.n(), p.answerBitsB(), p.answerBitsA(), nb) + CRC_BYTES;
  }

  /** The exact size of a shared-mask answer of {@code planes} planes, the last b of {@code nb}. */
  static long sharedAnswerBytes(Params p, int planes, int nb) {
    return Frame.headerBytes(p.id()) + SHAPE_BYTES
        + Answer.sharedPayloadBytes(planes, p.n(), p.answerBitsB(), p.answerBitsA(), nb)
        + CRC_BYTES;
  }

  /** Serializes an answer (either kind) under the parameter revision {@code revision}. */
  static byte[] write(Answer a, long revision) {
    try {
      ByteArrayOutputStream bytes = new Frame.Exact(Frame.headerBytes(a.paramsId())
          + SHAPE_BYTES + a.sizeBytes() + CRC_BYTES);
      DataOutputStream out = Frame.header(bytes,
          a.sharedA() ? TYPE_SHARED_ANSWER : TYPE_ANSWER, a.paramsId(), revision);
      out.writeInt(a.planes());
      out.writeInt(a.n());
      out.writeByte(a.bitsB());
      out.writeByte(a.bitsA());
      out.writeInt(a.bCoefficients());
      if (a.sharedA()) {
        writeSharedValues(out, a);
      } else {
        writePlanes(out, a);
      }
      return Frame.finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Each plane's b then a values, bit-packed and padded to a byte per plane. */
  private static void writePlanes(DataOutputStream out, Answer a) throws IOException {
    long[] v = a.values();
    for (int pl = 0; pl < a.planes(); pl++) {
      int nb = a.bCoefficients(pl);
      byte[] buf = new byte[(int) Answer.planeBytes(a.n(), a.bitsB(), a.bitsA(), nb)];
      int off = a.bOffset(pl);
      long bit = 0;
      for (int j = 0; j < nb + a.n(); j++) {
        bit = Fields.putBits(buf, bit, v[off + j], j < nb ? a.bitsB() : a.bitsA());
      }
      out.write(buf);
    }
  }

  /**
   * One bit stream: the b values of every plane in order (N, .., N, bCoefficients), then the N
   * values of the shared a, padded to a byte.
   */
  private static void writeSharedValues(DataOutputStream out, Answer a) throws IOException {
    byte[] buf = new byte[(int) a.sizeBytes()];
    long[] v = a.values();
    int nbAll = v.length - a.n();
    long bit = 0;
    for (int j = 0; j < v.length; j++) {
      bit = Fields.putBits(buf, bit, v[j], j < nbAll ? a.bitsB() : a.bitsA());
    }
    out.write(buf);
  }

  /** {@link Wire#readAnswer(byte[], Params, Geometry)}. */
  static Answer read(byte[] msg, Params p, Geometry g) {
    boolean shared = msg != null && msg.length > Frame.TYPE_AT
        && (msg[Frame.TYPE_AT] & 0xFF) == TYPE_SHARED_ANSWER;
    WireReader in = Header.open(msg, shared ? TYPE_SHARED_ANSWER : TYPE_ANSWER, p);
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
    long[] v = shared ? readSharedValues(in, planes, n, bitsB, bitsA, nb)
        : readPlanes(in, planes, n, bitsB, bitsA, nb);
    in.expectEnd();
    return new Answer(p.id(), planes, n, bitsB, bitsA, nb, v, shared);
  }

  private static long[] readSharedValues(WireReader in, int planes, int n, int bitsB,
      int bitsA, int nb) {
    long payload = Answer.sharedPayloadBytes(planes, n, bitsB, bitsA, nb);
    in.need(payload, "data");
    long[] v = new long[Math.toIntExact(Answer.valueCount(planes, n, nb, true))];
    int nbAll = v.length - n;
    long bit = 0;
    for (int j = 0; j < v.length; j++) {
      int bits = j < nbAll ? bitsB : bitsA;
      v[j] = Fields.getBits(in.msg, in.pos, bit, bits);
      bit += bits;
    }
    long pad = payload * 8 - bit;
    if (pad > 0 && Fields.getBits(in.msg, in.pos, bit, (int) pad) != 0) {
      throw new WireException("shared-mask answer has non-zero padding bits");
    }
    in.pos += (int) payload;
    return v;
  }

  private static long[] readPlanes(WireReader in, int planes, int n, int bitsB, int bitsA,
      int nb) {
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
        v[off + j] = Fields.getBits(in.msg, base, bit, bits);
        bit += bits;
      }
      long pad = planeBytes * 8 - bit;
      if (pad > 0 && Fields.getBits(in.msg, base, bit, (int) pad) != 0) {
        throw new WireException("answer plane " + pl + " has non-zero padding bits");
      }
      base += (int) planeBytes;
    }
    in.pos = base;
    return v;
  }
}
