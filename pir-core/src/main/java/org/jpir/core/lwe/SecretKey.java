package org.jpir.core.lwe;

import java.security.SecureRandom;
import org.jpir.core.params.Params;
import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Reim;

/**
 * A GLWE secret of rank 1: a uniform ternary polynomial s, kept with its transform. Generated
 * from {@link SecureRandom}; never printed ({@link #toString} is redacted).
 */
public final class SecretKey {
  private final Params params;
  private final long[] s;
  private final double[] sFft;

  /**
   * The secret with coefficients {@code s} (a copy is kept), for readers of a stored key and for
   * derived secrets; throws unless there are N coefficients, each in {-1, 0, 1}.
   */
  public SecretKey(Params params, long[] s) {
    if (s.length != params.n()) {
      throw new IllegalArgumentException("secret has " + s.length + " coefficients, preset "
          + params.id() + " needs " + params.n());
    }
    for (long c : s) {
      if (c < -1 || c > 1) {
        throw new IllegalArgumentException("secret coefficient " + c + " is not ternary");
      }
    }
    this.params = params;
    this.s = s.clone();
    this.sFft = new double[params.n()];
    Reim.fromZnx(params.n(), s, 0, sFft, 0);
    FftPlan.of(params.n()).fft(sFft, 0);
  }

  /** A fresh uniform ternary secret drawn through {@code random}. */
  public static SecretKey generate(Params params, SecureRandom random) {
    Prg prg = Prg.fromSecureRandom(random);
    long[] s = new long[params.n()];
    for (int i = 0; i < s.length; i++) {
      s[i] = prg.nextTernary();
    }
    return new SecretKey(params, s);
  }

  /** The parameters this key belongs to. */
  public Params params() {
    return params;
  }

  /** The secret's transform (read-only by convention). */
  double[] fft() {
    return sFft;
  }

  /** A copy of the coefficients (for serialization by the client only). */
  public long[] coefficients() {
    return s.clone();
  }

  @Override
  public String toString() {
    return "SecretKey[" + params.id() + ", redacted]";
  }
}
