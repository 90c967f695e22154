package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Properties every {@link FftKernel} must have, run against the reference and Vector API. */
class FftContractTest {
  static final FftKernel REF = KernelProvider.fftKernel("ref");
  static final FftKernel PANAMA = KernelProvider.fftKernel("panama");
  /** The Vector API kernel with its radix-4 width forced: 256 and 512 bits. */
  static final FftKernel PANAMA_256 = KernelProvider.fftKernel("panama256");
  static final FftKernel PANAMA_512 = KernelProvider.fftKernel("panama512");
  /** 512-bit radix-4 passes with the 256-bit size-8 leaves. */
  static final FftKernel PANAMA_512_LEAF_256 = KernelProvider.fftKernel("panama512-leaf256");
  /** The 128-bit kernel (NEON's width). */
  static final FftKernel PANAMA_128 = KernelProvider.fftKernel("panama128");
  /** Every kernel under test (the JVM-wide Vector API one is one of the three widths). */
  static final List<FftKernel> ALL = List.of(REF, PANAMA_256, PANAMA_512, PANAMA_512_LEAF_256,
      PANAMA_128);

  static Stream<FftKernel> kernels() {
    return ALL.stream();
  }

  /** Every kernel x every supported N up to 65536. */
  static Stream<Arguments> kernelsAndSizes() {
    List<Arguments> out = new ArrayList<>();
    for (FftKernel k : ALL) {
      for (int n = 16; n <= 65536; n *= 2) {
        out.add(Arguments.of(k.getClass().getSimpleName(), k, n));
      }
    }
    return out.stream();
  }

  static Stream<Integer> sizes() {
    List<Integer> out = new ArrayList<>();
    for (int n = 16; n <= 65536; n *= 2) {
      out.add(n);
    }
    return out.stream();
  }

  static double[] random(SplittableRandom rnd, int len, double bound) {
    double[] x = new double[len];
    for (int i = 0; i < len; i++) {
      x[i] = rnd.nextDouble(-bound, bound);
    }
    return x;
  }

  /** Direct evaluation of slot j for small N: c(w_rev(j)). */
  @ParameterizedTest(name = "{0} N={2}")
  @MethodSource("kernelsAndSizes")
  void slotsAreEvaluationsAtBitReversedRoots(String name, FftKernel k, int n) {
    if (n > 1024) {
      return; // O(N^2) evaluation; the larger sizes are covered against the reference below
    }
    long seed = 11L * n;
    SplittableRandom rnd = new SplittableRandom(seed);
    int m = n / 2;
    double[] x = random(rnd, n, 1.0);
    double[] buf = x.clone();
    FftPlan.of(n).withKernel(k).fft(buf, 0);
    int bits = Integer.numberOfTrailingZeros(m);
    double tol = 1e-13 * n;
    for (int j = 0; j < m; j++) {
      int rev = Integer.reverse(j) >>> (32 - bits);
      double ang = Math.PI * (1 + 4.0 * rev) / n;
      // c(w) with c_l = x_l + i x_{l+m}
      double sr = 0;
      double si = 0;
      for (int l = 0; l < m; l++) {
        double cr = Math.cos(ang * l);
        double ci = Math.sin(ang * l);
        sr += x[l] * cr - x[m + l] * ci;
        si += x[l] * ci + x[m + l] * cr;
      }
      assertEquals(sr, buf[j], tol, "re slot " + j + " seed " + seed);
      assertEquals(si, buf[m + j], tol, "im slot " + j + " seed " + seed);
    }
  }

  /** ifft(fft(x)) = m x, relative to ||x||_inf, with an offset inside a larger buffer. */
  @ParameterizedTest(name = "{0} N={2}")
  @MethodSource("kernelsAndSizes")
  void inverseOfForwardIsMTimesInput(String name, FftKernel k, int n) {
    long seed = 13L * n + 1;
    SplittableRandom rnd = new SplittableRandom(seed);
    int off = 3;
    double[] x = random(rnd, n + 2 * off, 1000.0);
    double[] buf = x.clone();
    FftPlan p = FftPlan.of(n).withKernel(k);
    p.fft(buf, off);
    p.ifft(buf, off);
    int m = n / 2;
    double tol = 1000.0 * m * Math.log(n) * 0x1p-50;
    for (int i = 0; i < off; i++) {
      assertEquals(x[i], buf[i], "untouched prefix, seed " + seed);
      assertEquals(x[off + n + i], buf[off + n + i], "untouched suffix, seed " + seed);
    }
    for (int i = 0; i < n; i++) {
      assertEquals(m * x[off + i], buf[off + i], tol, "index " + i + " seed " + seed);
    }
  }

  /**
   * The Vector API kernel equals the reference within {@code ||x||_1 log2(N) 2^-50} per output,
   * forward and inverse (they differ only in fused multiply-adds).
   */
  static Stream<Arguments> widthsAndSizes() {
    List<Arguments> out = new ArrayList<>();
    for (FftKernel k : List.of(PANAMA_256, PANAMA_512)) {
      for (int n = 16; n <= 65536; n *= 2) {
        out.add(Arguments.of(((PanamaFft) k).bits(), k, n));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}-bit N={2}")
  @MethodSource("widthsAndSizes")
  void panamaAgreesWithReference(int bits, FftKernel pk, int n) {
    long seed = 17L * n + 5;
    SplittableRandom rnd = new SplittableRandom(seed);
    double[] x = random(rnd, n, 1 << 20);
    double l1 = 0;
    for (double v : x) {
      l1 += Math.abs(v);
    }
    double tol = l1 * Integer.numberOfTrailingZeros(n) * 0x1p-50;
    FftPlan ref = FftPlan.of(n).withKernel(REF);
    FftPlan pan = FftPlan.of(n).withKernel(pk);
    double[] a = x.clone();
    double[] b = x.clone();
    ref.fft(a, 0);
    pan.fft(b, 0);
    double worst = 0;
    for (int i = 0; i < n; i++) {
      worst = Math.max(worst, Math.abs(a[i] - b[i]));
    }
    assertTrue(worst <= tol,
        "fft " + bits + "-bit: max |panama - ref| = " + worst + " > " + tol + ", seed " + seed);
    a = x.clone();
    b = x.clone();
    ref.ifft(a, 0);
    pan.ifft(b, 0);
    worst = 0;
    for (int i = 0; i < n; i++) {
      worst = Math.max(worst, Math.abs(a[i] - b[i]));
    }
    assertTrue(worst <= tol,
        "ifft " + bits + "-bit: max |panama - ref| = " + worst + " > " + tol + ", seed " + seed);
  }

  /** The default plan runs the JVM-wide kernel and the named variants run what they say. */
  @Test
  void namedImplementationsRunTheirKernel() {
    assertEquals("RefFft", FftPlan.of(64, "ref").kernelName());
    assertEquals("PanamaFft", FftPlan.of(64, "panama").kernelName());
    assertEquals("Narrow", FftPlan.of(64, "panama256").kernelName());
    assertEquals("Wide", FftPlan.of(64, "panama512").kernelName());
    assertEquals("Panama128Fft", FftPlan.of(64, "panama128").kernelName());
    assertEquals(256, ((PanamaFft) PANAMA_256).bits());
    assertEquals(512, ((PanamaFft) PANAMA_512).bits());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> FftPlan.of(64, "cuda"));
    assertTrue(e.getMessage().contains("cuda"), e.getMessage());
  }

  @Test
  void plansAreCached() {
    assertTrue(FftPlan.of(4096) == FftPlan.of(4096));
  }

  @ParameterizedTest
  @MethodSource("kernels")
  void badArgumentsAreNamed(FftKernel k) {
    for (int bad : new int[] {0, -16, 8, 24, 1000, 1 << 18}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> FftPlan.of(bad));
      assertTrue(e.getMessage().contains("N=" + bad), e.getMessage());
    }
    FftPlan p = FftPlan.of(64).withKernel(k);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> p.fft(new double[63], 0));
    assertTrue(e.getMessage().contains("fft buffer") && e.getMessage().contains("63"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.ifft(new double[64], 1));
    assertTrue(e.getMessage().contains("ifft buffer") && e.getMessage().contains("offset 1"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.fft(new double[100], -1));
    assertTrue(e.getMessage().contains("offset -1"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.ifft(null, 0));
    assertTrue(e.getMessage().contains("null"), e.getMessage());
  }

  /** fft is linear and the pointwise product of transforms is the negacyclic product. */
  @ParameterizedTest(name = "{0} N={2}")
  @MethodSource("kernelsAndSizes")
  void productOfTransformsIsExactNegacyclicProduct(String name, FftKernel k, int n) {
    if (n > 2048) {
      return; // naive O(N^2); large N are sampled in FftPrecisionTest
    }
    long seed = 19L * n;
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] a = new long[n];
    long[] b = new long[n];
    for (int j = 0; j < n; j++) {
      a[j] = rnd.nextInt(-(1 << 12), 1 << 12);
      b[j] = rnd.nextInt(-(1 << 12), 1 << 12);
    }
    long[] want = Exact.negacyclic(a, b);
    assertArrayEquals(want, Exact.fftProduct(FftPlan.of(n).withKernel(k), a, b), "seed " + seed);
  }
}
