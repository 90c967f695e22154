package org.jpir.vmp;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The one source of the hot kernels (FFT stages, VMP inner loops, znx normalization), chosen
 * once per JVM and logged with the widths and the VMP block actually used and why (in the
 * manner of Lucene's {@code VectorizationProvider}). {@link #get()} is the JVM-wide provider:
 * {@link FftPlan#of(int)}, {@link Vmp#get()}, {@link Reim4} and {@link Znx} run on its kernels.
 *
 * <p>Two implementations: the scalar reference, and the Vector API one, whose class (in the
 * source root {@code src/main/panama}) is loaded by name only when the module {@code
 * jdk.incubator.vector} is in the boot layer, so that nothing touches the module where it is
 * absent. The kernel interfaces are package-private; only this class, {@link FftPlan} and
 * {@link Vmp} are seen from outside.
 *
 * <p>Policy ({@link #decide}, the only place it is written): the Vector API when the module is
 * present, its preferred species is at least 128 bits and C2 compiles (without it vector code
 * runs as boxed objects, slower than the scalar loops), else the reference (a FALLBACK, logged
 * as a warning with its cause). Vector API widths: the FFT's radix-4 passes use 512-bit
 * vectors when the preferred species is 512 bits, from JDK 25 on, or from JDK 17 on with
 * {@code -XX:TypeProfileLevel=222} (without it JDK 17's C2 boxed them: {@link #typeProfiled}),
 * 128-bit kernels when it is 128 bits (NEON, x86 without AVX), else 256; the VMP block is
 * {@link VmpBlock#choose}'s; znx uses the preferred species. Forcing: {@code -Djpir.kernels=ref|panama}
 * ({@value #PROPERTY}; {@code panama} without the module is an error, not a silent fallback),
 * {@code -Djpir.fft.bits=128|256|512} ({@value #FFT_BITS_PROPERTY}), {@code
 * -Djpir.vmp.block=512:3x4|...} ({@link VmpBlock#PROPERTY}).
 */
public abstract class KernelProvider {

  /** The system property that forces the implementation: {@code ref} or {@code panama}. */
  public static final String PROPERTY = "jpir.kernels";
  /** The system property that forces the FFT's radix-4 width: 128, 256 or 512. */
  public static final String FFT_BITS_PROPERTY = "jpir.fft.bits";

  private static final Logger LOG = LogManager.getLogger(KernelProvider.class);
  private static final String PANAMA_CLASS = "org.jpir.vmp.PanamaKernelProvider";

  private final Choice choice;
  private final FftKernel fft;
  private final VmpKernel vmpKernel;
  private final ZnxKernel znx;
  private final Vmp vmp;

  KernelProvider(Choice choice, FftKernel fft, VmpKernel vmpKernel, ZnxKernel znx) {
    this.choice = choice;
    this.fft = fft;
    this.vmpKernel = vmpKernel;
    this.znx = znx;
    this.vmp = new Vmp(vmpKernel);
  }

  /**
   * What a provider uses and why; immutable.
   *
   * @param vector true for the Vector API kernels, false for the scalar reference
   * @param reason why this implementation
   * @param fftBits radix-4 vector width of the FFT (0 for the reference)
   * @param fftReason why that width
   * @param vmpBlock the register block of the multi-column VMP pass (the reference reports
   *     {@link VmpBlock#B512_3X4}, by which the pass is tiled)
   * @param vmpReason why that block
   * @param znxBits lane width of the znx normalization (0 for the reference)
   */
  public record Choice(boolean vector, String reason, int fftBits, String fftReason,
      VmpBlock vmpBlock, String vmpReason, int znxBits) {
    /** {@code "panama"} or {@code "ref"}. */
    public String name() {
      return vector ? "panama" : "ref";
    }

    /** One line: what each kernel family uses and why. */
    @Override
    public String toString() {
      if (!vector) {
        return "ref (scalar reference FFT, VMP and znx; VMP tiled as block " + vmpBlock + "): "
            + reason;
      }
      String fft = fftBits == 512
          ? "512-bit radix-4 passes and size-8 leaves, 256-bit size-4 leaves"
          : fftBits + "-bit radix-4 passes and leaves";
      String applies = vmpBlock.bits() == 128 ? "128-bit" : "256-bit";
      return "panama (Vector API: " + reason + "); FFT " + fft + " [" + fftReason + "]; VMP block "
          + vmpBlock + ", " + vmpBlock.accumulators() + " accumulators of " + vmpBlock.bits()
          + " bits, " + (vmpBlock.gauss() ? "three" : "four") + " products per complex product, "
          + applies + " per-column applies [" + vmpReason + "]; znx " + znxBits
          + "-bit lanes [preferred species]";
    }
  }

  /** The JVM-wide provider, decided on first use and logged once. */
  public static KernelProvider get() {
    return Jvm.INSTANCE;
  }

  /** The scalar reference provider (always available; for comparisons, tests, benchmarks). */
  public static KernelProvider ref() {
    return Ref.INSTANCE;
  }

  /**
   * The Vector API provider with this JVM's automatic widths (the width and block properties
   * apply, {@code -Djpir.kernels} does not); the JVM-wide one when that is the Vector API.
   *
   * @throws IllegalStateException when the module {@code jdk.incubator.vector} is not available
   */
  public static KernelProvider panama() {
    KernelProvider p = get();
    if (p.choice.vector()) {
      return p;
    }
    if (PanamaClass.preferredBits() < 0) {
      throw new IllegalStateException("the Vector API module jdk.incubator.vector is not"
          + " available in this JVM; start it with --add-modules=jdk.incubator.vector (see"
          + " jpir-jvm.options)");
    }
    return PanamaHolder.INSTANCE;
  }

  /** What this provider uses and why. */
  public Choice choice() {
    return choice;
  }

  /** True for the Vector API kernels. */
  public boolean vector() {
    return choice.vector();
  }

  /** {@code "panama"} or {@code "ref"}. */
  public String name() {
    return choice.name();
  }

  /** The vector-matrix products on this provider's VMP kernel. */
  public Vmp vmp() {
    return vmp;
  }

  /** {@link Choice#toString()}. */
  @Override
  public String toString() {
    return choice.toString();
  }

  // ----- the kernels (package-private service interface) -------------------------------------

  /** The FFT stage kernel. */
  final FftKernel fftKernel() {
    return fft;
  }

  /** The VMP kernel with the chosen block. */
  final VmpKernel vmpKernel() {
    return vmpKernel;
  }

  /** The znx normalization kernel. */
  final ZnxKernel znxKernel() {
    return znx;
  }

  /**
   * A Vector API FFT kernel by name: {@code panama} (class {@code PanamaFft} at this provider's
   * 256/512 width), {@code panama128}, {@code panama256}, {@code panama512}; null otherwise.
   */
  abstract FftKernel fftVariant(String name);

  /** A Vector API VMP kernel forced to {@code block} (any of {@link VmpBlock#SUPPORTED}). */
  abstract VmpKernel vmpVariant(VmpBlock block);

  /**
   * The FFT kernel named {@code name}: {@code ref}, or a Vector API variant ({@link
   * #fftVariant}).
   *
   * @throws IllegalArgumentException for an unknown name
   * @throws IllegalStateException for a Vector API name when the module is not available
   */
  static FftKernel fftKernel(String name) {
    if (name.equals("ref")) {
      return ref().fftKernel();
    }
    if (!name.matches("panama(128|256|512)?|panama512-leaf256")) {
      throw new IllegalArgumentException("FFT implementation '" + name
          + "' is not one of: ref, panama, panama128, panama256, panama512, panama512-leaf256");
    }
    return panama().fftVariant(name);
  }

  /**
   * The VMP kernel named {@code name}: {@code ref}, {@code panama} (the automatic block), {@code
   * panama128|256|512} (width forced, {@link VmpBlock#forWidth} for this machine's registers),
   * {@code panama<bits>-<vectors>x<columns>} (block forced, e.g. {@code panama256-1x3}).
   *
   * @throws IllegalArgumentException for an unknown name
   * @throws IllegalStateException for a Vector API name when the module is not available
   */
  static VmpKernel vmpKernel(String name) {
    if (name.equals("ref")) {
      return ref().vmpKernel();
    }
    if (name.equals("panama")) {
      return panama().vmpKernel();
    }
    if (name.matches("panama(128|256|512)")) {
      return panama().vmpVariant(VmpBlock.forWidth(Integer.parseInt(name.substring(6)),
          CpuInfo.get().vectorRegisters()));
    }
    if (name.matches("panama(128|256|512)-[123]x[1-6]")) {
      return panama().vmpVariant(VmpBlock.parse(name.substring(6).replace('-', ':')));
    }
    throw new IllegalArgumentException("kernel name '" + name + "' is not one of ref, panama,"
        + " panama128, panama256, panama512, panama<bits>-<vectors>x<columns> (blocks "
        + VmpBlock.SUPPORTED + ")");
  }

  // ----- the policy --------------------------------------------------------------------------

  /**
   * The choice for a JVM whose Vector API module has a preferred species of {@code
   * preferredBits} bits ({@code -1}: module absent), of Java {@code jdk}, with {@code registers}
   * vector registers, with ({@code c2}) or without the C2 compiler, under the forcing property
   * values {@code kernels}, {@code fftBits}, {@code vmpBlock} (each may be null or blank). See
   * the class comment.
   *
   * @throws IllegalArgumentException for a forcing value that is not one of the allowed ones
   * @throws IllegalStateException for {@code kernels = panama} when the module is absent
   */
  static Choice decide(int preferredBits, int jdk, int registers, boolean c2, String kernels,
      String fftBits, String vmpBlock) {
    return decide(preferredBits, jdk, false, registers, c2, kernels, fftBits, vmpBlock);
  }

  /**
   * {@link #decide(int, int, int, boolean, String, String, String)} in a JVM whose C2 profiles
   * argument and return types ({@code typeProfiled}, {@link #typeProfiled()}): there 512-bit
   * kernels compile without boxing from JDK 17 on, elsewhere from JDK 25 on.
   */
  static Choice decide(int preferredBits, int jdk, boolean typeProfiled, int registers,
      boolean c2, String kernels, String fftBits, String vmpBlock) {
    String forced = kernels == null ? "" : kernels.trim().toLowerCase(Locale.ROOT);
    String why;
    switch (forced) {
      case "ref":
        return refChoice("forced by -D" + PROPERTY + "=ref");
      case "panama":
        if (preferredBits < 0) {
          throw new IllegalStateException("-D" + PROPERTY + "=panama but the module"
              + " jdk.incubator.vector is not available; add --add-modules=jdk.incubator.vector"
              + " to the JVM options (see jpir-jvm.options)");
        }
        why = "forced by -D" + PROPERTY + "=panama, preferred species " + preferredBits + " bits";
        break;
      case "":
        if (preferredBits < 0) {
          return refChoice("FALLBACK: module jdk.incubator.vector is not in the boot layer (JVM"
              + " started without --add-modules=jdk.incubator.vector)");
        }
        if (preferredBits < 128) {
          return refChoice("FALLBACK: preferred vector species is only " + preferredBits
              + " bits");
        }
        if (!c2) {
          return refChoice("FALLBACK: the C2 compiler is off (-Xint or"
              + " -XX:TieredStopAtLevel below 4), so vector code would run boxed");
        }
        why = "module present, preferred species " + preferredBits + " bits";
        break;
      default:
        throw new IllegalArgumentException(
            "-D" + PROPERTY + "=" + kernels + " is not one of: ref, panama");
    }
    return vectorChoice(why, preferredBits, jdk, typeProfiled, registers, fftBits, vmpBlock);
  }

  private static Choice refChoice(String reason) {
    return new Choice(false, reason, 0, "", VmpBlock.B512_3X4, "the reference's tiling block", 0);
  }

  private static Choice vectorChoice(String why, int preferredBits, int jdk,
      boolean typeProfiled, int registers, String fftBits, String vmpBlock) {
    String f = fftBits == null ? "" : fftBits.trim();
    int fft;
    String fftWhy;
    if (!f.isEmpty()) {
      if (!f.matches("128|256|512")) {
        throw new IllegalArgumentException(
            "-D" + FFT_BITS_PROPERTY + "=" + fftBits + " is not one of: 128, 256, 512");
      }
      fft = Integer.parseInt(f);
      fftWhy = "forced by -D" + FFT_BITS_PROPERTY;
    } else if (preferredBits < 256) {
      fft = 128;
      fftWhy = "preferred species " + preferredBits + " bits: wider vectors would not be compiled";
    } else if (preferredBits >= 512 && VmpBlock.wideCompiles(jdk, typeProfiled)) {
      fft = 512;
      fftWhy = "preferred species " + preferredBits + " bits, JDK " + jdk
          + (jdk < 25 ? " with -XX:TypeProfileLevel=222" : "");
    } else {
      fft = 256;
      fftWhy = "preferred species " + preferredBits + " bits, JDK " + jdk
          + (preferredBits >= 512 ? ": 512-bit passes need JDK 25, or -XX:TypeProfileLevel=222"
          + " (without it JDK 17's C2 boxed them)" : "");
    }
    VmpBlock.Choice b = VmpBlock.choose(preferredBits, jdk, typeProfiled, registers, vmpBlock);
    return new Choice(true, why, fft, fftWhy, b.block(), b.reason(), preferredBits);
  }

  // ----- instances ---------------------------------------------------------------------------

  /**
   * False when HotSpot says C2 will not compile ({@code UseCompiler} false, or tiered compilation
   * stopped below level 4); true when it does or when the flags cannot be read (another VM).
   */
  /**
   * Whether C2 profiles the types of parameters, arguments and return values at every call site
   * ({@code -XX:TypeProfileLevel=222}, in the project's JVM options); false when unknown.
   */
  static boolean typeProfiled() {
    try {
      com.sun.management.HotSpotDiagnosticMXBean b = java.lang.management.ManagementFactory
          .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      return b.getVMOption("TypeProfileLevel").getValue().trim().equals("222");
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  static boolean c2Enabled() {
    try {
      com.sun.management.HotSpotDiagnosticMXBean b = java.lang.management.ManagementFactory
          .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      if (!Boolean.parseBoolean(b.getVMOption("UseCompiler").getValue())) {
        return false;
      }
      return !Boolean.parseBoolean(b.getVMOption("TieredCompilation").getValue())
          || Integer.parseInt(b.getVMOption("TieredStopAtLevel").getValue()) >= 4;
    } catch (RuntimeException | LinkageError e) {
      return true;
    }
  }

  /** The JVM-wide provider; a holder so that the choice happens on first use only. */
  private static final class Jvm {
    static final KernelProvider INSTANCE = create();

    private static KernelProvider create() {
      int bits = PanamaClass.preferredBits();
      Choice c = decide(bits, Runtime.version().feature(), typeProfiled(),
          CpuInfo.get().vectorRegisters(), c2Enabled(), System.getProperty(PROPERTY),
          System.getProperty(FFT_BITS_PROPERTY), System.getProperty(VmpBlock.PROPERTY));
      KernelProvider p = c.vector() ? PanamaClass.instantiate(c) : new RefKernelProvider(c);
      if (!c.vector() && c.reason().startsWith("FALLBACK")) {
        LOG.warn("kernels: {}", p);
      } else {
        LOG.info("kernels: {}", p);
      }
      if (Aligned.guaranteed()) {
        LOG.info("kernels: {}", Aligned.describe());
      } else {
        LOG.warn("kernels: {}", Aligned.describe());
      }
      return p;
    }
  }

  private static final class Ref {
    static final KernelProvider INSTANCE =
        new RefKernelProvider(refChoice("requested (KernelProvider.ref())"));
  }

  /** The Vector API provider when the JVM-wide one is the reference (module checked first). */
  private static final class PanamaHolder {
    static final KernelProvider INSTANCE = create();

    private static KernelProvider create() {
      int bits = PanamaClass.preferredBits();
      return PanamaClass.instantiate(vectorChoice("requested (KernelProvider.panama()),"
          + " preferred species " + bits + " bits", bits, Runtime.version().feature(),
          typeProfiled(), CpuInfo.get().vectorRegisters(), System.getProperty(FFT_BITS_PROPERTY),
          System.getProperty(VmpBlock.PROPERTY)));
    }
  }

  /**
   * The Vector API provider class, loaded by name once and only when the module is in the boot
   * layer: its static {@code preferredBits()} and its constructor {@code (Choice)}.
   */
  private static final class PanamaClass {
    private static final MethodHandle PREFERRED_BITS;
    private static final MethodHandle CONSTRUCTOR;

    static {
      MethodHandle bits = null;
      MethodHandle ctor = null;
      if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
        try {
          Class<?> c = Class.forName(PANAMA_CLASS, true, KernelProvider.class.getClassLoader());
          MethodHandles.Lookup l = MethodHandles.lookup();
          bits = l.findStatic(c, "preferredBits", MethodType.methodType(int.class));
          ctor = l.findConstructor(c, MethodType.methodType(void.class, Choice.class))
              .asType(MethodType.methodType(KernelProvider.class, Choice.class));
        } catch (ReflectiveOperationException | LinkageError e) {
          LOG.warn("kernels: cannot load {}: {}", PANAMA_CLASS, e.toString());
        }
      }
      PREFERRED_BITS = bits;
      CONSTRUCTOR = ctor;
    }

    /** Preferred vector width in bits, or -1 when the module or the class is not usable. */
    static int preferredBits() {
      if (PREFERRED_BITS == null) {
        return -1;
      }
      try {
        return (int) PREFERRED_BITS.invokeExact();
      } catch (Throwable e) {
        return -1;
      }
    }

    static KernelProvider instantiate(Choice c) {
      try {
        return (KernelProvider) CONSTRUCTOR.invokeExact(c);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException("cannot instantiate " + PANAMA_CLASS, e);
      }
    }
  }
}
