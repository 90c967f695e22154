package org.jpir.core.wire;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;

/**
 * The versioned binary wire format of keys, queries and answers. Every message is: magic
 * {@code "JPIR"}, format version (u16), message type (u8), preset id (u16 length + UTF-8), the
 * preset's parameter revision (u64, {@link ParameterRevision}), the type's fields (big-endian;
 * arrays as u32 length + elements), then a CRC-32 of everything before it ({@link Frame}).
 * Readers reject wrong magic, versions, types, presets, revisions, lengths, truncation and
 * checksum mismatches with a {@link WireException} naming what is wrong ({@link Header}): every
 * declared size is checked against the preset (and the database geometry, when given) and
 * against the bytes actually present before anything is allocated, so a decoder allocates at
 * most a few times the message's own size. {@code max*Bytes} give the largest valid message for
 * a preset and geometry, so a reader can refuse a larger file unread ({@link #readFile}).
 *
 * <p>This class is the entry point; the codecs are {@link QueryCodec}, {@link AnswerCodec} and
 * {@link KeyCodec}. Version 4 added the revision; the b parts of compact queries and evaluation
 * keys travel rounded and bit-packed (version 3, {@link org.jpir.core.lwe.BPacking}).
 */
public final class Wire {
  /** Current format version. */
  public static final int VERSION = Frame.VERSION;
  static final int TYPE_SECRET_KEY = Frame.TYPE_SECRET_KEY;
  static final int TYPE_QUERY = Frame.TYPE_QUERY;
  static final int TYPE_ANSWER = Frame.TYPE_ANSWER;
  static final int TYPE_EVALUATION_KEYS = Frame.TYPE_EVALUATION_KEYS;
  static final int TYPE_COMPACT_QUERY = Frame.TYPE_COMPACT_QUERY;
  static final int TYPE_SHARED_ANSWER = Frame.TYPE_SHARED_ANSWER;
  static final int TYPE_PACKING_KEY = Frame.TYPE_PACKING_KEY;
  /** Bytes of the trailing CRC-32. */
  static final int CRC_BYTES = Frame.CRC_BYTES;
  /** Longest client id ({@link EvaluationKeys#checkClientId}). */
  static final int MAX_CLIENT_ID = Frame.MAX_CLIENT_ID;

  private Wire() {}

  /** Bad input on the wire; the message names the field or check that failed. */
  public static final class WireException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    WireException(String message) {
      super(message);
    }
  }

  /**
   * Overwrites the last 4 bytes of {@code msg} with the CRC-32 of the bytes before them and
   * returns {@code msg}: for tools that forge hostile messages to test the decoders, which check
   * every field regardless of the checksum.
   */
  public static byte[] sealChecksum(byte[] msg) {
    return Frame.sealChecksum(msg);
  }

  /**
   * A query message of the shipped preset {@code presetId} (at its revision) holding {@code
   * fields} as given (header, fields, valid checksum), whatever they declare: for tools that
   * forge hostile queries.
   */
  public static byte[] forgeQuery(String presetId, byte[] fields) {
    return forge(TYPE_QUERY, presetId, ParameterRevision.forId(presetId), fields);
  }

  /** A message of {@code type} for a preset and revision with {@code fields}, checksum valid. */
  static byte[] forge(int type, String presetId, long revision, byte[] fields) {
    return Frame.forge(type, presetId, revision, fields);
  }

  /** Bytes of the header for a preset id: magic, version, type, id and revision. */
  static long headerBytes(String presetId) {
    return Frame.headerBytes(presetId);
  }

  // ---- largest valid messages (what a reader may refuse unread) ------------------------------

  /** The exact size of a query for preset {@code p} and geometry {@code g}. */
  public static long maxQueryBytes(Params p, Geometry g) {
    return Sizes.query(p, g).total();
  }

  /** The largest compact query for {@code cp} and geometry {@code g} (client id of 64 bytes). */
  public static long maxCompactQueryBytes(CompactParams cp, Geometry g) {
    return Sizes.compactQuery(cp, g).total();
  }

  /**
   * The largest answer of preset {@code p} for geometry {@code g}: every plane's b of all N
   * coefficients (an answer made for {@code g} may be smaller, {@link #answerBytes}).
   */
  public static long maxAnswerBytes(Params p, Geometry g) {
    return AnswerCodec.answerBytes(p, g.planes(), p.n());
  }

  /** The exact size of an answer of {@code planes} planes, the last plane's b of {@code nb}. */
  public static long answerBytes(Params p, int planes, int nb) {
    return AnswerCodec.answerBytes(p, planes, nb);
  }

  /**
   * The exact size of a shared-mask answer ({@link PlanePacking}) of {@code planes} planes whose
   * last plane's b holds {@code nb} coefficients.
   */
  public static long sharedAnswerBytes(Params p, int planes, int nb) {
    return AnswerCodec.sharedAnswerBytes(p, planes, nb);
  }

  /** The largest evaluation-key message for {@code cp} (client id of 64 bytes). */
  public static long maxEvaluationKeysBytes(CompactParams cp) {
    return KeyCodec.evaluationKeysBytes(cp, cp.automorphisms(), MAX_CLIENT_ID);
  }

  /** The exact size of evaluation keys of {@code depth} automorphisms and a client id's bytes. */
  public static long evaluationKeysBytes(CompactParams cp, int depth, int clientIdBytes) {
    return KeyCodec.evaluationKeysBytes(cp, depth, clientIdBytes);
  }

  /** The exact size of a secret key of preset {@code p}. */
  public static long maxSecretKeyBytes(Params p) {
    return KeyCodec.secretKeyBytes(p);
  }

  /** The exact size of a packing key of preset {@code p} for {@code planes} planes. */
  public static long packingKeyBytes(Params p, int planes) {
    return KeyCodec.packingKeyBytes(p, planes);
  }

  // ---- files ---------------------------------------------------------------------------------

  /**
   * Reads a file that must be a regular file (links are followed) of at most {@code maxBytes}
   * bytes, refusing it unread otherwise (a FIFO, a device, a directory, an oversized file); at
   * most {@code maxBytes + 1} bytes are read even if the file grows meanwhile.
   *
   * @throws WireException naming the file and the limit
   * @throws java.io.UncheckedIOException when it cannot be read
   */
  public static byte[] readFile(Path f, long maxBytes, String what) {
    return WireFiles.readFile(f, maxBytes, what);
  }

  /**
   * Reads a stream to its end, refusing more than {@code maxBytes} bytes (at most {@code maxBytes
   * + 1} are read).
   *
   * @throws WireException when the stream holds more
   */
  public static byte[] readBounded(InputStream in, long maxBytes, String what)
      throws IOException {
    return WireFiles.readBounded(in, maxBytes, what);
  }

  // ---- queries -------------------------------------------------------------------------------

  /**
   * Serializes a query of a shipped preset ({@link ParameterRevision#forId}).
   *
   * @throws IllegalArgumentException when no shipped preset has its id ({@link
   *     #writeQuery(ClientQuery, Params)} writes any)
   */
  public static byte[] writeQuery(ClientQuery q) {
    return QueryCodec.write(q, shippedRevision(q.paramsId(), "query"));
  }

  /** Serializes a query of preset {@code p}, stamped with its revision. */
  public static byte[] writeQuery(ClientQuery q, Params p) {
    requireId(q.paramsId(), p, "query");
    return QueryCodec.write(q, ParameterRevision.of(p));
  }

  /**
   * Parses and validates a query for preset {@code p} (any geometry the preset allows).
   *
   * @throws WireException naming the field that is wrong
   */
  public static ClientQuery readQuery(byte[] msg, Params p) {
    return QueryCodec.read(msg, p, null);
  }

  /**
   * Parses and validates a query for preset {@code p} and the database geometry {@code g} (null:
   * any geometry the preset allows). Every declared size is checked against the preset, the
   * geometry and the bytes present before anything is allocated.
   *
   * @throws WireException naming the field that is wrong
   */
  public static ClientQuery readQuery(byte[] msg, Params p, Geometry g) {
    return QueryCodec.read(msg, p, g);
  }

  /**
   * Serializes a compact query of a compact preset of {@link CompactParams#all}.
   *
   * @throws IllegalArgumentException when the preset is unknown or the query is not rounded to
   *     its bits
   */
  public static byte[] writeCompactQuery(CompactQuery q) {
    return QueryCodec.writeCompact(q, CompactParams.find(q.paramsId()));
  }

  /**
   * Serializes a compact query of {@code cp}, its b parts bit-packed at {@code cp.queryBits()}.
   *
   * @throws IllegalArgumentException when the query is not of {@code cp} or not rounded to its
   *     bits
   */
  public static byte[] writeCompactQuery(CompactQuery q, CompactParams cp) {
    return QueryCodec.writeCompact(q, cp);
  }

  /**
   * Parses and validates a compact query for the compact preset {@code cp} (any geometry it
   * allows).
   *
   * @throws WireException naming the field that is wrong
   */
  public static CompactQuery readCompactQuery(byte[] msg, CompactParams cp) {
    return QueryCodec.readCompact(msg, cp, null);
  }

  /**
   * Parses and validates a compact query for {@code cp} and geometry {@code g} (null: any
   * geometry {@code cp} allows); sizes are checked against both and the bytes present before
   * anything is allocated.
   *
   * @throws WireException naming the field that is wrong
   */
  public static CompactQuery readCompactQuery(byte[] msg, CompactParams cp, Geometry g) {
    return QueryCodec.readCompact(msg, cp, g);
  }

  // ---- answers -------------------------------------------------------------------------------

  /**
   * Serializes an answer of a shipped preset: its values bit-packed, most significant bit first,
   * per plane (one stream with a shared mask).
   *
   * @throws IllegalArgumentException when no shipped preset has its id ({@link
   *     #writeAnswer(Answer, Params)} writes any)
   */
  public static byte[] writeAnswer(Answer a) {
    return AnswerCodec.write(a, shippedRevision(a.paramsId(), "answer"));
  }

  /** Serializes an answer of preset {@code p}, stamped with its revision. */
  public static byte[] writeAnswer(Answer a, Params p) {
    requireId(a.paramsId(), p, "answer");
    return AnswerCodec.write(a, ParameterRevision.of(p));
  }

  /**
   * Parses an answer for preset {@code p} (any number of planes the message holds).
   *
   * @throws WireException naming the field that is wrong
   */
  public static Answer readAnswer(byte[] msg, Params p) {
    return AnswerCodec.read(msg, p, null);
  }

  /**
   * Parses an answer for preset {@code p} and geometry {@code g} (null: any plane count, b of 1
   * to N coefficients); sizes are checked against both and the bytes present before anything
   * is allocated; the padding bits of each plane must be zero.
   *
   * @throws WireException naming the field that is wrong
   */
  public static Answer readAnswer(byte[] msg, Params p, Geometry g) {
    return AnswerCodec.read(msg, p, g);
  }

  // ---- keys ----------------------------------------------------------------------------------

  /** Serializes a secret key (for the client's own storage; never send it). */
  public static byte[] writeSecretKey(SecretKey sk) {
    return KeyCodec.writeSecretKey(sk);
  }

  /**
   * The preset id in the header of a secret key of this format version (printable ASCII, at
   * most 64 characters), or null when {@code msg} is not one; nothing past the header is checked.
   * For naming the preset of a key made for another preset than the one expected.
   */
  public static String secretKeyPreset(byte[] msg) {
    return Header.secretKeyPreset(msg);
  }

  /**
   * Parses a secret key for preset {@code p}.
   *
   * @throws WireException naming the field that is wrong
   */
  public static SecretKey readSecretKey(byte[] msg, Params p) {
    return KeyCodec.readSecretKey(msg, p);
  }

  /**
   * Serializes a client's evaluation keys of a compact preset of {@link CompactParams#all}.
   *
   * @throws IllegalArgumentException when the preset is unknown or the keys are not rounded to
   *     its bits
   */
  public static byte[] writeEvaluationKeys(EvaluationKeys k) {
    return KeyCodec.writeEvaluationKeys(k, CompactParams.find(k.paramsId()));
  }

  /**
   * Serializes a client's evaluation keys of the compact preset {@code cp}, their b parts
   * bit-packed at {@code cp.keyBits()}.
   *
   * @throws IllegalArgumentException when the keys are not of {@code cp} or not rounded to its
   *     bits
   */
  public static byte[] writeEvaluationKeys(EvaluationKeys k, CompactParams cp) {
    return KeyCodec.writeEvaluationKeys(k, cp);
  }

  /**
   * Parses and validates evaluation keys for the compact preset {@code cp}; sizes are checked
   * against the preset and the bytes present before anything is allocated.
   *
   * @throws WireException naming the field that is wrong
   */
  public static EvaluationKeys readEvaluationKeys(byte[] msg, CompactParams cp) {
    return KeyCodec.readEvaluationKeys(msg, cp);
  }

  /**
   * Serializes the upload of a plane-packing key ({@link PlanePacking}): planes (u8), the 32-byte
   * seed, then the rows' b parts as 16-bit digits (u32 length, {@link PlanePacking#keyDigits}).
   */
  public static byte[] writePackingKey(Params p, PlanePacking.Upload u) {
    return KeyCodec.writePackingKey(p, u);
  }

  /**
   * Parses a packing key of preset {@code p} for geometry {@code g} (its planes); sizes are
   * checked before anything is allocated.
   *
   * @throws WireException naming the field that is wrong
   */
  public static PlanePacking.Upload readPackingKey(byte[] msg, Params p, Geometry g) {
    return KeyCodec.readPackingKey(msg, p, g);
  }

  private static long shippedRevision(String presetId, String what) {
    try {
      return ParameterRevision.forId(presetId);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot write a " + what + " of preset '" + presetId
          + "' without its parameters: no shipped preset has that id (pass the parameters)", e);
    }
  }

  private static void requireId(String paramsId, Params p, String what) {
    if (!paramsId.equals(p.id())) {
      throw new IllegalArgumentException("a " + what + " of preset '" + paramsId
          + "' cannot be written as one of preset '" + p.id() + "'");
    }
  }
}
