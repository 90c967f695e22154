package org.jpir.vmp;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API {@link ZnxKernel}: the same integer operations, lanes of the preferred width; {@link
 * #normalize} and {@link #gadgetDigits} walk every limb of one group of lanes with the carry in a
 * register (one pass over the data, no carry array).
 */
final class PanamaZnx implements ZnxKernel {
  private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
  private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
  /** 1.5 * 2^52: {@code x + MAGIC} holds round-half-even(x) in its low mantissa bits. */
  private static final double MAGIC = 0x1.8p52;
  private static final long MAGIC_BITS = Double.doubleToRawLongBits(MAGIC);
  /** Below this magnitude the MAGIC addition rounds exactly as {@link Math#rint}. */
  private static final double MAGIC_RANGE = 0x1p51;
  private static final RefZnx REF = new RefZnx();
  private static final double TWO32 = 0x1p32;
  /**
   * Whether C2 converts long lanes to double lanes in one instruction: on AArch64 and on x86
   * with AVX-512 enabled (its DQ subset). Elsewhere (AVX2, or {@code -XX:UseAVX=2}) the
   * conversion is not intrinsified and boxes every vector of a kernel that uses it (807.6 MB
   * per expansion at 1 GiB under {@code -XX:UseAVX=2} on a Zen 4, against 25.9 MB), so the
   * kernels convert with integer and double additions ({@link #smallToDoubles}).
   */
  static final boolean NATIVE_L2D = nativeL2d(System.getProperty("os.arch", ""),
      CpuInfo.get().vectorRegisters());

  /**
   * Whether C2 gathers long lanes through an index map in one instruction: at 256 bits and wider
   * (AVX2, AVX-512, SVE). At 128 bits (NEON, SSE, {@code -XX:MaxVectorSize=16}) it does not, and
   * the gathering kernels ({@link #permute}, {@link #permuteAdd}, {@link #imageGadgetDigits}) ran
   * the Vector API's Java fallback (2.36 MB per call for a key switch's digits at N = 2048), so
   * there they run the scalar reference.
   */
  static final boolean NATIVE_GATHER = S.vectorBitSize() >= 256;

  static boolean nativeL2d(String arch, int vectorRegisters) {
    if (arch.equals("aarch64")) {
      return true;
    }
    return CpuInfo.x86(arch) && vectorRegisters == 32;
  }

  /**
   * {@code (double) x} lane by lane, exactly, for lanes of magnitude below 2^51: x added to the
   * bits of 1.5 * 2^52 is that double plus x (the mantissa does not overflow), less 1.5 * 2^52.
   */
  static DoubleVector smallToDoubles(LongVector x) {
    return x.add(MAGIC_BITS).reinterpretAsDoubles().sub(MAGIC);
  }

  /**
   * {@code (double) x} lane by lane for any long, bitwise as the cast: its high 32 bits (signed)
   * times 2^32 plus its low 32 bits (unsigned), each exact, summed with one rounding.
   */
  static DoubleVector toDoubles(LongVector x) {
    DoubleVector hi = smallToDoubles(x.lanewise(VectorOperators.ASHR, 32));
    DoubleVector lo = smallToDoubles(x.and(0xFFFFFFFFL));
    return hi.mul(TWO32).add(lo);
  }

  @Override
  public void normalizeStep(int n, int base2k, long[] a, int aOff, long[] carry, long[] res,
      int resOff) {
    int shift = 64 - base2k;
    int bound = S.loopBound(n);
    int j = 0;
    for (; j < bound; j += S.length()) {
      LongVector x = LongVector.fromArray(S, carry, j);
      if (a != null) {
        x = x.add(LongVector.fromArray(S, a, aOff + j));
      }
      LongVector d = x.lanewise(VectorOperators.LSHL, shift)
          .lanewise(VectorOperators.ASHR, shift);
      x.sub(d).lanewise(VectorOperators.ASHR, base2k).intoArray(carry, j);
      if (res != null) {
        d.intoArray(res, resOff + j);
      }
    }
    for (; j < n; j++) {
      long x = (a == null ? 0 : a[aOff + j]) + carry[j];
      long d = (x << shift) >> shift;
      carry[j] = (x - d) >> base2k;
      if (res != null) {
        res[resOff + j] = d;
      }
    }
  }

  @Override
  public void normalize(int n, int base2k, long[] a, int aOff, int aSize, long[] res, int resOff,
      int resSize, long[] tmp) {
    int bound = S.loopBound(n);
    if (bound != n) {
      REF.normalize(n, base2k, a, aOff, aSize, res, resOff, resSize, tmp);
      return;
    }
    int shift = 64 - base2k;
    int top = Math.min(aSize, resSize);
    for (int j = 0; j < n; j += S.length()) {
      LongVector carry = LongVector.zero(S);
      for (int i = aSize - 1; i >= resSize; i--) {
        LongVector x = carry.add(LongVector.fromArray(S, a, aOff + i * n + j));
        LongVector d = x.lanewise(VectorOperators.LSHL, shift)
            .lanewise(VectorOperators.ASHR, shift);
        carry = x.sub(d).lanewise(VectorOperators.ASHR, base2k);
      }
      for (int i = resSize - 1; i >= top; i--) { // limbs below a's: the carry only (zero)
        carry.intoArray(res, resOff + i * n + j);
      }
      for (int i = top - 1; i >= 0; i--) {
        LongVector x = carry.add(LongVector.fromArray(S, a, aOff + i * n + j));
        LongVector d = x.lanewise(VectorOperators.LSHL, shift)
            .lanewise(VectorOperators.ASHR, shift);
        carry = x.sub(d).lanewise(VectorOperators.ASHR, base2k);
        d.intoArray(res, resOff + i * n + j);
      }
    }
  }

  @Override
  public void gadgetDigits(int n, int base2k, long[] a, int aOff, int aSize, int topLimbs,
      int bits, int levels, long[] dst, int dOff, long[] tmp) {
    int bound = S.loopBound(n);
    if (bound != n) {
      REF.gadgetDigits(n, base2k, a, aOff, aSize, topLimbs, bits, levels, dst, dOff, tmp);
      return;
    }
    int shift = 64 - base2k;
    int keep = 64 - bits;
    int drop = topLimbs * base2k - bits * levels;
    long half = drop > 0 ? 1L << (drop - 1) : 0;
    for (int j = 0; j < n; j += S.length()) {
      LongVector carry = LongVector.zero(S);
      for (int i = aSize - 1; i >= topLimbs; i--) {
        LongVector x = carry.add(LongVector.fromArray(S, a, aOff + i * n + j));
        LongVector d = x.lanewise(VectorOperators.LSHL, shift)
            .lanewise(VectorOperators.ASHR, shift);
        carry = x.sub(d).lanewise(VectorOperators.ASHR, base2k);
      }
      LongVector v = LongVector.zero(S);
      // limbs at or beyond aSize hold zero digits (the carry is still zero there)
      for (int i = Math.min(topLimbs, aSize) - 1; i >= 0; i--) {
        LongVector x = carry.add(LongVector.fromArray(S, a, aOff + i * n + j));
        LongVector d = x.lanewise(VectorOperators.LSHL, shift)
            .lanewise(VectorOperators.ASHR, shift);
        carry = x.sub(d).lanewise(VectorOperators.ASHR, base2k);
        v = v.add(d.lanewise(VectorOperators.LSHL, base2k * (topLimbs - 1 - i)));
      }
      if (drop > 0) {
        v = v.add(half).lanewise(VectorOperators.ASHR, drop);
      }
      for (int i = levels - 1; i >= 0; i--) {
        LongVector d = v.lanewise(VectorOperators.LSHL, keep)
            .lanewise(VectorOperators.ASHR, keep);
        d.intoArray(dst, dOff + i * n + j);
        v = v.sub(d).lanewise(VectorOperators.ASHR, bits);
      }
    }
  }

  @Override
  public void rebase(int n, int fromBits, long[] a, int aOff, int aLimbs, int toBits,
      long[] res, int resOff, int resLimbs) {
    if (S.loopBound(n) != n) {
      REF.rebase(n, fromBits, a, aOff, aLimbs, toBits, res, resOff, resLimbs);
      return;
    }
    int shift = toBits * resLimbs - fromBits * aLimbs;
    int keep = 64 - toBits;
    long half = shift < 0 ? 1L << (-shift - 1) : 0;
    for (int j = 0; j < n; j += S.length()) {
      LongVector v = LongVector.fromArray(S, a, aOff + j);
      for (int l = 1; l < aLimbs; l++) {
        v = v.lanewise(VectorOperators.LSHL, fromBits)
            .add(LongVector.fromArray(S, a, aOff + l * n + j));
      }
      if (shift >= 0) {
        v = v.lanewise(VectorOperators.LSHL, shift);
      } else {
        v = v.add(half).lanewise(VectorOperators.ASHR, -shift);
      }
      for (int i = resLimbs - 1; i >= 0; i--) {
        LongVector d = v.lanewise(VectorOperators.LSHL, keep)
            .lanewise(VectorOperators.ASHR, keep);
        d.intoArray(res, resOff + i * n + j);
        v = v.sub(d).lanewise(VectorOperators.ASHR, toBits);
      }
    }
  }

  @Override
  public void traceSplit(int n, int step, long[] k, int kOff, long[] d, int dOff, long[] odd,
      int oddOff) {
    int lanes = S.length();
    if (step % lanes != 0 || n % lanes != 0) {
      REF.traceSplit(n, step, k, kOff, d, dOff, odd, oddOff);
      return;
    }
    int wrap = oddOff + n - step;
    for (int j = 0; j < step; j += lanes) {
      LongVector x = LongVector.fromArray(S, d, dOff + j);
      LongVector t = LongVector.fromArray(S, k, kOff + j);
      t.sub(x).intoArray(odd, wrap + j);
      x.add(t).intoArray(d, dOff + j);
    }
    for (int j = step; j < n; j += lanes) {
      LongVector x = LongVector.fromArray(S, d, dOff + j);
      LongVector t = LongVector.fromArray(S, k, kOff + j);
      x.sub(t).intoArray(odd, oddOff + j - step);
      x.add(t).intoArray(d, dOff + j);
    }
  }

  /**
   * Lane-wise conversion (the JDK 17 C2 does not vectorize the scalar loop): one conversion per
   * vector where it is native ({@link #NATIVE_L2D}), else {@link #toDoubles}.
   */
  @Override
  public void fromZnx(int n, long[] src, int srcOff, double[] dst, int dstOff) {
    fromZnx(NATIVE_L2D, n, src, srcOff, dst, dstOff);
  }

  /** {@link #fromZnx(int, long[], int, double[], int)} with the conversion chosen by the caller. */
  static void fromZnx(boolean nativeL2d, int n, long[] src, int srcOff, double[] dst,
      int dstOff) {
    int j = 0;
    int bound = S.loopBound(n);
    if (nativeL2d) {
      for (; j < bound; j += S.length()) {
        ((DoubleVector) LongVector.fromArray(S, src, srcOff + j)
            .convertShape(VectorOperators.L2D, D, 0)).intoArray(dst, dstOff + j);
      }
    } else {
      for (; j < bound; j += S.length()) {
        toDoubles(LongVector.fromArray(S, src, srcOff + j)).intoArray(dst, dstOff + j);
      }
    }
    REF.fromZnx(n - j, src, srcOff + j, dst, dstOff + j);
  }

  /**
   * Rounds by adding {@code 1.5 * 2^52} and reading the low bits (exactly {@link Math#rint}
   * for |x| &lt; 2^51, ties to even); a group of lanes with a larger value or a NaN takes the
   * scalar form, so the result equals {@link RefZnx#toZnx} bitwise.
   */
  @Override
  public void toZnx(int n, double[] src, int srcOff, long[] add, int addOff, long[] dst,
      int dstOff) {
    if (D.vectorBitSize() < 256) {
      // at 128-bit lanes Java 17's C2 ran this loop boxed (393,216 B per call at N = 2048 under
      // -XX:MaxVectorSize=16, KernelAllocationTest); its scalar loop is slower, never that slow
      REF.toZnx(n, src, srcOff, add, addOff, dst, dstOff);
      return;
    }
    double inv = 2.0 / n;
    int j = 0;
    for (int bound = D.loopBound(n); j < bound; j += D.length()) {
      DoubleVector x = DoubleVector.fromArray(D, src, srcOff + j).mul(inv);
      if (!x.abs().compare(VectorOperators.LT, MAGIC_RANGE).allTrue()) {
        RefZnx.toZnxPart(D.length(), n, src, srcOff + j, add, addOff + j, dst, dstOff + j);
        continue;
      }
      LongVector r = x.add(MAGIC).reinterpretAsLongs().sub(MAGIC_BITS);
      if (add != null) {
        r = r.add(LongVector.fromArray(S, add, addOff + j));
      }
      r.intoArray(dst, dstOff + j);
    }
    if (j < n) {
      RefZnx.toZnxPart(n - j, n, src, srcOff + j, add, addOff + j, dst, dstOff + j);
    }
  }

  /** Lane-wise gathers (2.3x the scalar scatter at N = 2048, JDK 17 and 25 alike). */
  @Override
  public void permute(int n, long[] src, int srcOff, int[] from, long[] neg, long[] dst,
      int dstOff) {
    if (!NATIVE_GATHER) {
      REF.permute(n, src, srcOff, from, neg, dst, dstOff);
      return;
    }
    int j = 0;
    for (int bound = S.loopBound(n); j < bound; j += S.length()) {
      LongVector m = LongVector.fromArray(S, neg, j);
      LongVector.fromArray(S, src, srcOff, from, j).lanewise(VectorOperators.XOR, m).sub(m)
          .intoArray(dst, dstOff + j);
    }
    for (; j < n; j++) {
      long m = neg[j];
      dst[dstOff + j] = (src[srcOff + from[j]] ^ m) - m;
    }
  }

  /** Lane-wise gathers, as {@link #permute}, added into dst. */
  @Override
  public void permuteAdd(int n, long[] src, int srcOff, int[] from, long[] neg, long[] dst,
      int dstOff) {
    if (!NATIVE_GATHER) {
      REF.permuteAdd(n, src, srcOff, from, neg, dst, dstOff);
      return;
    }
    int j = 0;
    for (int bound = S.loopBound(n); j < bound; j += S.length()) {
      LongVector m = LongVector.fromArray(S, neg, j);
      LongVector.fromArray(S, src, srcOff, from, j).lanewise(VectorOperators.XOR, m).sub(m)
          .add(LongVector.fromArray(S, dst, dstOff + j)).intoArray(dst, dstOff + j);
    }
    for (; j < n; j++) {
      long m = neg[j];
      dst[dstOff + j] += (src[srcOff + from[j]] ^ m) - m;
    }
  }

  /**
   * Lane-wise: every limb gathered through the permutation, the carry chain in a register, the
   * digits converted in registers (no permuted copy, no digit array). {@link #gadgetDigits}'
   * loop with the gather and the conversion; one loop serving both (the gather behind a null
   * test, the store by target type) boxed every vector of gadgetDigits on JDK 25 (2.85 MB per
   * call in {@code KernelAllocationTest}), so the two stay apart.
   */
  @Override
  public void imageGadgetDigits(int n, int base2k, long[] a, int aOff, int aSize, int[] from,
      long[] neg, int topLimbs, int bits, int levels, double[] dst, int dOff) {
    imageGadgetDigits(NATIVE_L2D, n, base2k, a, aOff, aSize, from, neg, topLimbs, bits, levels,
        dst, dOff);
  }

  /**
   * {@link #imageGadgetDigits(int, int, long[], int, int, int[], long[], int, int, int, double[],
   * int)} with the digits' conversion chosen by the caller ({@link #NATIVE_L2D}).
   */
  static void imageGadgetDigits(boolean nativeL2d, int n, int base2k, long[] a, int aOff,
      int aSize, int[] from, long[] neg, int topLimbs, int bits, int levels, double[] dst,
      int dOff) {
    if (!NATIVE_GATHER || S.loopBound(n) != n || S.length() != D.length()
        || (!nativeL2d && bits > 52)) {
      REF.imageGadgetDigits(n, base2k, a, aOff, aSize, from, neg, topLimbs, bits, levels, dst,
          dOff);
      return;
    }
    int shift = 64 - base2k;
    int keep = 64 - bits;
    int drop = topLimbs * base2k - bits * levels;
    long half = drop > 0 ? 1L << (drop - 1) : 0;
    for (int j = 0; j < n; j += S.length()) {
      LongVector m = LongVector.fromArray(S, neg, j);
      LongVector carry = LongVector.zero(S);
      for (int i = aSize - 1; i >= topLimbs; i--) {
        LongVector x = carry.add(LongVector.fromArray(S, a, aOff + i * n, from, j)
            .lanewise(VectorOperators.XOR, m).sub(m));
        LongVector d = x.lanewise(VectorOperators.LSHL, shift)
            .lanewise(VectorOperators.ASHR, shift);
        carry = x.sub(d).lanewise(VectorOperators.ASHR, base2k);
      }
      LongVector v = LongVector.zero(S);
      for (int i = Math.min(topLimbs, aSize) - 1; i >= 0; i--) {
        LongVector x = carry.add(LongVector.fromArray(S, a, aOff + i * n, from, j)
            .lanewise(VectorOperators.XOR, m).sub(m));
        LongVector d = x.lanewise(VectorOperators.LSHL, shift)
            .lanewise(VectorOperators.ASHR, shift);
        carry = x.sub(d).lanewise(VectorOperators.ASHR, base2k);
        v = v.add(d.lanewise(VectorOperators.LSHL, base2k * (topLimbs - 1 - i)));
      }
      if (drop > 0) {
        v = v.add(half).lanewise(VectorOperators.ASHR, drop);
      }
      for (int i = levels - 1; i >= 0; i--) {
        LongVector d = v.lanewise(VectorOperators.LSHL, keep)
            .lanewise(VectorOperators.ASHR, keep);
        // digits lie in [-2^(bits-1), 2^(bits-1)): within smallToDoubles' range
        (nativeL2d ? (DoubleVector) d.convertShape(VectorOperators.L2D, D, 0)
            : smallToDoubles(d)).intoArray(dst, dOff + i * n + j);
        v = v.sub(d).lanewise(VectorOperators.ASHR, bits);
      }
    }
  }
}
