package org.jpir.core;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * The versioned binary wire format of keys, queries and answers. Every message is: magic
 * {@code "JPIR"}, format version (u16), message type (u8), preset id (u16 length + UTF-8), the
 * type's fields (big-endian; arrays as u32 length + elements), then a CRC-32 of everything
 * before it. Readers reject wrong magic, versions, types, presets, lengths, truncation and
 * checksum mismatches with a {@link WireException} naming what is wrong.
 */
public final class Wire {
  /** Current format version. */
  public static final int VERSION = 1;
  static final byte[] MAGIC = {'J', 'P', 'I', 'R'};
  static final int TYPE_SECRET_KEY = 1;
  static final int TYPE_QUERY = 2;
  static final int TYPE_ANSWER = 3;
  static final int TYPE_EVALUATION_KEYS = 4;
  static final int TYPE_COMPACT_QUERY = 5;
  /** Largest array accepted (guards against absurd lengths in corrupted input). */
  static final int MAX_ARRAY = 1 << 30;

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
    out.flush();
    CRC32 crc = new CRC32();
    crc.update(bytes.toByteArray());
    out.writeInt((int) crc.getValue());
    out.flush();
    return bytes.toByteArray();
  }

  private static void writeShorts(DataOutputStream out, short[] a) throws IOException {
    out.writeInt(a.length);
    byte[] buf = new byte[2 * a.length];
    for (int i = 0; i < a.length; i++) {
      buf[2 * i] = (byte) (a[i] >> 8);
      buf[2 * i + 1] = (byte) a[i];
    }
    out.write(buf);
  }

  /** Opens a message: checks length, checksum, magic, version, type and preset. */
  private static DataInputStream open(byte[] msg, int type, Params p) {
    if (msg == null || msg.length < MAGIC.length + 2 + 1 + 2 + 4) {
      throw new WireException("truncated " + typeName(type) + ": only "
          + (msg == null ? 0 : msg.length) + " bytes");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (msg[i] != MAGIC[i]) {
        throw new WireException("not a jpir message (bad magic) where a " + typeName(type)
            + " was expected");
      }
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(msg));
    try {
      in.skipNBytes(MAGIC.length);
      int version = in.readUnsignedShort();
      if (version != VERSION) {
        throw new WireException(typeName(type) + " has format version " + version
            + ", this build reads version " + VERSION);
      }
      int t = in.readUnsignedByte();
      if (t != type) {
        throw new WireException("expected a " + typeName(type) + " but got a " + typeName(t));
      }
      CRC32 crc = new CRC32();
      crc.update(msg, 0, msg.length - 4);
      int stored = ((msg[msg.length - 4] & 0xFF) << 24) | ((msg[msg.length - 3] & 0xFF) << 16)
          | ((msg[msg.length - 2] & 0xFF) << 8) | (msg[msg.length - 1] & 0xFF);
      if ((int) crc.getValue() != stored) {
        throw new WireException(typeName(type) + " is corrupted or truncated (checksum mismatch"
            + " over " + msg.length + " bytes)");
      }
      String preset = in.readUTF();
      if (!preset.equals(p.id())) {
        throw new WireException(typeName(type) + " is for preset '" + preset + "', expected '"
            + p.id() + "'");
      }
      return in;
    } catch (IOException e) {
      throw new WireException("truncated " + typeName(type) + " header");
    }
  }

  private static short[] readShorts(DataInputStream in, String what, long expected)
      throws IOException {
    int len = in.readInt();
    if (len < 0 || len > MAX_ARRAY || (expected >= 0 && len != expected)) {
      throw new WireException(what + " has length " + len
          + (expected >= 0 ? ", expected " + expected : ""));
    }
    byte[] buf = new byte[2 * len];
    in.readFully(buf);
    short[] a = new short[len];
    for (int i = 0; i < len; i++) {
      a[i] = (short) (((buf[2 * i] & 0xFF) << 8) | (buf[2 * i + 1] & 0xFF));
    }
    return a;
  }

  private static void expectEnd(DataInputStream in, String what) throws IOException {
    if (in.available() != 4) {
      throw new WireException(what + " has " + (in.available() - 4)
          + " unexpected trailing bytes");
    }
  }

  /** Serializes a query. */
  public static byte[] writeQuery(ClientQuery q) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
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

  /** Parses and validates a query for preset {@code p}. */
  public static ClientQuery readQuery(byte[] msg, Params p) {
    DataInputStream in = open(msg, TYPE_QUERY, p);
    try {
      int rows = in.readInt();
      int cols = in.readInt();
      if (rows < 1 || cols < 1) {
        throw new WireException("query geometry " + rows + " x " + cols + " is invalid");
      }
      byte[] seed = new byte[Prg.SEED_BYTES];
      in.readFully(seed);
      long per = (long) p.glweLimbs() * p.n();
      short[] b1 = readShorts(in, "query phase-1 part", (long) rows * p.plaintextLimbs() * per);
      short[] b2 = readShorts(in, "query phase-2 part",
          (long) Noise.levels(cols) * 2 * p.ggswLevels() * per);
      expectEnd(in, "query");
      ClientQuery q = new ClientQuery(p.id(), rows, cols, seed, b1, b2);
      q.validate(p);
      return q;
    } catch (EOFException e) {
      throw new WireException("truncated query");
    } catch (IOException e) {
      throw new WireException("unreadable query: " + e.getMessage());
    }
  }

  /** Serializes an answer. */
  public static byte[] writeAnswer(Answer a) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = header(bytes, TYPE_ANSWER, a.paramsId());
      out.writeInt(a.planes());
      out.writeInt(a.limbs());
      writeShorts(out, a.data());
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Parses an answer for preset {@code p}. */
  public static Answer readAnswer(byte[] msg, Params p) {
    DataInputStream in = open(msg, TYPE_ANSWER, p);
    try {
      int planes = in.readInt();
      int limbs = in.readInt();
      if (planes < 1 || limbs < 1 || limbs > p.glweLimbs()) {
        throw new WireException("answer shape " + planes + " planes x " + limbs
            + " limbs is invalid for preset " + p.id());
      }
      short[] data = readShorts(in, "answer data", (long) planes * 2 * limbs * p.n());
      expectEnd(in, "answer");
      return new Answer(p.id(), planes, limbs, data);
    } catch (EOFException e) {
      throw new WireException("truncated answer");
    } catch (IOException e) {
      throw new WireException("unreadable answer: " + e.getMessage());
    }
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

  /** Parses a secret key for preset {@code p}. */
  public static SecretKey readSecretKey(byte[] msg, Params p) {
    DataInputStream in = open(msg, TYPE_SECRET_KEY, p);
    try {
      int len = in.readInt();
      if (len != p.n()) {
        throw new WireException("secret key has " + len + " coefficients, expected " + p.n());
      }
      long[] s = new long[len];
      for (int i = 0; i < len; i++) {
        s[i] = in.readByte();
      }
      expectEnd(in, "secret key");
      try {
        return new SecretKey(p, s);
      } catch (IllegalArgumentException e) {
        throw new WireException("secret key is invalid: " + e.getMessage());
      }
    } catch (EOFException e) {
      throw new WireException("truncated secret key");
    } catch (IOException e) {
      throw new WireException("unreadable secret key: " + e.getMessage());
    }
  }
  /** Serializes a client's evaluation keys. */
  public static byte[] writeEvaluationKeys(EvaluationKeys k) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = header(bytes, TYPE_EVALUATION_KEYS, k.paramsId());
      out.writeUTF(k.clientId());
      out.write(k.seed());
      writeShorts(out, k.kskB());
      writeShorts(out, k.ggswSB());
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Parses and validates evaluation keys for the compact preset {@code cp}. */
  public static EvaluationKeys readEvaluationKeys(byte[] msg, CompactParams cp) {
    DataInputStream in = open(msg, TYPE_EVALUATION_KEYS, cp.server());
    try {
      String client = in.readUTF();
      byte[] seed = new byte[Prg.SEED_BYTES];
      in.readFully(seed);
      long per = (long) cp.keys().glweLimbs() * cp.keys().n();
      short[] ksk = readShorts(in, "evaluation keys' key-switching part",
          (long) cp.automorphisms() * cp.ksLevels() * per);
      short[] g = readShorts(in, "evaluation keys' GGSW(s) part",
          2L * cp.keys().ggswLevels() * per);
      expectEnd(in, "evaluation keys");
      EvaluationKeys k = new EvaluationKeys(cp.id(), client, seed, ksk, g);
      try {
        k.validate(cp);
      } catch (IllegalArgumentException e) {
        throw new WireException("evaluation keys are invalid: " + e.getMessage());
      }
      return k;
    } catch (EOFException e) {
      throw new WireException("truncated evaluation keys");
    } catch (IOException e) {
      throw new WireException("unreadable evaluation keys: " + e.getMessage());
    }
  }

  /** Serializes a compact query. */
  public static byte[] writeCompactQuery(CompactQuery q) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = header(bytes, TYPE_COMPACT_QUERY, q.paramsId());
      out.writeUTF(q.clientId());
      out.writeLong(q.keysFingerprint());
      out.writeInt(q.rows());
      out.writeInt(q.cols());
      out.write(q.seed());
      writeShorts(out, q.phase1B());
      writeShorts(out, q.phase2B());
      return finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Parses and validates a compact query for the compact preset {@code cp}. */
  public static CompactQuery readCompactQuery(byte[] msg, CompactParams cp) {
    DataInputStream in = open(msg, TYPE_COMPACT_QUERY, cp.server());
    try {
      String client = in.readUTF();
      long fp = in.readLong();
      int rows = in.readInt();
      int cols = in.readInt();
      if (rows < 1 || cols < 1) {
        throw new WireException("compact query geometry " + rows + " x " + cols + " is invalid");
      }
      byte[] seed = new byte[Prg.SEED_BYTES];
      in.readFully(seed);
      long per = (long) cp.keys().glweLimbs() * cp.keys().n();
      short[] b1 = readShorts(in, "compact query phase-1 part", per);
      short[] b2 = readShorts(in, "compact query phase-2 part",
          Noise.levels(cols) == 0 ? 0 : per);
      expectEnd(in, "compact query");
      CompactQuery q = new CompactQuery(cp.id(), client, fp, rows, cols, seed, b1, b2);
      try {
        q.validate(cp);
      } catch (IllegalArgumentException e) {
        throw new WireException("compact query is invalid: " + e.getMessage());
      }
      return q;
    } catch (EOFException e) {
      throw new WireException("truncated compact query");
    } catch (IOException e) {
      throw new WireException("unreadable compact query: " + e.getMessage());
    }
  }
}
