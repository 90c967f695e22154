package org.jpir.vmp;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/**
 * Where the 64-byte (cache-line, 512-bit vector) boundaries of a {@code double[]} fall. The data
 * of an array starts {@link #baseOffset()} bytes after the object, and with {@code
 * -XX:ObjectAlignmentInBytes=64} (in {@code jpir-jvm.options}) every object starts on a 64-byte
 * boundary, so element {@code LEAD + 8k} of every {@code double[]} starts one: {@code
 * (baseOffset() + 8*LEAD) % 64 == 0}. Without that option, only arrays G1 allocates as
 * humongous (a region start) are placed so; others land on any 8-byte boundary, a different
 * one in each JVM and after each copying collection.
 *
 * <p>Why it matters: a 512-bit load across two cache lines costs two; measured on an AMD EPYC
 * Zen 5 (one JVM, same arrays, only the offset changed), the N=4096 FFT took 2.35 against 2.85 us
 * and IFFT 2.80 against 3.33 us, the 2x6 multi-column kernel 244-285 against 281-315 ns. Hot
 * layouts and scratch ({@link Pmat}, {@link Pvec}, the FFT tables, the VMP scratch) therefore
 * start their data at {@link #LEAD} (or {@link #up}) rather than at 0.
 */
public final class Aligned {
  /** The boundary, in bytes. */
  public static final int BYTES = 64;

  private static final int BASE = arrayBase();

  /** Doubles to skip so that the next one starts on a 64-byte boundary (see above): 0-7. */
  public static final int LEAD = lead(BASE);

  private static final int OBJECT_ALIGNMENT = readObjectAlignment();

  private Aligned() {}

  /** The lead, in doubles, for an array whose data starts {@code base} bytes into the object. */
  static int lead(int base) {
    return ((BYTES - Math.floorMod(base, BYTES)) % BYTES) / Double.BYTES;
  }

  /** The smallest index {@code >= i} at a 64-byte boundary (i.e. {@code = LEAD mod 8}). */
  public static int up(int i) {
    return i + Math.floorMod(LEAD - i, 8);
  }

  /** A zeroed array of {@code LEAD + length} doubles: its data starts at index {@link #LEAD}. */
  public static double[] doubles(int length) {
    return new double[Math.addExact(LEAD, length)];
  }

  /** Doubles of an array from {@link #doubles}: {@code a.length - LEAD}. */
  static int length(double[] a) {
    return a.length - LEAD;
  }

  /** A copy of the doubles of an array from {@link #doubles}, from index {@link #LEAD} on. */
  static double[] copyOf(double[] a) {
    return Arrays.copyOfRange(a, LEAD, a.length);
  }

  /** {@code a[LEAD + i] = f(i)} for every double i of an array from {@link #doubles}. */
  static void setAll(double[] a, IntToDoubleFunction f) {
    for (int i = 0, len = length(a); i < len; i++) {
      a[LEAD + i] = f.applyAsDouble(i);
    }
  }

  /** Bytes from the start of a {@code double[]} object to element 0 (16 where unknown). */
  public static int baseOffset() {
    return BASE;
  }

  /** The JVM's {@code ObjectAlignmentInBytes} (8 where unknown). */
  public static int objectAlignment() {
    return OBJECT_ALIGNMENT;
  }

  /** True when every object, hence every index {@code LEAD + 8k}, is 64-byte aligned. */
  public static boolean guaranteed() {
    return OBJECT_ALIGNMENT % BYTES == 0;
  }

  /** One line for the kernel log. */
  public static String describe() {
    return guaranteed()
        ? "arrays 64-byte aligned at index " + LEAD + " (ObjectAlignmentInBytes=" + OBJECT_ALIGNMENT
            + ", array base " + BASE + " B)"
        : "arrays NOT 64-byte aligned (ObjectAlignmentInBytes=" + OBJECT_ALIGNMENT + "; add"
            + " -XX:ObjectAlignmentInBytes=64 from jpir-jvm.options): kernels split loads across"
            + " cache lines, and their speed differs from JVM to JVM";
  }

  private static int arrayBase() {
    try {
      // a public constant of jdk.unsupported; reading it calls none of Unsafe's methods
      return Class.forName("sun.misc.Unsafe").getField("ARRAY_DOUBLE_BASE_OFFSET").getInt(null);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return 16;
    }
  }

  private static int readObjectAlignment() {
    try {
      return Integer.parseInt(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
          .getVMOption("ObjectAlignmentInBytes").getValue());
    } catch (RuntimeException | LinkageError e) {
      return 8;
    }
  }
}
