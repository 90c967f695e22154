package org.jpir.vmp;

/** Scalar reference of {@link VmpKernel}: the FMA chains spelled out lane by lane. */
final class RefVmp implements VmpKernel {

  RefVmp() {}

  @Override
  public String name() {
    return "ref";
  }

  @Override
  public void mac1(int rows, double[] u, int uOff, double[] v, int vOff, int vStride,
      double[] st, int stOff) {
    for (int k = 0; k < 4; k++) {
      double rr = st[stOff + k];
      double ri = st[stOff + 4 + k];
      double ir = st[stOff + 8 + k];
      double ii = st[stOff + 12 + k];
      for (int r = 0; r < rows; r++) {
        int a = uOff + 8 * r + k;
        int b = vOff + vStride * r + k;
        double ure = u[a];
        double uim = u[a + 4];
        double vre = v[b];
        double vim = v[b + 4];
        rr = Math.fma(ure, vre, rr);
        ri = Math.fma(ure, vim, ri);
        ir = Math.fma(uim, vre, ir);
        ii = Math.fma(uim, vim, ii);
      }
      st[stOff + k] = rr;
      st[stOff + 4 + k] = ri;
      st[stOff + 8 + k] = ir;
      st[stOff + 12 + k] = ii;
    }
  }
}
