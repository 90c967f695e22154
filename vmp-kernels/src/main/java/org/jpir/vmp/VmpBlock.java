package org.jpir.vmp;

import java.util.List;
import java.util.Locale;

/**
 * The register block of the multi-column pass: vector width in bits, database vectors per call
 * ({@code vectors}, the GEMM "mr") and matrix columns per call ({@code columns}, "nr"). The pass
 * multiplies in the three-product (Gauss) form of {@link VmpKernel#macTile}: three accumulated
 * products per complex multiply-add instead of four, so a block keeps {@code 3*vectors*columns}
 * accumulators of 256 bits at 256 bits, twice as many at 128 bits, and {@code vectors*(columns +
 * ceil(columns/2))} at 512 bits (one {@code [K2|K3]} vector per column, one {@code K1} vector per
 * column pair). Chosen once per JVM by {@link #choose} (for {@link KernelProvider}) from the
 * preferred vector width and the register count ({@link CpuInfo#vectorRegisters()}), or forced
 * with {@code -Djpir.vmp.block=512:3x4|256:2x4|256:1x4|128:1x4|128:1x1}.
 */
public record VmpBlock(int bits, int vectors, int columns) {
  /** The system property that forces the block. */
  public static final String PROPERTY = "jpir.vmp.block";

  /** 512-bit, 3 x 4: 18 accumulators, 6 operands (AVX-512: 32 registers). */
  public static final VmpBlock B512_3X4 = new VmpBlock(512, 3, 4);
  /** 256-bit, 2 x 4: 24 accumulators (32 registers with 256-bit vectors). */
  public static final VmpBlock B256_2X4 = new VmpBlock(256, 2, 4);
  /** 256-bit, 1 x 4: 12 accumulators plus 3 operands (AVX2: 16 registers). */
  public static final VmpBlock B256_1X4 = new VmpBlock(256, 1, 4);

  /** 128-bit, 1 x 4: 24 accumulators plus 6 operands (NEON: 32 registers of 128 bits). */
  public static final VmpBlock B128_1X4 = new VmpBlock(128, 1, 4);
  /** 128-bit, 1 x 1: 6 accumulators plus 6 operands (16 registers of 128 bits: SSE). */
  public static final VmpBlock B128_1X1 = new VmpBlock(128, 1, 1);

  /** Every block the Vector API kernels implement. */
  public static final List<VmpBlock> SUPPORTED =
      List.of(B512_3X4, B256_2X4, B256_1X4, B128_1X4, B128_1X1);

  /** Validates the fields. */
  public VmpBlock {
    if ((bits != 128 && bits != 256 && bits != 512) || vectors < 1 || vectors > 3 || columns < 1
        || columns > 4) {
      throw new IllegalArgumentException("VmpBlock " + bits + ":" + vectors + "x" + columns
          + " is not a block (bits 128|256|512, vectors 1..3, columns 1..4)");
    }
  }

  /** Accumulator vectors held in registers. */
  public int accumulators() {
    return bits == 512 ? vectors * (columns + (columns + 1) / 2)
        : 3 * (256 / bits) * vectors * columns;
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
   * (JDK 17's 512-bit pass allocated and ran 6x slower) and gets 3x4; otherwise 256 bits, 2x4
   * with 32 registers, 1x4 with 16 (a 24-accumulator block spills there); a preferred species
   * of 128 bits (NEON, or x86 without AVX) gets 128-bit blocks: 1x4 with 32 registers, 1x1 with
   * 16.
   */
  public static Choice choose(int preferredBits, int jdk, int registers, String forced) {
    String facts = "preferred species " + preferredBits + " bits, JDK " + jdk + ", " + registers
        + " vector registers";
    if (forced != null && !forced.isBlank()) {
      return new Choice(parse(forced.toLowerCase(Locale.ROOT)), "forced by -D" + PROPERTY);
    }
    if (preferredBits < 256) {
      return new Choice(forWidth(128, registers), facts
          + (registers >= 32 ? "" : ": 16 registers of 128 bits"));
    }
    if (preferredBits >= 512 && jdk >= 25 && registers >= 32) {
      return new Choice(forWidth(512, registers), facts);
    }
    return new Choice(forWidth(256, registers), facts + (registers >= 32
        ? (preferredBits >= 512 ? " (512-bit path needs JDK 25)" : "")
        : ": 16 registers hold 12 accumulators plus 3 operands"));
  }

  /**
   * The block of width {@code bits} (128, 256 or 512) for a core with {@code registers} vector
   * registers: 512 bits 3x4; 256 bits 2x4 with 32 registers, 1x4 with 16; 128 bits 1x4 with 32,
   * 1x1 with 16.
   *
   * @throws IllegalArgumentException for another width
   */
  public static VmpBlock forWidth(int bits, int registers) {
    switch (bits) {
      case 512:
        return B512_3X4;
      case 256:
        return registers >= 32 ? B256_2X4 : B256_1X4;
      case 128:
        return registers >= 32 ? B128_1X4 : B128_1X1;
      default:
        throw new IllegalArgumentException("VMP width " + bits + " is not one of 128, 256, 512");
    }
  }
}
