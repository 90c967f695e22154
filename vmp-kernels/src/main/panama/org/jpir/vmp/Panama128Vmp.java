package org.jpir.vmp;

/**
 * {@link VmpKernel} on 128-bit vectors (NEON's width; SSE on x86), for JVMs whose preferred
 * species is 128 bits, where {@link PanamaVmp}'s 256- and 512-bit vectors would not be compiled
 * to vector instructions. A state half (4 lanes of the contract) is two vectors; every lane is
 * the contract's FMA chain in row order, so states are bitwise those of the reference. Blocks:
 * {@link VmpBlock#B128_1X3} (24 accumulators, for 32 registers: NEON) and {@link
 * VmpBlock#B128_1X1} (8, for 16: SSE).
 *
 * <p>The straight-line bodies are generated ({@code Mac128}, from {@code MacGenerator} in the
 * test sources): for column j, half h of a reim4 block, {@code rr[j][h] += ure[h] * vre[j][h]}
 * etc., with {@code ure[h] = u[uOff + 8r + 2h ..]}, {@code uim[h] = u[uOff + 8r + 4 + 2h ..]},
 * {@code vre[j][h] = v[vOff + 8Wr + 8j + 2h ..]}, {@code vim[j][h] = v[vOff + 8Wr + 8j + 4 + 2h
 * ..]} (W columns of a packed panel; {@link #mac1}: W = 1, any row stride).
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
  public void macTile(int vectors, int cols, int rows, double[] u0, double[] u1, int uOff,
      double[] v, int vOff, double[] st, int stOff, int stStride) {
    for (int i = 0; i < vectors; i++) {
      double[] u = i == 0 ? u0 : u1;
      int s = stOff + i * stStride;
      if (cols == 3) {
        Mac128.packed1x3(rows, u, null, uOff, v, vOff, st, s, 0);
      } else if (cols == 2) {
        Mac128.packed1x2(rows, u, null, uOff, v, vOff, st, s, 0);
      } else {
        for (int j = 0; j < cols; j++) {
          mac1(rows, u, uOff, v, vOff + 8 * j, 8 * cols, st, s + 16 * j);
        }
      }
    }
  }
}
