package org.jpir.core.query;

import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Params;
import org.jpir.core.wire.EvaluationKeys;
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
    GlweOps ops = new GlweOps(kp);
    Pmat[] ksk = new Pmat[k.automorphisms(cp)];
    for (int j = 0; j < ksk.length; j++) {
      ksk[j] = Pmat.allocate(kp.n(), cp.ksLevels(), 2 * kp.glweLimbs());
      for (int i = 0; i < cp.ksLevels(); i++) {
        ksk[j].prepareRow(i, ops.transform(k.ksk(cp, j, i).expand()), 0);
      }
    }
    return new PreparedEvaluationKeys(cp.id(), k.clientId(), k.fingerprint(), ksk,
        ops.prepare(k.ggswS(cp).expand()));
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
