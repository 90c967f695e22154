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
    r4(false, buf, ro, io, size, k0, count, tw, t0);
  }

  @Override
  public void invR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    r4(true, buf, ro, io, size, k0, count, tw, t0);
  }

  @Override
  public void fwdLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    leaf(false, buf, ro, io, k0, count, tw, t0);
  }

  @Override
  public void invLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    leaf(true, buf, ro, io, k0, count, tw, t0);
  }

  @Override
  public void fwdLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      int t = t0 + k * LEAF3_ENTRY;
      butterflies(false, buf, ro, io, (k0 + k) * 8, 4, tw[t], tw[t + 1]);
      fwdLeaf(buf, ro, io, 2 * (k0 + k), 2, tw, t + 4);
    }
  }

  @Override
  public void invLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      int t = t0 + k * LEAF3_ENTRY;
      invLeaf(buf, ro, io, 2 * (k0 + k), 2, tw, t + 4);
      butterflies(true, buf, ro, io, (k0 + k) * 8, 4, tw[t], tw[t + 1]);
    }
  }

  // fwdR4 or invR4: each node's twiddles are w = tw[t] + i tw[t + 1] (level of half-width h)
  // and w0 = tw[t + 3] + i tw[t + 4] (the halves)
  private static void r4(boolean inverse, double[] buf, int ro, int io, int size, int k0,
      int count, double[] tw, int t0) {
    int h = size >> 1;
    int q = size >> 2;
    for (int k = 0; k < count; k++) {
      int t = t0 + k * R4_ENTRY;
      twoLevels(inverse, buf, ro, io, (k0 + k) * size, h, q, tw[t], tw[t + 1], tw[t + 3],
          tw[t + 4]);
    }
  }

  // fwdLeaf or invLeaf: r4 on nodes of 4, the twiddles at the lanes of the leaf table
  private static void leaf(boolean inverse, double[] buf, int ro, int io, int k0, int count,
      double[] tw, int t0) {
    for (int k = 0; k < count; k++) {
      int t = t0 + k * LEAF_ENTRY;
      int base = (k0 + k) * 4;
      if (inverse) {
        // inverse table holds conjugates: lane 1 of B is conj(s0), lane 2 of A is conj(s)
        twoLevels(true, buf, ro, io, base, 2, 1, tw[t + 2], -tw[t + 6], tw[t + 9], -tw[t + 13]);
      } else {
        twoLevels(false, buf, ro, io, base, 2, 1, tw[t], tw[t + 4], tw[t + 8], tw[t + 12]);
      }
    }
  }

  // forward: the level of half-width h with w = c + i s, then each half (half-width q) with
  // w0 = c0 + i s0 and i w0 = -s0 + i c0; inverse: the same levels in reverse order
  private static void twoLevels(boolean inverse, double[] buf, int ro, int io, int base, int h,
      int q, double c, double s, double c0, double s0) {
    if (inverse) {
      butterflies(true, buf, ro, io, base, q, c0, s0);
      butterflies(true, buf, ro, io, base + h, q, -s0, c0);
      butterflies(true, buf, ro, io, base, h, c, s);
    } else {
      butterflies(false, buf, ro, io, base, h, c, s);
      butterflies(false, buf, ro, io, base, q, c0, s0);
      butterflies(false, buf, ro, io, base + h, q, -s0, c0);
    }
  }

  /**
   * For the pairs {@code (a, b) = (base + j, base + h + j)}, j &lt; h, and w = c + i s: forward
   * {@code (a, b) -> (a + wb, a - wb)}, inverse {@code (a, b) -> (a + b, (a - b) conj(w))}.
   */
  private static void butterflies(boolean inverse, double[] buf, int ro, int io, int base, int h,
      double c, double s) {
    for (int j = base; j < base + h; j++) {
      double ar = buf[ro + j];
      double ai = buf[io + j];
      double br = buf[ro + j + h];
      double bi = buf[io + j + h];
      if (inverse) {
        double dr = ar - br;
        double di = ai - bi;
        buf[ro + j] = ar + br;
        buf[io + j] = ai + bi;
        buf[ro + j + h] = dr * c + di * s;
        buf[io + j + h] = di * c - dr * s;
      } else {
        double tr = br * c - bi * s;
        double ti = br * s + bi * c;
        buf[ro + j] = ar + tr;
        buf[io + j] = ai + ti;
        buf[ro + j + h] = ar - tr;
        buf[io + j + h] = ai - ti;
      }
    }
  }
}
