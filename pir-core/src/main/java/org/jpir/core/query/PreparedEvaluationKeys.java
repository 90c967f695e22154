package org.jpir.core.query;

import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.DigitForm;
import org.jpir.core.params.Params;
import org.jpir.core.wire.EvaluationKeys;
import org.jpir.vmp.Pmat;

/**
 * A client's evaluation keys as the server computes with them: the key-switching key of
 * automorphism j (j below the depth the client uploaded) as a PMAT (nrows = ksLevels, ncols = {@link
 * CompactParams#ksForm}{@code .columns()}: each part's digits) and the GGSW of s as a
 * PMAT (nrows = 2 * keys.ggswLevels, ncols = 2 * keys.glweLimbs).
 */
public record PreparedEvaluationKeys(String paramsId, String clientId, long fingerprint,
    Pmat[] ksk, PreparedGgsw ggswS) {

  /** Regenerates every mask from the seed, transforms and lays out the keys. */
  public static PreparedEvaluationKeys prepare(CompactParams cp, EvaluationKeys k) {
    k.validate(cp);
    Params kp = cp.keys();
    GlweOps ops = new GlweOps(kp);
    DigitForm form = cp.ksForm();
    Pmat[] ksk = new Pmat[k.automorphisms(cp)];
    Glwe digits = form.isLimbsOf(kp) ? null : new Glwe(kp.n(), form.digits());
    double[] transforms = new double[form.columns() * kp.n()];
    for (int j = 0; j < ksk.length; j++) {
      ksk[j] = Pmat.allocate(kp.n(), cp.ksLevels(), form.columns());
      for (int i = 0; i < cp.ksLevels(); i++) {
        Glwe row = k.ksk(cp, j, i).expand();
        ksk[j].prepareRow(i, ops.transformInto(digits == null ? row
            : ops.redigit(row, form.digitBits(), digits), transforms), 0);
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
