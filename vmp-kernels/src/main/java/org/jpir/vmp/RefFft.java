package org.jpir.vmp;

/**
 * Scalar reference implementation of {@link FftKernel}: plain multiplies and adds, no fused
 * multiply-add, one butterfly at a time. Complex product {@code (br + i bi)(c + i s) = (br c - bi
 * s) + i (br s + bi c)}.
 */
final class RefFft implements FftKernel {

  RefFft() {}

  @Override
  public void fwdR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    int h = size >> 1;
    int q = size >> 2;
    for (int k = 0; k < count; k++) {
      int t = t0 + k * R4_ENTRY;
      int base = (k0 + k) * size;
      butterflies(buf, ro, io, base, h, tw[t], tw[t + 1]);
      double c0 = tw[t + 3];
      double s0 = tw[t + 4];
      butterflies(buf, ro, io, base, q, c0, s0);
      butterflies(buf, ro, io, base + h, q, -s0, c0);
    }
  }

  @Override
  public void fwdLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      int t = t0 + k * LEAF_ENTRY;
      int base = (k0 + k) * 4;
      butterflies(buf, ro, io, base, 2, tw[t], tw[t + 4]);
      double c0 = tw[t + 8];
      double s0 = tw[t + 12];
      butterflies(buf, ro, io, base, 1, c0, s0);
      butterflies(buf, ro, io, base + 2, 1, -s0, c0);
    }
  }

  @Override
  public void fwdLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      int t = t0 + k * LEAF3_ENTRY;
      butterflies(buf, ro, io, (k0 + k) * 8, 4, tw[t], tw[t + 1]);
      fwdLeaf(buf, ro, io, 2 * (k0 + k), 2, tw, t + 4);
    }
  }

  @Override
  public void invLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      int t = t0 + k * LEAF3_ENTRY;
      invLeaf(buf, ro, io, 2 * (k0 + k), 2, tw, t + 4);
      invButterflies(buf, ro, io, (k0 + k) * 8, 4, tw[t], tw[t + 1]);
    }
  }

  @Override
  public void invR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    int h = size >> 1;
    int q = size >> 2;
    for (int k = 0; k < count; k++) {
      int t = t0 + k * R4_ENTRY;
      int base = (k0 + k) * size;
      double c0 = tw[t + 3];
      double s0 = tw[t + 4];
      invButterflies(buf, ro, io, base, q, c0, s0);
      invButterflies(buf, ro, io, base + h, q, -s0, c0);
      invButterflies(buf, ro, io, base, h, tw[t], tw[t + 1]);
    }
  }

  @Override
  public void invLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      int t = t0 + k * LEAF_ENTRY;
      int base = (k0 + k) * 4;
      // inverse table holds conjugates: lane 1 of B is conj(s0), lane 2 of A is conj(s)
      double c0 = tw[t + 9];
      double s0 = -tw[t + 13];
      invButterflies(buf, ro, io, base, 1, c0, s0);
      invButterflies(buf, ro, io, base + 2, 1, -s0, c0);
      invButterflies(buf, ro, io, base, 2, tw[t + 2], -tw[t + 6]);
    }
  }

  /** {@code (a, b) -> (a + wb, a - wb)} for pairs {@code (base + j, base + h + j)}, j < h. */
  private static void butterflies(double[] buf, int ro, int io, int base, int h, double c,
      double s) {
    for (int j = base; j < base + h; j++) {
      double ar = buf[ro + j];
      double ai = buf[io + j];
      double br = buf[ro + j + h];
      double bi = buf[io + j + h];
      double tr = br * c - bi * s;
      double ti = br * s + bi * c;
      buf[ro + j] = ar + tr;
      buf[io + j] = ai + ti;
      buf[ro + j + h] = ar - tr;
      buf[io + j + h] = ai - ti;
    }
  }

  /** {@code (a, b) -> (a + b, (a - b) conj(w))}, w = c + i s. */
  private static void invButterflies(double[] buf, int ro, int io, int base, int h, double c,
      double s) {
    for (int j = base; j < base + h; j++) {
      double ar = buf[ro + j];
      double ai = buf[io + j];
      double br = buf[ro + j + h];
      double bi = buf[io + j + h];
      double dr = ar - br;
      double di = ai - bi;
      buf[ro + j] = ar + br;
      buf[io + j] = ai + bi;
      buf[ro + j + h] = dr * c + di * s;
      buf[io + j + h] = di * c - dr * s;
    }
  }
}
