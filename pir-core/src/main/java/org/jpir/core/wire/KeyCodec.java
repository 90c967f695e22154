package org.jpir.core.wire;

import static org.jpir.core.wire.Frame.CRC_BYTES;
import static org.jpir.core.wire.Frame.MAX_CLIENT_ID;
import static org.jpir.core.wire.Frame.TYPE_EVALUATION_KEYS;
import static org.jpir.core.wire.Frame.TYPE_PACKING_KEY;
import static org.jpir.core.wire.Frame.TYPE_SECRET_KEY;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;
import org.jpir.core.wire.Wire.WireException;

/**
 * Keys: secret keys (type 1: u32 count + one signed byte per coefficient), evaluation keys
 * (type 4: client id, seed, key bits, the key-switching and GGSW(s) b parts bit-packed) and
 * plane-packing keys (type 7: planes, seed, the rows' b parts as 16-bit digits), and their sizes.
 */
final class KeyCodec {
  private KeyCodec() {}

  /** The exact size of a secret key of preset {@code p}. */
  static long secretKeyBytes(Params p) {
    return Frame.headerBytes(p.id()) + 4 + p.n() + CRC_BYTES;
  }

  /** The exact size of evaluation keys of {@code depth} automorphisms and a client id's bytes. */
  static long evaluationKeysBytes(CompactParams cp, int depth, int clientIdBytes) {
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    return Frame.headerBytes(cp.id()) + 2 + clientIdBytes + Prg.SEED_BYTES + 1
        + Fields.packedBytes((long) depth * cp.ksLevels() * per, cp.keys(), cp.keyBits())
        + Fields.packedBytes(2L * cp.keys().ggswLevels() * per, cp.keys(), cp.keyBits())
        + CRC_BYTES;
  }

  /** The exact size of a packing key of preset {@code p} for {@code planes} planes. */
  static long packingKeyBytes(Params p, int planes) {
    return Frame.headerBytes(p.id()) + 1 + Prg.SEED_BYTES + 4
        + 2 * new PlanePacking(p, planes).keyDigits() + CRC_BYTES;
  }

  /** {@link Wire#writeSecretKey}: under the revision of the key's own parameters. */
  static byte[] writeSecretKey(SecretKey sk) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = Frame.header(bytes, TYPE_SECRET_KEY, sk.params().id(),
          ParameterRevision.of(sk.params()));
      long[] s = sk.coefficients();
      out.writeInt(s.length);
      for (long c : s) {
        out.writeByte((int) c);
      }
      return Frame.finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@link Wire#readSecretKey}. */
  static SecretKey readSecretKey(byte[] msg, Params p) {
    WireReader in = Header.open(msg, TYPE_SECRET_KEY, p);
    int len = in.i32("coefficient count");
    if (len != p.n()) {
      throw new WireException("secret key has " + len + " coefficients, expected " + p.n());
    }
    byte[] raw = in.bytes(len, "coefficients");
    in.expectEnd();
    long[] s = new long[len];
    for (int i = 0; i < len; i++) {
      s[i] = raw[i];
    }
    try {
      return new SecretKey(p, s);
    } catch (IllegalArgumentException e) {
      throw new WireException("secret key is invalid: " + e.getMessage());
    }
  }

  /** {@link Wire#writeEvaluationKeys(EvaluationKeys, CompactParams)}. */
  static byte[] writeEvaluationKeys(EvaluationKeys k, CompactParams cp) {
    k.validate(cp);
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = Frame.header(bytes, TYPE_EVALUATION_KEYS, k.paramsId(),
          ParameterRevision.of(cp));
      out.writeUTF(k.clientId());
      out.write(k.seed());
      out.writeByte(cp.keyBits());
      Fields.writePacked(out, k.kskB(), cp.keys(), cp.keyBits());
      Fields.writePacked(out, k.ggswSB(), cp.keys(), cp.keyBits());
      return Frame.finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@link Wire#readEvaluationKeys}. */
  static EvaluationKeys readEvaluationKeys(byte[] msg, CompactParams cp) {
    WireReader in = Header.open(msg, TYPE_EVALUATION_KEYS, cp.server(),
        ParameterRevision.of(cp));
    String client = in.ascii("client id", MAX_CLIENT_ID);
    byte[] seed = in.bytes(Prg.SEED_BYTES, "seed");
    in.bits("bits of b", cp.keyBits());
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    short[] ksk = in.packed("key-switching part", cp.keys(), cp.keyBits(),
        (long) cp.ksLevels() * per, 0, cp.automorphisms());
    short[] g = in.packed("GGSW(s) part", cp.keys(), cp.keyBits(),
        2L * cp.keys().ggswLevels() * per, 1, 1);
    in.expectEnd();
    EvaluationKeys k = new EvaluationKeys(cp.id(), client, seed, ksk, g);
    try {
      k.validate(cp);
    } catch (IllegalArgumentException e) {
      throw new WireException("evaluation keys are invalid: " + e.getMessage());
    }
    return k;
  }

  /** {@link Wire#writePackingKey}: under the revision of {@code p}. */
  static byte[] writePackingKey(Params p, PlanePacking.Upload u) {
    try {
      ByteArrayOutputStream bytes = new Frame.Exact(packingKeyBytes(p, u.planes()));
      DataOutputStream out = Frame.header(bytes, TYPE_PACKING_KEY, p.id(),
          ParameterRevision.of(p));
      out.writeByte(u.planes());
      out.write(u.seed());
      short[] d = new short[u.rowsB().length];
      for (int i = 0; i < d.length; i++) {
        d[i] = (short) u.rowsB()[i];
      }
      Fields.writeShorts(out, d);
      return Frame.finish(bytes, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@link Wire#readPackingKey}. */
  static PlanePacking.Upload readPackingKey(byte[] msg, Params p, Geometry g) {
    WireReader in = Header.open(msg, TYPE_PACKING_KEY, p);
    int planes = in.u8("planes");
    if (planes != g.planes() || planes < 2) {
      throw new WireException("packing key for " + planes + " planes, the database has "
          + g.planes() + " (at least 2 needed)");
    }
    byte[] seed = in.bytes(Prg.SEED_BYTES, "seed");
    short[] d = in.shorts("rows", new PlanePacking(p, planes).keyDigits());
    in.expectEnd();
    long[] rows = new long[d.length];
    long half = 1L << (p.base2k() - 1);
    for (int i = 0; i < d.length; i++) {
      rows[i] = d[i];
      if (rows[i] < -half || rows[i] >= half) {
        throw new WireException("packing key digit " + rows[i] + " is outside the K-bit range");
      }
    }
    return new PlanePacking.Upload(planes, seed, rows);
  }
}
