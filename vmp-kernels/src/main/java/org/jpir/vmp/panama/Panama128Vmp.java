package org.jpir.vmp.panama;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;
import org.apache.logging.log4j.LogManager;
import org.jpir.vmp.CpuInfo;
import org.jpir.vmp.VmpBlock;
import org.jpir.vmp.VmpKernel;

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
public final class Panama128Vmp implements VmpKernel {
  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_128;
  private static volatile boolean logged;

  private final VmpBlock block;

  /**
   * The block for this JVM's register count ({@link VmpBlock#choose}), logged once per JVM;
   * public for loading.
   */
  public Panama128Vmp() {
    this(auto());
  }

  private static VmpBlock auto() {
    VmpBlock.Choice c = VmpBlock.choose(128, Runtime.version().feature(),
        CpuInfo.get().vectorRegisters(), System.getProperty(VmpBlock.PROPERTY));
    if (!logged) {
      logged = true;
      LogManager.getLogger(Panama128Vmp.class).info("vmp block: {}", c);
    }
    return c.block();
  }

  /**
   * Forces a block (tests, benchmarks).
   *
   * @throws IllegalArgumentException when {@code block} is not a 128-bit block
   */
  public Panama128Vmp(VmpBlock block) {
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
        mac1x3(rows, u, uOff, v, vOff, st, s);
      } else if (cols == 2) {
        mac1x2(rows, u, uOff, v, vOff, st, s);
      } else {
        for (int j = 0; j < cols; j++) {
          mac1(rows, u, uOff, v, vOff + 8 * j, 8 * cols, st, s + 16 * j);
        }
      }
    }
  }

  /** One vector x 3 packed panel column(s) (row stride 8*3), 128-bit: 24 accumulators. */
  private static void mac1x3(int rows, double[] u, int uOff, double[] v, int vOff, double[] st,
      int s0) {
    DoubleVector rr00 = DoubleVector.fromArray(S, st, s0 + 0);
    DoubleVector rr01 = DoubleVector.fromArray(S, st, s0 + 2);
    DoubleVector ri00 = DoubleVector.fromArray(S, st, s0 + 4);
    DoubleVector ri01 = DoubleVector.fromArray(S, st, s0 + 6);
    DoubleVector ir00 = DoubleVector.fromArray(S, st, s0 + 8);
    DoubleVector ir01 = DoubleVector.fromArray(S, st, s0 + 10);
    DoubleVector ii00 = DoubleVector.fromArray(S, st, s0 + 12);
    DoubleVector ii01 = DoubleVector.fromArray(S, st, s0 + 14);
    DoubleVector rr10 = DoubleVector.fromArray(S, st, s0 + 16);
    DoubleVector rr11 = DoubleVector.fromArray(S, st, s0 + 18);
    DoubleVector ri10 = DoubleVector.fromArray(S, st, s0 + 20);
    DoubleVector ri11 = DoubleVector.fromArray(S, st, s0 + 22);
    DoubleVector ir10 = DoubleVector.fromArray(S, st, s0 + 24);
    DoubleVector ir11 = DoubleVector.fromArray(S, st, s0 + 26);
    DoubleVector ii10 = DoubleVector.fromArray(S, st, s0 + 28);
    DoubleVector ii11 = DoubleVector.fromArray(S, st, s0 + 30);
    DoubleVector rr20 = DoubleVector.fromArray(S, st, s0 + 32);
    DoubleVector rr21 = DoubleVector.fromArray(S, st, s0 + 34);
    DoubleVector ri20 = DoubleVector.fromArray(S, st, s0 + 36);
    DoubleVector ri21 = DoubleVector.fromArray(S, st, s0 + 38);
    DoubleVector ir20 = DoubleVector.fromArray(S, st, s0 + 40);
    DoubleVector ir21 = DoubleVector.fromArray(S, st, s0 + 42);
    DoubleVector ii20 = DoubleVector.fromArray(S, st, s0 + 44);
    DoubleVector ii21 = DoubleVector.fromArray(S, st, s0 + 46);
    for (int r = 0; r < rows; r++) {
      final int uo = uOff + 8 * r;
      final int vr = vOff + 24 * r;
      final DoubleVector ur0 = DoubleVector.fromArray(S, u, uo);
      final DoubleVector ur1 = DoubleVector.fromArray(S, u, uo + 2);
      final DoubleVector ui0 = DoubleVector.fromArray(S, u, uo + 4);
      final DoubleVector ui1 = DoubleVector.fromArray(S, u, uo + 6);
      DoubleVector y;
      y = DoubleVector.fromArray(S, v, vr + 0);
      rr00 = ur0.fma(y, rr00);
      ir00 = ui0.fma(y, ir00);
      y = DoubleVector.fromArray(S, v, vr + 2);
      rr01 = ur1.fma(y, rr01);
      ir01 = ui1.fma(y, ir01);
      y = DoubleVector.fromArray(S, v, vr + 4);
      ri00 = ur0.fma(y, ri00);
      ii00 = ui0.fma(y, ii00);
      y = DoubleVector.fromArray(S, v, vr + 6);
      ri01 = ur1.fma(y, ri01);
      ii01 = ui1.fma(y, ii01);
      y = DoubleVector.fromArray(S, v, vr + 8);
      rr10 = ur0.fma(y, rr10);
      ir10 = ui0.fma(y, ir10);
      y = DoubleVector.fromArray(S, v, vr + 10);
      rr11 = ur1.fma(y, rr11);
      ir11 = ui1.fma(y, ir11);
      y = DoubleVector.fromArray(S, v, vr + 12);
      ri10 = ur0.fma(y, ri10);
      ii10 = ui0.fma(y, ii10);
      y = DoubleVector.fromArray(S, v, vr + 14);
      ri11 = ur1.fma(y, ri11);
      ii11 = ui1.fma(y, ii11);
      y = DoubleVector.fromArray(S, v, vr + 16);
      rr20 = ur0.fma(y, rr20);
      ir20 = ui0.fma(y, ir20);
      y = DoubleVector.fromArray(S, v, vr + 18);
      rr21 = ur1.fma(y, rr21);
      ir21 = ui1.fma(y, ir21);
      y = DoubleVector.fromArray(S, v, vr + 20);
      ri20 = ur0.fma(y, ri20);
      ii20 = ui0.fma(y, ii20);
      y = DoubleVector.fromArray(S, v, vr + 22);
      ri21 = ur1.fma(y, ri21);
      ii21 = ui1.fma(y, ii21);
    }
    rr00.intoArray(st, s0 + 0);
    rr01.intoArray(st, s0 + 2);
    ri00.intoArray(st, s0 + 4);
    ri01.intoArray(st, s0 + 6);
    ir00.intoArray(st, s0 + 8);
    ir01.intoArray(st, s0 + 10);
    ii00.intoArray(st, s0 + 12);
    ii01.intoArray(st, s0 + 14);
    rr10.intoArray(st, s0 + 16);
    rr11.intoArray(st, s0 + 18);
    ri10.intoArray(st, s0 + 20);
    ri11.intoArray(st, s0 + 22);
    ir10.intoArray(st, s0 + 24);
    ir11.intoArray(st, s0 + 26);
    ii10.intoArray(st, s0 + 28);
    ii11.intoArray(st, s0 + 30);
    rr20.intoArray(st, s0 + 32);
    rr21.intoArray(st, s0 + 34);
    ri20.intoArray(st, s0 + 36);
    ri21.intoArray(st, s0 + 38);
    ir20.intoArray(st, s0 + 40);
    ir21.intoArray(st, s0 + 42);
    ii20.intoArray(st, s0 + 44);
    ii21.intoArray(st, s0 + 46);
  }

  /** One vector x 2 packed panel column(s) (row stride 8*2), 128-bit: 16 accumulators. */
  private static void mac1x2(int rows, double[] u, int uOff, double[] v, int vOff, double[] st,
      int s0) {
    DoubleVector rr00 = DoubleVector.fromArray(S, st, s0 + 0);
    DoubleVector rr01 = DoubleVector.fromArray(S, st, s0 + 2);
    DoubleVector ri00 = DoubleVector.fromArray(S, st, s0 + 4);
    DoubleVector ri01 = DoubleVector.fromArray(S, st, s0 + 6);
    DoubleVector ir00 = DoubleVector.fromArray(S, st, s0 + 8);
    DoubleVector ir01 = DoubleVector.fromArray(S, st, s0 + 10);
    DoubleVector ii00 = DoubleVector.fromArray(S, st, s0 + 12);
    DoubleVector ii01 = DoubleVector.fromArray(S, st, s0 + 14);
    DoubleVector rr10 = DoubleVector.fromArray(S, st, s0 + 16);
    DoubleVector rr11 = DoubleVector.fromArray(S, st, s0 + 18);
    DoubleVector ri10 = DoubleVector.fromArray(S, st, s0 + 20);
    DoubleVector ri11 = DoubleVector.fromArray(S, st, s0 + 22);
    DoubleVector ir10 = DoubleVector.fromArray(S, st, s0 + 24);
    DoubleVector ir11 = DoubleVector.fromArray(S, st, s0 + 26);
    DoubleVector ii10 = DoubleVector.fromArray(S, st, s0 + 28);
    DoubleVector ii11 = DoubleVector.fromArray(S, st, s0 + 30);
    for (int r = 0; r < rows; r++) {
      final int uo = uOff + 8 * r;
      final int vr = vOff + 16 * r;
      final DoubleVector ur0 = DoubleVector.fromArray(S, u, uo);
      final DoubleVector ur1 = DoubleVector.fromArray(S, u, uo + 2);
      final DoubleVector ui0 = DoubleVector.fromArray(S, u, uo + 4);
      final DoubleVector ui1 = DoubleVector.fromArray(S, u, uo + 6);
      DoubleVector y;
      y = DoubleVector.fromArray(S, v, vr + 0);
      rr00 = ur0.fma(y, rr00);
      ir00 = ui0.fma(y, ir00);
      y = DoubleVector.fromArray(S, v, vr + 2);
      rr01 = ur1.fma(y, rr01);
      ir01 = ui1.fma(y, ir01);
      y = DoubleVector.fromArray(S, v, vr + 4);
      ri00 = ur0.fma(y, ri00);
      ii00 = ui0.fma(y, ii00);
      y = DoubleVector.fromArray(S, v, vr + 6);
      ri01 = ur1.fma(y, ri01);
      ii01 = ui1.fma(y, ii01);
      y = DoubleVector.fromArray(S, v, vr + 8);
      rr10 = ur0.fma(y, rr10);
      ir10 = ui0.fma(y, ir10);
      y = DoubleVector.fromArray(S, v, vr + 10);
      rr11 = ur1.fma(y, rr11);
      ir11 = ui1.fma(y, ir11);
      y = DoubleVector.fromArray(S, v, vr + 12);
      ri10 = ur0.fma(y, ri10);
      ii10 = ui0.fma(y, ii10);
      y = DoubleVector.fromArray(S, v, vr + 14);
      ri11 = ur1.fma(y, ri11);
      ii11 = ui1.fma(y, ii11);
    }
    rr00.intoArray(st, s0 + 0);
    rr01.intoArray(st, s0 + 2);
    ri00.intoArray(st, s0 + 4);
    ri01.intoArray(st, s0 + 6);
    ir00.intoArray(st, s0 + 8);
    ir01.intoArray(st, s0 + 10);
    ii00.intoArray(st, s0 + 12);
    ii01.intoArray(st, s0 + 14);
    rr10.intoArray(st, s0 + 16);
    rr11.intoArray(st, s0 + 18);
    ri10.intoArray(st, s0 + 20);
    ri11.intoArray(st, s0 + 22);
    ir10.intoArray(st, s0 + 24);
    ir11.intoArray(st, s0 + 26);
    ii10.intoArray(st, s0 + 28);
    ii11.intoArray(st, s0 + 30);
  }
}
