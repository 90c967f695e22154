package org.jpir.vmp;

/**
 * Factory of {@link VmpKernel} implementations, for tests and benchmarks that must pick one
 * regardless of the JVM-wide choice; use with {@link Vmp#with(VmpKernel)}.
 */
public final class VmpKernels {
  static final String REF = "org.jpir.vmp.RefVmp";
  static final String PANAMA = "org.jpir.vmp.panama.PanamaVmp";
  static final String PANAMA128 = "org.jpir.vmp.panama.Panama128Vmp";

  private static final VmpKernel DEFAULT = Kernels.load(VmpKernel.class, REF, PANAMA, PANAMA128);

  private VmpKernels() {}

  /** The kernel chosen once for this JVM by {@link Kernels}. */
  public static VmpKernel defaultKernel() {
    return DEFAULT;
  }

  /** The scalar reference. */
  public static VmpKernel ref() {
    return Kernels.loadRef(VmpKernel.class, REF);
  }

  /**
   * The Vector API kernel with its width chosen from the preferred species (512, 256 or 128).
   *
   * @throws IllegalStateException when the Vector API module is not available
   */
  public static VmpKernel panama() {
    int bits = Kernels.vectorModuleBits();
    return Kernels.loadPanama(VmpKernel.class, bits > 0 && bits < 256 ? PANAMA128 : PANAMA);
  }

  /**
   * The Vector API kernel forced to one width.
   *
   * @param bits 128, 256 or 512
   * @throws IllegalStateException when the Vector API module is not available
   */
  public static VmpKernel panama(int bits) {
    if (bits == 128) {
      return panama(VmpBlock.choose(128, Runtime.version().feature(),
          CpuInfo.get().vectorRegisters(), null).block());
    }
    panama(); // checks the module
    try {
      Class<?> c = Class.forName(PANAMA, true, VmpKernels.class.getClassLoader());
      return (VmpKernel) c.getConstructor(int.class).newInstance(bits);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot instantiate " + PANAMA + "(" + bits + ")", e);
    }
  }

  /**
   * The Vector API kernel forced to one register block (see {@link VmpBlock#SUPPORTED}).
   *
   * @throws IllegalStateException when the Vector API module is not available
   */
  public static VmpKernel panama(VmpBlock block) {
    panama(); // checks the module
    String name = block.bits() == 128 ? PANAMA128 : PANAMA;
    try {
      Class<?> c = Class.forName(name, true, VmpKernels.class.getClassLoader());
      return (VmpKernel) c.getConstructor(VmpBlock.class).newInstance(block);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot instantiate " + name + "(" + block + ")", e);
    }
  }

  /**
   * {@code "ref"}, {@code "panama"}, {@code "panama256"}, {@code "panama512"} (width forced,
   * block automatic), or {@code "panama<bits>-<vectors>x<columns>"} (block forced, e.g. {@code
   * panama256-1x3}).
   */
  public static VmpKernel byName(String name) {
    switch (name) {
      case "ref":
        return ref();
      case "panama":
        return panama();
      case "panama256":
        return panama(256);
      case "panama512":
        return panama(512);
      case "panama128":
        return panama(128);
      default:
        if (name.matches("panama(128|256|512)-[12]x[1-6]")) {
          return panama(VmpBlock.parse(name.substring(6).replace('-', ':')));
        }
        throw new IllegalArgumentException("kernel name '" + name + "' is not one of ref, panama,"
            + " panama128, panama256, panama512, panama<bits>-<vectors>x<columns> (blocks "
            + VmpBlock.SUPPORTED + ")");
    }
  }
}
