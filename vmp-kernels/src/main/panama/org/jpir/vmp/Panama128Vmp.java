package org.jpir.vmp;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link VmpKernel} on 128-bit vectors (NEON's width; SSE on x86), for JVMs whose preferred
 * species is 128 bits, where {@link PanamaVmp}'s 256- and 512-bit vectors would not be compiled
 * to vector instructions. A state half (4 lanes of the contract) is two vectors; every lane is
 * the contract's FMA chain in row order, so states are bitwise those of the reference. Blocks:
 * {@link VmpBlock#B128_1X3} (24 accumulators, for 32 registers: NEON) and {@link
 * VmpBlock#B128_1X1} (8, for 16: SSE).
 *
 * <p>Generated straight-line bodies ({@code mac1xW}): for column j, half h of a reim4 block,
 * {@code rr[j][h] += ure[h] * vre[j][h]} etc., with {@code ure[h] = u[uOff + 8r + 2h ..]},
 * {@code uim[h] = u[uOff + 8r + 4 + 2h ..]}, {@code vre[j][h] = v[vOff + 8Wr + 8j + 2h ..]},
 * {@code vim[j][h] = v[vOff + 8Wr + 8j + 4 + 2h ..]}.
 */
final class Panama128Vmp implements VmpKernel {
  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_128;

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
    DoubleVector rr0 = DoubleVector.fromArray(S, st, stOff);
    DoubleVector rr1 = DoubleVector.fromArray(S, st, stOff + 2);
    DoubleVector ri0 = DoubleVector.fromArray(S, st, stOff + 4);
    DoubleVector ri1 = DoubleVector.fromArray(S, st, stOff + 6);
    DoubleVector ir0 = DoubleVector.fromArray(S, st, stOff + 8);
    DoubleVector ir1 = DoubleVector.fromArray(S, st, stOff + 10);
    DoubleVector ii0 = DoubleVector.fromArray(S, st, stOff + 12);
    DoubleVector ii1 = DoubleVector.fromArray(S, st, stOff + 14);
    for (int r = 0, uo = uOff, vo = vOff; r < rows; r++, uo += 8, vo += vStride) {
      DoubleVector ur0 = DoubleVector.fromArray(S, u, uo);
      DoubleVector ur1 = DoubleVector.fromArray(S, u, uo + 2);
      DoubleVector ui0 = DoubleVector.fromArray(S, u, uo + 4);
      DoubleVector ui1 = DoubleVector.fromArray(S, u, uo + 6);
      DoubleVector vr0 = DoubleVector.fromArray(S, v, vo);
      DoubleVector vr1 = DoubleVector.fromArray(S, v, vo + 2);
      DoubleVector vi0 = DoubleVector.fromArray(S, v, vo + 4);
      DoubleVector vi1 = DoubleVector.fromArray(S, v, vo + 6);
      rr0 = ur0.fma(vr0, rr0);
      rr1 = ur1.fma(vr1, rr1);
      ri0 = ur0.fma(vi0, ri0);
      ri1 = ur1.fma(vi1, ri1);
      ir0 = ui0.fma(vr0, ir0);
      ir1 = ui1.fma(vr1, ir1);
      ii0 = ui0.fma(vi0, ii0);
      ii1 = ui1.fma(vi1, ii1);
    }
    rr0.intoArray(st, stOff);
    rr1.intoArray(st, stOff + 2);
    ri0.intoArray(st, stOff + 4);
    ri1.intoArray(st, stOff + 6);
    ir0.intoArray(st, stOff + 8);
    ir1.intoArray(st, stOff + 10);
    ii0.intoArray(st, stOff + 12);
    ii1.intoArray(st, stOff + 14);
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
