package org.jpir.vmp;

import java.util.List;
import java.util.Locale;

/**
 * The register block of the multi-column pass: vector width in bits, database vectors per call
 * ({@code vectors}, the GEMM "mr") and matrix columns per call ({@code columns}, "nr"), and with
 * the width the form of the product ({@link #gauss()}). 512-bit blocks multiply in the
 * three-product (Gauss) form of {@link VmpKernel#macGauss} and keep {@code vectors*(columns +
 * ceil(columns/2))} accumulators; narrower blocks in the four-product form of {@link
 * VmpKernel#macTile}, {@code (1024/bits)*vectors*columns} accumulators (there the Gauss form's
 * three matrix operands per column made the kernels load-bound: measured on a Zen 4 with
 * 256-bit vectors, 1x4 Gauss 422-427 ms against 1x3 four-product 391-392 on
 * multi:4096:548:12:128, 2x4 against 2x3 396-399 against 379-389, 128-bit 1x1 279-281 against
 * 223 at 32 columns, 128-bit 1x4 against 1x3 208-209 against 212-215). Chosen once per JVM by
 * {@link #choose} (for {@link KernelProvider}) from the preferred vector width and the register
 * count ({@link CpuInfo#vectorRegisters()}), or forced with {@code
 * -Djpir.vmp.block=512:3x4|256:2x3|256:1x3|128:1x3|128:1x1}.
 */
public record VmpBlock(int bits, int vectors, int columns) {
  /** The system property that forces the block. */
  public static final String PROPERTY = "jpir.vmp.block";

  /** 512-bit, 3 x 4, Gauss form: 18 accumulators, 6 operands (AVX-512: 32 registers). */
  public static final VmpBlock B512_3X4 = new VmpBlock(512, 3, 4);
  /** 256-bit, 2 x 3: 24 accumulators (32 registers with 256-bit vectors). */
  public static final VmpBlock B256_2X3 = new VmpBlock(256, 2, 3);
  /** 256-bit, 1 x 3: 12 accumulators (AVX2: 16 registers). */
  public static final VmpBlock B256_1X3 = new VmpBlock(256, 1, 3);

  /** 128-bit, 1 x 3: 24 accumulators (NEON: 32 registers of 128 bits). */
  public static final VmpBlock B128_1X3 = new VmpBlock(128, 1, 3);
  /** 128-bit, 1 x 1: 8 accumulators (16 registers of 128 bits: SSE). */
  public static final VmpBlock B128_1X1 = new VmpBlock(128, 1, 1);

  /** Every block the Vector API kernels implement. */
  public static final List<VmpBlock> SUPPORTED =
      List.of(B512_3X4, B256_2X3, B256_1X3, B128_1X3, B128_1X1);

  /** Validates the fields. */
  public VmpBlock {
    if ((bits != 128 && bits != 256 && bits != 512) || vectors < 1 || vectors > 3 || columns < 1
        || columns > 6) {
      throw new IllegalArgumentException("VmpBlock " + bits + ":" + vectors + "x" + columns
          + " is not a block (bits 128|256|512, vectors 1..3, columns 1..6)");
    }
  }

  /**
   * Whether the pass multiplies in the three-product form ({@link VmpKernel#macGauss},
   * 512-bit blocks) rather than the four-product one ({@link VmpKernel#macTile}).
   */
  public boolean gauss() {
    return bits == 512;
  }

  /** Accumulator vectors held in registers. */
  public int accumulators() {
    return gauss() ? vectors * (columns + (columns + 1) / 2) : (1024 / bits) * vectors * columns;
  }

  /** {@code bits:vectorsxcolumns}, e.g. {@code 512:2x6}. */
  @Override
  public String toString() {
    return bits + ":" + vectors + "x" + columns;
  }

  /** Parses {@link #toString()} form; only {@link #SUPPORTED} blocks are accepted. */
  public static VmpBlock parse(String s) {
    for (VmpBlock b : SUPPORTED) {
      if (b.toString().equals(s.trim())) {
        return b;
      }
    }
    throw new IllegalArgumentException("-D" + PROPERTY + "=" + s + " is not one of " + SUPPORTED);
  }

  /** A block and why it was chosen. */
  public record Choice(VmpBlock block, String reason) {
    @Override
    public String toString() {
      return block + " (" + block.accumulators() + " accumulators of " + block.bits() + " bits): "
          + reason;
    }
  }

  /**
   * The block for a JVM whose preferred species has {@code preferredBits} bits, of Java {@code
   * jdk}, with {@code registers} vector registers; {@code forced} (the property value, may be
   * null or empty) wins. Rules: 512 bits needs a 512-bit preferred species and JDK 25 or later
   * (JDK 17's 512-bit pass allocated and ran 6x slower without type profiles) and gets 3x4; otherwise 256 bits, 2x3
   * with 32 registers, 1x3 with 16 (a 24-accumulator block spills there); a preferred species
   * of 128 bits (NEON, or x86 without AVX) gets 128-bit blocks: 1x3 with 32 registers, 1x1 with
   * 16.
   */
  public static Choice choose(int preferredBits, int jdk, int registers, String forced) {
    return choose(preferredBits, jdk, false, registers, forced);
  }

  /**
   * Whether 512-bit kernels compile without boxing on Java {@code jdk}: from JDK 25 on, and from
   * JDK 17 on when C2 profiles argument and return types ({@code -XX:TypeProfileLevel=222}).
   */
  static boolean wideCompiles(int jdk, boolean typeProfiled) {
    return jdk >= 25 || (jdk >= 17 && typeProfiled);
  }

  /**
   * {@link #choose(int, int, int, String)} in a JVM that does ({@code typeProfiled}) or does not
   * profile argument and return types ({@link #wideCompiles}).
   */
  public static Choice choose(int preferredBits, int jdk, boolean typeProfiled, int registers,
      String forced) {
    String facts = "preferred species " + preferredBits + " bits, JDK " + jdk + ", " + registers
        + " vector registers";
    if (forced != null && !forced.isBlank()) {
      return new Choice(parse(forced.toLowerCase(Locale.ROOT)), "forced by -D" + PROPERTY);
    }
    if (preferredBits < 256) {
      return new Choice(forWidth(128, registers), facts
          + (registers >= 32 ? "" : ": 16 registers of 128 bits"));
    }
    if (preferredBits >= 512 && wideCompiles(jdk, typeProfiled) && registers >= 32) {
      return new Choice(forWidth(512, registers), facts
          + (jdk < 25 ? " with -XX:TypeProfileLevel=222" : ""));
    }
    return new Choice(forWidth(256, registers), facts + (registers >= 32
        ? (preferredBits >= 512 ? " (512-bit path needs JDK 25 or -XX:TypeProfileLevel=222)" : "")
        : ": 16 registers hold 12 accumulators plus operands"));
  }

  /**
   * The block of width {@code bits} (128, 256 or 512) for a core with {@code registers} vector
   * registers: 512 bits 3x4; 256 bits 2x3 with 32 registers, 1x3 with 16; 128 bits 1x3 with 32,
   * 1x1 with 16.
   *
   * @throws IllegalArgumentException for another width
   */
  public static VmpBlock forWidth(int bits, int registers) {
    switch (bits) {
      case 512:
        return B512_3X4;
      case 256:
        return registers >= 32 ? B256_2X3 : B256_1X3;
      case 128:
        return registers >= 32 ? B128_1X3 : B128_1X1;
      default:
        throw new IllegalArgumentException("VMP width " + bits + " is not one of 128, 256, 512");
    }
  }
}
