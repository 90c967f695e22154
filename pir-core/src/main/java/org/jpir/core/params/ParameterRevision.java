package org.jpir.core.params;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The revision of a preset's parameters: the first 8 bytes (big-endian) of the SHA-256 of a
 * canonical encoding of its full parameter record, shown as 16 hex digits. Two parameter sets
 * have the same revision exactly when every field that gives keys, queries and answers their
 * meaning is the same (barring a 64-bit hash collision), so the wire headers carry it and a
 * reader refuses a message made under other parameters of the same preset id.
 *
 * <p>The encoding ({@link #encoding(Params)}, {@link #encoding(CompactParams)}) starts with
 * {@value #DOMAIN} (u16 length + UTF-8) and lists every field as its name (u16 length + UTF-8), a type tag and its
 * value, big-endian, in a fixed order: integers as {@code 'i'} + u32, doubles as {@code 'd'} +
 * the u64 of {@link Double#doubleToLongBits} (exact IEEE bits, no decimal rendering), booleans
 * as {@code 'z'} + u8, strings as {@code 's'} + UTF. A classic preset lists the 14 fields of
 * {@link Params} and its geometry rules ({@link Geometry#maxRows(Params)}, {@link
 * Geometry#PHASE1_MAX_WIDTH_BITS}); a compact preset lists its server's and its keys' fields
 * ({@code server.} and {@code keys.} prefixes), the key-switching gadget, the b roundings, the
 * phase-1 digits, its noise budget ({@link CompactParams#maxRows}, {@link
 * CompactParams#BUDGET_COLS}, {@link CompactParams#MAX_LOG2_FAILURE}) and its query layout
 * ({@link CompactParams#layout}) at every sampled geometry ({@link #layoutRows} rows x 2^0 to
 * 2^20 columns). Everything is integers or exact bits, so the revision is the same on every JVM.
 */
public final class ParameterRevision {
  /** The first field of every encoding: names the scheme of the encoding itself. */
  public static final String DOMAIN = "jpir parameter revision 1";
  /** Bytes of a revision on the wire. */
  public static final int BYTES = 8;
  /** log2 of the most columns at which the compact layout is sampled: 2^20. */
  static final int LAYOUT_MAX_LOG_COLS = 20;

  private static final Map<Object, Long> CACHE = new ConcurrentHashMap<>();

  private ParameterRevision() {}

  /**
   * The revision of the preset {@code p} belongs to: the revision of its compact preset when
   * {@code p} is the server or the key parameters of one of {@link CompactParams#all}, else of
   * {@code p} alone. Computed once per parameter set.
   */
  public static long of(Params p) {
    Long cached = CACHE.get(p);
    if (cached != null) {
      return cached;
    }
    CompactParams cp = compactOf(p);
    long r = cp != null ? of(cp) : hash(encoding(p));
    CACHE.put(p, r);
    return r;
  }

  /** The revision of the compact preset {@code cp} (its full record). */
  public static long of(CompactParams cp) {
    Long cached = CACHE.get(cp);
    if (cached != null) {
      return cached;
    }
    long r = hash(encoding(cp));
    CACHE.put(cp, r);
    return r;
  }

  /**
   * The revision of the shipped preset whose id is {@code presetId} ({@link Presets#all}, or the
   * key parameters of one of {@link CompactParams#all}; insecure ones included).
   *
   * @throws IllegalArgumentException naming the id when no shipped preset has it
   */
  public static long forId(String presetId) {
    for (Params p : Presets.all()) {
      if (p.id().equals(presetId)) {
        return of(p);
      }
    }
    for (CompactParams c : CompactParams.all()) {
      if (c.keys().id().equals(presetId)) {
        return of(c);
      }
    }
    throw new IllegalArgumentException("no shipped preset has the id '" + presetId + "'");
  }

  /** A revision as 16 lower-case hex digits. */
  public static String hex(long revision) {
    return String.format(Locale.ROOT, "%016x", revision);
  }

  /** The compact preset of {@link CompactParams#all} whose server or keys are {@code p}, or null. */
  private static CompactParams compactOf(Params p) {
    for (CompactParams c : CompactParams.all()) {
      if (c.server().equals(p) || c.keys().equals(p)) {
        return c;
      }
    }
    return null;
  }

  /** The first {@link #BYTES} bytes of the SHA-256 of {@code encoding}, big-endian. */
  static long hash(byte[] encoding) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(encoding);
      long v = 0;
      for (int i = 0; i < BYTES; i++) {
        v = (v << 8) | (d[i] & 0xFF);
      }
      return v;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The canonical encoding of a classic preset's record (see the class comment). */
  static byte[] encoding(Params p) {
    Encoder e = new Encoder();
    e.text("kind", "classic");
    params(e, "", p);
    return e.bytes();
  }

  /** The canonical encoding of a compact preset's record (see the class comment). */
  static byte[] encoding(CompactParams cp) {
    Encoder e = new Encoder();
    e.text("kind", "compact");
    params(e, "server.", cp.server());
    params(e, "keys.", cp.keys());
    e.integer("ksLevels", cp.ksLevels());
    e.integer("ksBits", cp.ksBits());
    e.integer("queryBits", cp.queryBits());
    e.integer("keyBits", cp.keyBits());
    e.integer("phase1.limbBits", cp.phase1().limbBits());
    e.integer("phase1.limbs", cp.phase1().limbs());
    int maxRows = cp.maxRows();
    e.integer("maxRows", maxRows);
    e.integer("budgetCols", CompactParams.BUDGET_COLS);
    e.real("maxLog2Failure", CompactParams.MAX_LOG2_FAILURE);
    for (int rows : layoutRows(maxRows)) {
      for (int j = 0; j <= LAYOUT_MAX_LOG_COLS; j++) {
        CompactParams.Layout l = cp.layout(rows, 1 << j);
        String at = "layout " + rows + "x" + (1 << j) + ".";
        e.bool(at + "packed", l.packed());
        e.integer(at + "phase1Depth", l.phase1Depth());
        e.integer(at + "phase2Depth", l.phase2Depth());
        e.integer(at + "block", l.block());
      }
    }
    return e.bytes();
  }

  /** The rows at which the compact layout is sampled: the powers of two below maxRows, and it. */
  static List<Integer> layoutRows(int maxRows) {
    List<Integer> rows = new ArrayList<>();
    for (int r = 1; r < maxRows; r *= 2) {
      rows.add(r);
    }
    if (maxRows >= 1) {
      rows.add(maxRows);
    }
    return rows;
  }

  /** Every field of {@code p} in declaration order, then its geometry rules. */
  private static void params(Encoder e, String prefix, Params p) {
    e.text(prefix + "id", p.id());
    e.integer(prefix + "n", p.n());
    e.integer(prefix + "base2k", p.base2k());
    e.integer(prefix + "plaintextBits", p.plaintextBits());
    e.integer(prefix + "plaintextLimbs", p.plaintextLimbs());
    e.integer(prefix + "glweLimbs", p.glweLimbs());
    e.integer(prefix + "ggswLevels", p.ggswLevels());
    e.integer(prefix + "answerLimbs", p.answerLimbs());
    e.real(prefix + "sigma", p.sigma());
    e.integer(prefix + "securityBits", p.securityBits());
    e.integer(prefix + "answerBitsB", p.answerBitsB());
    e.integer(prefix + "answerBitsA", p.answerBitsA());
    e.integer(prefix + "ggswBits", p.ggswBits());
    e.bool(prefix + "scaledPlaintext", p.scaledPlaintext());
    e.integer(prefix + "geometry.maxRows", Geometry.maxRows(p));
    e.integer(prefix + "geometry.phase1MaxWidthBits", Geometry.PHASE1_MAX_WIDTH_BITS);
  }

  /** Named, typed, big-endian fields after {@link #DOMAIN}. */
  private static final class Encoder {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    Encoder() {
      write(() -> out.writeUTF(DOMAIN));
    }

    void integer(String name, int v) {
      field(name, 'i', () -> out.writeInt(v));
    }

    void real(String name, double v) {
      field(name, 'd', () -> out.writeLong(Double.doubleToLongBits(v)));
    }

    void bool(String name, boolean v) {
      field(name, 'z', () -> out.writeByte(v ? 1 : 0));
    }

    void text(String name, String v) {
      field(name, 's', () -> out.writeUTF(v));
    }

    byte[] bytes() {
      write(out::flush);
      return bytes.toByteArray();
    }

    private void field(String name, char tag, IoAction value) {
      write(() -> {
        out.writeUTF(name);
        out.writeByte(tag);
        value.run();
      });
    }

    private static void write(IoAction a) {
      try {
        a.run();
      } catch (IOException e) {
        throw new IllegalStateException("a byte array stream cannot fail", e);
      }
    }
  }

  /** A write that may throw (never does, into a byte array). */
  private interface IoAction {
    void run() throws IOException;
  }
}
