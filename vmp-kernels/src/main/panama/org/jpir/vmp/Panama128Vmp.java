package org.jpir.vmp;

/**
 * {@link VmpKernel} on 128-bit vectors (NEON's width; SSE on x86), for JVMs whose preferred
 * species is 128 bits, where {@link PanamaVmp}'s 256- and 512-bit vectors would not be compiled
 * to vector instructions. A state half (4 lanes of the contract) is two vectors; every lane is
 * the contract's FMA chain in row order, so states are bitwise those of the reference. Blocks:
 * {@link VmpBlock#B128_1X4} (24 Gauss accumulators, for 32 registers: NEON) and {@link
 * VmpBlock#B128_1X1} (6, for 16: SSE), bodies {@code Gauss128} from {@code GaussGenerator}.
 *
 * <p>{@link #mac1} ({@code Mac128}, from {@code MacGenerator} in the test sources): for half h of
 * a reim4 block, {@code rr[h] += ure[h] * vre[h]} etc., with {@code ure[h] = u[uOff + 8r + 2h
 * ..]}, {@code uim[h] = u[uOff + 8r + 4 + 2h ..]}, {@code vre[h] = v[vOff + vStride*r + 2h ..]},
 * {@code vim[h] = v[vOff + vStride*r + 4 + 2h ..]}.
 */
final class Panama128Vmp implements VmpKernel {
  private final VmpBlock block;

  /**
   * The kernel with register block {@code block}.
   *
   * @throws IllegalArgumentException when {@code block} is not a 128-bit block
   */
  Panama128Vmp(VmpBlock block) {
    if (block == null || block.bits() != 128 || !VmpBlock.SUPPORTED.contains(block)) {
      throw new IllegalArgumentException("Panama128Vmp block " + block + " is not one of the"
          + " 128-bit blocks of " + VmpBlock.SUPPORTED);
    }
    this.block = block;
  }

  @Override
  public String name() {
    return "panama128-" + block.vectors() + "x" + block.columns();
  }

  @Override
  public VmpBlock block() {
    return block;
  }

  @Override
  public void mac1(int rows, double[] u, int uOff, double[] v, int vOff, int vStride,
      double[] st, int stOff) {
    Mac128.strided1x1(rows, u, uOff, v, vOff, vStride, st, stOff);
  }

  @Override
  public void macTile(int vectors, int cols, int rows, double[] u0, double[] u1, double[] u2,
      int uOff, double[] v, int vOff, double[] st, int gOff, int kOff, int ss) {
    if ((block.columns() == 1 && cols > 1) || cols > 4) {
      // the pass's panels are the block's width; other widths only come from tests
      VmpKernel.super.macTile(vectors, cols, rows, u0, u1, u2, uOff, v, vOff, st, gOff, kOff,
          ss);
      return;
    }
    for (int q = 0; q < vectors; q++) {
      double[] u = q == 0 ? u0 : q == 1 ? u1 : u2;
      int g = gOff + q * ss;
      int k = kOff + q * ss;
      switch (cols) {
        case 4: Gauss128.g1x4(rows, u, null, null, uOff, v, vOff, st, g, k, 0); break;
        case 3: Gauss128.g1x3(rows, u, null, null, uOff, v, vOff, st, g, k, 0); break;
        case 2: Gauss128.g1x2(rows, u, null, null, uOff, v, vOff, st, g, k, 0); break;
        default: Gauss128.g1x1(rows, u, null, null, uOff, v, vOff, st, g, k, 0); break;
      }
    }
  }
}
