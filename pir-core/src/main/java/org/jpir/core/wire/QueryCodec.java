package org.jpir.core.wire;

import static org.jpir.core.wire.Frame.CRC_BYTES;
import static org.jpir.core.wire.Frame.MAX_CLIENT_ID;
import static org.jpir.core.wire.Frame.TYPE_COMPACT_QUERY;
import static org.jpir.core.wire.Frame.TYPE_QUERY;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.jpir.core.lwe.Prg;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;
import org.jpir.core.wire.Wire.WireException;

/**
 * Classic queries (type 2: rows, cols, seed, the phase-1 and GGSW b parts as 16-bit digits) and
 * compact queries (type 5: client id, keys fingerprint, rows, cols, seed, query bits, the
 * phase-1 and phase-2 b parts rounded and bit-packed), and their largest sizes.
 */
final class QueryCodec {
  private QueryCodec() {}

  /** Serializes a classic query under the parameter revision {@code revision}. */
  static byte[] write(ClientQuery q, long revision) {
    try {
      ByteArrayOutputStream bytes = new Frame.Exact(Frame.headerBytes(q.paramsId()) + 8
          + q.seed().length + 4 + 2L * q.phase1B().length + 4 + 2L * q.ggswB().length
          + CRC_BYTES);
      DataOutputStream out = Frame.header(bytes, TYPE_QUERY, q.paramsId(), revision);
      out.writeInt(q.rows());
      out.writeInt(q.cols());
      out.write(q.seed());
      Fields.writeShorts(out, q.phase1B());
      Fields.writeShorts(out, q.ggswB());
      return Frame.finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@link Wire#readQuery(byte[], Params, Geometry)}. */
  static ClientQuery read(byte[] msg, Params p, Geometry g) {
    WireReader in = Header.open(msg, TYPE_QUERY, p);
    int rows = in.i32("rows");
    int cols = in.i32("cols");
    int maxRows = Geometry.maxRows(p);
    if (rows < 1 || rows > maxRows || cols < 1) {
      throw new WireException("query geometry " + rows + " x " + cols + " is invalid for preset "
          + p.id() + " (rows in [1, " + maxRows + "], cols >= 1)");
    }
    requireGeometry("query", rows, cols, g);
    byte[] seed = in.bytes(Prg.SEED_BYTES, "seed");
    long per = (long) p.glweLimbs() * p.n();
    short[] b1 = in.shorts("phase-1 part", (long) rows * p.plaintextLimbs() * per);
    short[] b2 = in.shorts("phase-2 part",
        (long) Geometry.levels(cols) * 2 * p.ggswLevels() * per);
    in.expectEnd();
    ClientQuery q = new ClientQuery(p.id(), rows, cols, seed, b1, b2);
    try {
      q.validate(p);
    } catch (IllegalArgumentException e) {
      throw new WireException("query is invalid: " + e.getMessage());
    }
    return q;
  }

  /** {@link Wire#writeCompactQuery(CompactQuery, CompactParams)}. */
  static byte[] writeCompact(CompactQuery q, CompactParams cp) {
    q.validate(cp);
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = Frame.header(bytes, TYPE_COMPACT_QUERY, q.paramsId(),
          ParameterRevision.of(cp));
      out.writeUTF(q.clientId());
      out.writeLong(q.keysFingerprint());
      out.writeInt(q.rows());
      out.writeInt(q.cols());
      out.write(q.seed());
      out.writeByte(cp.queryBits());
      Fields.writePacked(out, q.phase1B(), cp.keys(), cp.queryBits());
      Fields.writePacked(out, q.phase2B(), cp.keys(), cp.queryBits());
      return Frame.finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@link Wire#readCompactQuery(byte[], CompactParams, Geometry)}. */
  static CompactQuery readCompact(byte[] msg, CompactParams cp, Geometry g) {
    WireReader in = Header.open(msg, TYPE_COMPACT_QUERY, cp.server(), ParameterRevision.of(cp));
    String client = in.ascii("client id", MAX_CLIENT_ID);
    long fp = in.i64("keys fingerprint");
    int rows = in.i32("rows");
    int cols = in.i32("cols");
    try {
      cp.checkGeometry(rows, cols);
    } catch (IllegalArgumentException e) {
      throw new WireException("compact query geometry " + rows + " x " + cols + " is invalid: "
          + e.getMessage());
    }
    requireGeometry("compact query", rows, cols, g);
    byte[] seed = in.bytes(Prg.SEED_BYTES, "seed");
    in.bits("bits of b", cp.queryBits());
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    short[] b1 = in.packed("phase-1 part", cp.keys(), cp.queryBits(), per, 1, 1);
    int e2 = cp.phase2Glwes(rows, cols);
    short[] b2 = in.packed("phase-2 part", cp.keys(), cp.queryBits(), per, e2, e2);
    in.expectEnd();
    CompactQuery q = new CompactQuery(cp.id(), client, fp, rows, cols, seed, b1, b2);
    try {
      q.validate(cp);
    } catch (IllegalArgumentException e) {
      throw new WireException("compact query is invalid: " + e.getMessage());
    }
    return q;
  }

  private static void requireGeometry(String what, int rows, int cols, Geometry g) {
    if (g != null && (rows != g.rows() || cols != g.cols())) {
      throw new WireException(what + " was made for " + rows + " rows x " + cols
          + " columns, the database has " + g.rows() + " x " + g.cols());
    }
  }
}
