package org.jpir.core;

import org.jpir.core.lwe.Digits;
import org.jpir.core.lwe.Ggsw;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.lwe.Prg;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Params;
import org.jpir.vmp.Pmat;

/**
 * A client's evaluation keys as the server computes with them: the key-switching key of
 * automorphism j (j below the depth the client uploaded) as a PMAT (nrows = ksLevels, ncols = 2 * keys.glweLimbs) and the GGSW of s as a
 * PMAT (nrows = 2 * keys.ggswLevels, ncols = 2 * keys.glweLimbs).
 */
public record PreparedEvaluationKeys(String paramsId, String clientId, long fingerprint,
    Pmat[] ksk, PreparedGgsw ggswS) {

  /** Regenerates every mask from the seed, transforms and lays out the keys. */
  public static PreparedEvaluationKeys prepare(CompactParams cp, EvaluationKeys k) {
    k.validate(cp);
    Params kp = cp.keys();
    int n = kp.n();
    int limbs = kp.glweLimbs();
    int per = limbs * n;
    GlweOps ops = new GlweOps(kp);
    Pmat[] ksk = new Pmat[k.automorphisms(cp)];
    for (int j = 0; j < ksk.length; j++) {
      ksk[j] = Pmat.allocate(n, cp.ksLevels(), 2 * limbs);
      for (int i = 0; i < cp.ksLevels(); i++) {
        Glwe c = regenerate(kp, k.seed(), EvaluationKeys.kskStream(cp, j, i), k.kskB(),
            (j * cp.ksLevels() + i) * per);
        ksk[j].prepareRow(i, ops.transform(c), 0);
      }
    }
    Glwe[] rows = new Glwe[2 * kp.ggswLevels()];
    for (int q = 0; q < rows.length; q++) {
      rows[q] = regenerate(kp, k.seed(), EvaluationKeys.ggswStream(q), k.ggswSB(), q * per);
    }
    return new PreparedEvaluationKeys(cp.id(), k.clientId(), k.fingerprint(), ksk,
        ops.prepare(new Ggsw(rows)));
  }

  /** The GLWE with b part {@code b[off..]} and the mask of (seed, stream). */
  static Glwe regenerate(Params kp, byte[] seed, long stream, short[] b, int off) {
    int per = kp.glweLimbs() * kp.n();
    Glwe c = new Glwe(kp.n(), kp.glweLimbs());
    Digits.toLongs(b, off, c.data(), 0, per);
    new Prg(seed, stream).fillUniformDigits(c.data(), per, per, kp.base2k());
    return c;
  }

  /**
   * The most bytes the prepared keys of {@code cp} hold (keys for every automorphism): {@code 8 N 2L (ksLevels automorphisms + 2
   * ggswLevels)}, L = keys.glweLimbs (the PMATs above).
   */
  public static long bytesFor(CompactParams cp) {
    Params kp = cp.keys();
    return 8L * kp.n() * 2 * kp.glweLimbs()
        * ((long) cp.ksLevels() * cp.automorphisms() + 2L * kp.ggswLevels());
  }

  /** Bytes held in memory. */
  public long sizeBytes() {
    long s = ggswS.sizeBytes();
    for (Pmat m : ksk) {
      s += m.sizeBytes();
    }
    return s;
  }
}
