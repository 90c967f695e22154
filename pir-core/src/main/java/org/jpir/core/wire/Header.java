package org.jpir.core.wire;

import static org.jpir.core.wire.Frame.CRC_BYTES;
import static org.jpir.core.wire.Frame.MAGIC;
import static org.jpir.core.wire.Frame.PRESET_AT;
import static org.jpir.core.wire.Frame.TYPE_AT;
import static org.jpir.core.wire.Frame.VERSION;
import static org.jpir.core.wire.Frame.VERSION_AT;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;
import org.jpir.core.params.Security;
import org.jpir.core.wire.Wire.WireException;

/**
 * Reads and checks the header of a message ({@link Frame}): length, magic, version, type,
 * checksum, preset id and parameter revision, in that order and before anything is allocated.
 */
final class Header {
  /** The oldest format version there ever was (for naming an old file as such). */
  static final int FIRST_VERSION = 1;

  private Header() {}

  /**
   * Opens a message of {@code type} for preset {@code p} at its own revision ({@link
   * ParameterRevision#of(Params)}).
   */
  static WireReader open(byte[] msg, int type, Params p) {
    return open(msg, type, p, ParameterRevision.of(p));
  }

  /**
   * Opens a message of {@code type} for preset {@code p} whose header must carry {@code
   * revision}; returns a reader positioned after the header.
   *
   * @throws WireException naming the first check that fails
   */
  static WireReader open(byte[] msg, int type, Params p, long revision) {
    Security.requireAllowed(p);
    String what = Frame.typeName(type);
    if (msg == null || msg.length < Frame.headerBytes("") + CRC_BYTES) {
      throw new WireException("truncated " + what + ": only " + (msg == null ? 0 : msg.length)
          + " bytes");
    }
    if (!hasMagic(msg)) {
      throw new WireException("not a jpir message (bad magic) where a " + what
          + " was expected");
    }
    int version = u16(msg, VERSION_AT);
    if (version >= FIRST_VERSION && version < VERSION) {
      throw new WireException(what + " has wire format version " + version + ", which is no"
          + " longer supported (this build reads version " + VERSION + "): "
          + Frame.remedy(type));
    }
    if (version != VERSION) {
      throw new WireException(what + " has format version " + version + ", this build reads"
          + " version " + VERSION);
    }
    int t = msg[TYPE_AT] & 0xFF;
    if (t != type) {
      throw new WireException("expected a " + what + " but got a " + Frame.typeName(t));
    }
    if (Frame.checksum(msg) != Frame.storedChecksum(msg)) {
      throw new WireException(what + " is corrupted or truncated (checksum mismatch over "
          + msg.length + " bytes)");
    }
    WireReader in = new WireReader(msg, PRESET_AT, what);
    int len = in.u16("preset id length");
    in.need(len, "preset id");
    byte[] expected = p.id().getBytes(StandardCharsets.UTF_8);
    if (!Arrays.equals(msg, in.pos, in.pos + len, expected, 0, expected.length)) {
      throw new WireException(what + " is for preset " + quote(msg, in.pos, len)
          + ", expected '" + p.id() + "'");
    }
    in.pos += len;
    long got = in.i64("parameter revision");
    if (got != revision) {
      throw new WireException(what + " was made for preset " + p.id() + " revision "
          + ParameterRevision.hex(got) + ", but this build runs revision "
          + ParameterRevision.hex(revision) + " of it (its parameters changed): "
          + Frame.remedy(type));
    }
    return in;
  }

  /**
   * The preset id in the header of a secret key of this format version (printable ASCII, at
   * most 64 characters), or null when {@code msg} is not one; nothing past the header is checked.
   */
  static String secretKeyPreset(byte[] msg) {
    if (msg == null || msg.length < Frame.headerBytes("") + CRC_BYTES || !hasMagic(msg)) {
      return null;
    }
    int len = u16(msg, PRESET_AT);
    int id = PRESET_AT + 2;
    if (u16(msg, VERSION_AT) != VERSION || (msg[TYPE_AT] & 0xFF) != Frame.TYPE_SECRET_KEY
        || len > 64 || id + len + ParameterRevision.BYTES > msg.length - CRC_BYTES) {
      return null;
    }
    for (int i = id; i < id + len; i++) {
      if (msg[i] < 0x20 || msg[i] >= 0x7F) {
        return null;
      }
    }
    return new String(msg, id, len, StandardCharsets.US_ASCII);
  }

  private static boolean hasMagic(byte[] msg) {
    return Arrays.equals(msg, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  private static int u16(byte[] msg, int at) {
    return ((msg[at] & 0xFF) << 8) | (msg[at + 1] & 0xFF);
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
}
