package org.jpir.core.lwe;

import java.util.Arrays;

/**
 * A rank-1 GLWE ciphertext (b, a) on the torus in base-2^K limbs, with phase {@code b + a*s}.
 * Layout: {@code limbs} limb polynomials per component; component k (0 = b, 1 = a), limb i,
 * coefficient j at {@code data[(k*limbs + i)*N + j]}, limb 0 most significant. Ciphertexts made
 * by {@link GlweOps} are normalized: every digit in {@code [-2^(K-1), 2^(K-1))}.
 */
public final class Glwe {
  private final int n;
  private final int limbs;
  private final long[] data;

  /** A zero ciphertext (the trivial encryption of 0). */
  public Glwe(int n, int limbs) {
    this(n, limbs, new long[2 * limbs * n]);
  }

  /** Wraps {@code data} (not copied); its length must be {@code 2*limbs*n}. */
  public Glwe(int n, int limbs, long[] data) {
    if (limbs < 1) {
      throw new IllegalArgumentException("GLWE limbs = " + limbs + " must be at least 1");
    }
    if (data.length != 2L * limbs * n) {
      throw new IllegalArgumentException("GLWE data has " + data.length + " longs, expected 2*"
          + limbs + "*" + n);
    }
    this.n = n;
    this.limbs = limbs;
    this.data = data;
  }

  /** Ring degree. */
  public int n() {
    return n;
  }

  /** Limbs per component. */
  public int limbs() {
    return limbs;
  }

  /** The backing array (layout in the class comment). */
  public long[] data() {
    return data;
  }

  /** Offset of component k (0 = b, 1 = a), limb i. */
  public int offset(int k, int i) {
    return (k * limbs + i) * n;
  }

  /** A deep copy. */
  public Glwe copy() {
    return new Glwe(n, limbs, data.clone());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Glwe g && g.n == n && g.limbs == limbs && Arrays.equals(g.data, data);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(data) * 31 + limbs;
  }
}
