package org.jpir.vmp;

/** Scalar reference of {@link ZnxKernel}: limb by limb through a carry array. */
final class RefZnx implements ZnxKernel {
  @Override
  public void normalizeStep(int n, int base2k, long[] a, int aOff, long[] carry, long[] res,
      int resOff) {
    int shift = 64 - base2k;
    for (int j = 0; j < n; j++) {
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
    java.util.Arrays.fill(tmp, 0, n, 0L);
    // limbs below the result's precision only feed carries
    for (int i = aSize - 1; i >= resSize; i--) {
      normalizeStep(n, base2k, a, aOff + i * n, tmp, null, 0);
    }
    for (int i = resSize - 1; i >= 0; i--) {
      normalizeStep(n, base2k, i < aSize ? a : null, aOff + i * n, tmp, res, resOff + i * n);
    }
  }

  @Override
  public void gadgetDigits(int n, int base2k, long[] a, int aOff, int aSize, int topLimbs,
      int bits, int levels, long[] dst, int dOff, long[] tmp) {
    // normalized to topLimbs (carries in tmp[0, N), limbs at tmp[N + l*N]), then re-digited:
    // rebase rounds half up to the top bits * levels bits and splits them
    normalize(n, base2k, a, aOff, aSize, tmp, n, topLimbs, tmp);
    rebase(n, base2k, tmp, n, topLimbs, bits, dst, dOff, levels);
  }

  @Override
  public void rebase(int n, int fromBits, long[] a, int aOff, int aLimbs, int toBits,
      long[] res, int resOff, int resLimbs) {
    int shift = toBits * resLimbs - fromBits * aLimbs;
    int keep = 64 - toBits;
    for (int j = 0; j < n; j++) {
      long v = 0;
      for (int l = 0; l < aLimbs; l++) {
        v = (v << fromBits) + a[aOff + l * n + j];
      }
      if (shift >= 0) {
        v <<= shift;
      } else {
        v = (v + (1L << (-shift - 1))) >> -shift;
      }
      for (int i = resLimbs - 1; i >= 0; i--) {
        long d = (v << keep) >> keep;
        res[resOff + i * n + j] = d;
        v = (v - d) >> toBits;
      }
    }
  }

  @Override
  public void traceSplit(int n, int step, long[] k, int kOff, long[] d, int dOff, long[] odd,
      int oddOff) {
    int wrap = oddOff + n - step;
    for (int j = 0; j < step; j++) {
      long x = d[dOff + j];
      long t = k[kOff + j];
      odd[wrap + j] = t - x;
      d[dOff + j] = x + t;
    }
    for (int j = step; j < n; j++) {
      long x = d[dOff + j];
      long t = k[kOff + j];
      odd[oddOff + j - step] = x - t;
      d[dOff + j] = x + t;
    }
  }

  @Override
  public void fromZnx(int n, long[] src, int srcOff, double[] dst, int dstOff) {
    for (int j = 0; j < n; j++) {
      dst[dstOff + j] = src[srcOff + j];
    }
  }

  @Override
  public void toZnx(int n, double[] src, int srcOff, long[] add, int addOff, long[] dst,
      int dstOff) {
    toZnxPart(n, n, src, srcOff, add, addOff, dst, dstOff);
  }

  /** {@link #toZnx} of transforms of size n for the first {@code count} coefficients. */
  static void toZnxPart(int count, int n, double[] src, int srcOff, long[] add, int addOff,
      long[] dst, int dstOff) {
    double inv = 2.0 / n;
    if (add == null) {
      for (int j = 0; j < count; j++) {
        dst[dstOff + j] = (long) Math.rint(src[srcOff + j] * inv);
      }
    } else {
      for (int j = 0; j < count; j++) {
        dst[dstOff + j] = (long) Math.rint(src[srcOff + j] * inv) + add[addOff + j];
      }
    }
  }

  @Override
  public void permute(int n, long[] src, int srcOff, int[] from, long[] neg, long[] dst,
      int dstOff) {
    for (int i = 0; i < n; i++) {
      long m = neg[i];
      dst[dstOff + i] = (src[srcOff + from[i]] ^ m) - m;
    }
  }

  @Override
  public void permuteAdd(int n, long[] src, int srcOff, int[] from, long[] neg, long[] dst,
      int dstOff) {
    for (int i = 0; i < n; i++) {
      long m = neg[i];
      dst[dstOff + i] += (src[srcOff + from[i]] ^ m) - m;
    }
  }

  /** Coefficient by coefficient, the carry chain of {@link #normalize} in a local. */
  @Override
  public void imageGadgetDigits(int n, int base2k, long[] a, int aOff, int aSize, int[] from,
      long[] neg, int topLimbs, int bits, int levels, double[] dst, int dOff) {
    int shift = 64 - base2k;
    int keep = 64 - bits;
    int drop = topLimbs * base2k - bits * levels;
    for (int j = 0; j < n; j++) {
      int f = aOff + from[j];
      long m = neg[j];
      long carry = 0;
      for (int i = aSize - 1; i >= topLimbs; i--) {
        long x = carry + ((a[f + i * n] ^ m) - m);
        long d = (x << shift) >> shift;
        carry = (x - d) >> base2k;
      }
      long v = 0;
      for (int i = Math.min(topLimbs, aSize) - 1; i >= 0; i--) {
        long x = carry + ((a[f + i * n] ^ m) - m);
        long d = (x << shift) >> shift;
        carry = (x - d) >> base2k;
        v += d << (base2k * (topLimbs - 1 - i));
      }
      if (drop > 0) {
        v = (v + (1L << (drop - 1))) >> drop;
      }
      for (int i = levels - 1; i >= 0; i--) {
        long d = (v << keep) >> keep;
        dst[dOff + i * n + j] = d;
        v = (v - d) >> bits;
      }
    }
  }
}
