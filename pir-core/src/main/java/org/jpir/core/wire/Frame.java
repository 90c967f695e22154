package org.jpir.core.wire;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import org.jpir.core.params.ParameterRevision;

/**
 * The frame every wire message shares, and how it is written: the header (magic {@code "JPIR"},
 * format version u16, message type u8, preset id as u16 length + UTF-8, the preset's parameter
 * revision u64), the type's fields, then a CRC-32 of everything before it. {@link Header} reads
 * and checks it.
 */
final class Frame {
  /** Current format version: 4 added the parameter revision to the header. */
  static final int VERSION = 4;
  static final byte[] MAGIC = {'J', 'P', 'I', 'R'};
  static final int TYPE_SECRET_KEY = 1;
  static final int TYPE_QUERY = 2;
  static final int TYPE_ANSWER = 3;
  static final int TYPE_EVALUATION_KEYS = 4;
  static final int TYPE_COMPACT_QUERY = 5;
  static final int TYPE_SHARED_ANSWER = 6;
  static final int TYPE_PACKING_KEY = 7;
  /** Offset of the version (u16), the type (u8) and the preset id's length (u16). */
  static final int VERSION_AT = 4;
  static final int TYPE_AT = 6;
  static final int PRESET_AT = 7;
  /** Bytes of the trailing CRC-32. */
  static final int CRC_BYTES = 4;
  /** Longest client id ({@link EvaluationKeys#checkClientId}). */
  static final int MAX_CLIENT_ID = 64;

  private Frame() {}

  /** The name of a message type for error messages. */
  static String typeName(int type) {
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

  /** What a user does about a message of {@code type} made for other parameters. */
  static String remedy(int type) {
    switch (type) {
      case TYPE_SECRET_KEY:
        return "make a new key with `./pir client keygen`";
      case TYPE_EVALUATION_KEYS:
      case TYPE_PACKING_KEY:
        return "make new keys with `./pir client keygen` and upload them with `./pir client evk`";
      case TYPE_QUERY:
      case TYPE_COMPACT_QUERY:
        return "make new keys with `./pir client keygen` (and `./pir client evk`), then a new"
            + " query";
      default:
        return "the client and the server run different jpir builds; run one on both";
    }
  }

  /**
   * Bytes of the header: magic, version, type, the preset id (u16 length + bytes) and the
   * revision.
   */
  static long headerBytes(String presetId) {
    return MAGIC.length + 2 + 1 + 2 + presetId.getBytes(StandardCharsets.UTF_8).length
        + ParameterRevision.BYTES;
  }

  /** Starts a message of {@code type}: writes the header into {@code bytes}. */
  static DataOutputStream header(ByteArrayOutputStream bytes, int type, String preset,
      long revision) throws IOException {
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(MAGIC);
    out.writeShort(VERSION);
    out.writeByte(type);
    out.writeUTF(preset);
    out.writeLong(revision);
    return out;
  }

  /** Ends a message: appends its CRC-32 and returns its bytes. */
  static byte[] finish(ByteArrayOutputStream bytes, DataOutputStream out) throws IOException {
    out.writeInt(0); // the CRC's place
    out.flush();
    return sealChecksum(bytes instanceof Exact ? ((Exact) bytes).array() : bytes.toByteArray());
  }

  /**
   * A byte stream allocated once at the message's known size, whose array is handed out without
   * the copy {@code toByteArray} makes: a classic query of 1024 rows is about 200 MB, and growing
   * a stream to it by doubling needs about three times that.
   */
  static final class Exact extends ByteArrayOutputStream {
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
  static int checksum(byte[] msg) {
    CRC32 crc = new CRC32();
    crc.update(msg, 0, msg.length - CRC_BYTES);
    return (int) crc.getValue();
  }

  /** The CRC-32 stored in the last {@link #CRC_BYTES} bytes of {@code msg}. */
  static int storedChecksum(byte[] msg) {
    int e = msg.length - CRC_BYTES;
    return ((msg[e] & 0xFF) << 24) | ((msg[e + 1] & 0xFF) << 16) | ((msg[e + 2] & 0xFF) << 8)
        | (msg[e + 3] & 0xFF);
  }

  /** Overwrites the last {@link #CRC_BYTES} bytes of {@code msg} with its CRC-32; returns it. */
  static byte[] sealChecksum(byte[] msg) {
    if (msg.length < CRC_BYTES) {
      throw new IllegalArgumentException("a message of " + msg.length + " bytes has no checksum");
    }
    int v = checksum(msg);
    for (int i = 0; i < CRC_BYTES; i++) {
      msg[msg.length - CRC_BYTES + i] = (byte) (v >>> (24 - 8 * i));
    }
    return msg;
  }

  /** A message of {@code type} for a preset and revision with {@code fields}, checksum valid. */
  static byte[] forge(int type, String presetId, long revision, byte[] fields) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = header(bytes, type, presetId, revision);
      out.write(fields);
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
