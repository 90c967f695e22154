package org.jpir.vmp;

import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Chooses, once per JVM, between the scalar reference kernels and the Vector API kernels, and
 * says why. Every hot kernel family (FFT, VMP, ...) asks {@link #load} for its implementation,
 * so one decision governs all of them.
 *
 * <p>The choice is forced with {@code -Djpir.kernels=ref|panama}; without it the Vector API is
 * used when the module {@code jdk.incubator.vector} is present and its preferred species is at
 * least 128 bits wide. Forcing {@code panama} where the module is missing is an error, not a
 * silent fallback. A preferred species of 128 bits (NEON on ARM, x86 without AVX) gets each
 * family's 128-bit implementation, where the 256- and 512-bit ones would not be compiled to
 * vector instructions.
 */
public final class Kernels {

  /** The system property that forces the implementation: {@code ref} or {@code panama}. */
  public static final String PROPERTY = "jpir.kernels";

  private static final Logger LOG = LogManager.getLogger(Kernels.class);
  private static final Choice CHOICE = decide();

  private Kernels() {}

  /** What was chosen and why; immutable. */
  public record Choice(boolean vector, int vectorBits, String reason) {
    /** {@code "panama"} or {@code "ref"}. */
    public String name() {
      return vector ? "panama" : "ref";
    }

    @Override
    public String toString() {
      return vector
          ? "panama (Vector API, " + vectorBits + "-bit vectors): " + reason
          : "ref (scalar reference): " + reason;
    }
  }

  /** The JVM-wide choice, decided on first use and logged once. */
  public static Choice choice() {
    return CHOICE;
  }

  /** True when the Vector API kernels are in use. */
  public static boolean vectorEnabled() {
    return CHOICE.vector;
  }

  /**
   * Instantiates the implementation of one kernel family: {@code panamaClass} when the Vector
   * API was chosen, else {@code refClass}. Classes are loaded by name so that no class importing
   * {@code jdk.incubator.vector} is touched when the module is absent.
   */
  public static <T> T load(Class<T> family, String refClass, String panamaClass) {
    return instantiate(family, CHOICE.vector ? panamaClass : refClass);
  }

  /**
   * As {@link #load(Class, String, String)}, with {@code panama128Class} where the Vector API
   * was chosen with a preferred species narrower than 256 bits.
   */
  public static <T> T load(Class<T> family, String refClass, String panamaClass,
      String panama128Class) {
    if (!CHOICE.vector) {
      return instantiate(family, refClass);
    }
    return instantiate(family, CHOICE.vectorBits < 256 ? panama128Class : panamaClass);
  }

  /** Instantiates the reference implementation regardless of the choice (for tests). */
  public static <T> T loadRef(Class<T> family, String refClass) {
    return instantiate(family, refClass);
  }

  /**
   * Instantiates the Vector API implementation regardless of the choice (for tests).
   *
   * @throws IllegalStateException when the Vector API module is not available in this JVM
   */
  public static <T> T loadPanama(Class<T> family, String panamaClass) {
    if (vectorModuleBits() < 0) {
      throw new IllegalStateException(
          "the Vector API module jdk.incubator.vector is not available in this JVM; start it with"
              + " --add-modules=jdk.incubator.vector (see jpir-jvm.options)");
    }
    return instantiate(family, panamaClass);
  }

  private static <T> T instantiate(Class<T> family, String className) {
    try {
      Class<?> c = Class.forName(className, true, Kernels.class.getClassLoader());
      return family.cast(c.getDeclaredConstructor().newInstance());
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new IllegalStateException(
          "cannot instantiate kernel " + className + " for " + family.getSimpleName(), e);
    }
  }

  /** Preferred vector width in bits, or -1 when the module is not readable. */
  static int vectorModuleBits() {
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
      return -1;
    }
    try {
      Class<?> probe =
          Class.forName("org.jpir.vmp.panama.VectorProbe", true, Kernels.class.getClassLoader());
      return (Integer) probe.getMethod("preferredBits").invoke(null);
    } catch (ReflectiveOperationException | LinkageError e) {
      return -1;
    }
  }

  private static Choice decide() {
    String forced = System.getProperty(PROPERTY, "").trim().toLowerCase(Locale.ROOT);
    int bits = vectorModuleBits();
    Choice c;
    switch (forced) {
      case "ref":
        c = new Choice(false, 0, "forced by -D" + PROPERTY + "=ref");
        break;
      case "panama":
        if (bits < 0) {
          throw new IllegalStateException(
              "-D" + PROPERTY + "=panama but the module jdk.incubator.vector is not available;"
                  + " add --add-modules=jdk.incubator.vector to the JVM options");
        }
        c = new Choice(true, bits, "forced by -D" + PROPERTY + "=panama");
        break;
      case "":
        if (bits < 0) {
          c = new Choice(false, 0, "FALLBACK: module jdk.incubator.vector is not in the boot"
              + " layer (JVM started without --add-modules=jdk.incubator.vector)");
        } else if (bits < 128) {
          c = new Choice(false, 0, "FALLBACK: preferred vector species is only " + bits
              + " bits");
        } else {
          c = new Choice(true, bits, "module present, preferred species " + bits + " bits");
        }
        break;
      default:
        throw new IllegalArgumentException(
            "-D" + PROPERTY + "=" + forced + " is not one of: ref, panama");
    }
    if (!c.vector && forced.isEmpty()) {
      LOG.warn("vmp kernels: {}", c);
    } else {
      LOG.info("vmp kernels: {}", c);
    }
    return c;
  }
}
