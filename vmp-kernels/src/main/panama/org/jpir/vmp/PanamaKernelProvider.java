package org.jpir.vmp;

import jdk.incubator.vector.DoubleVector;

/**
 * The Vector API kernels, with the widths and the VMP block of a {@link KernelProvider.Choice}.
 * Loaded only by name from {@link KernelProvider}, and only when the module {@code
 * jdk.incubator.vector} is present.
 */
final class PanamaKernelProvider extends KernelProvider {

  PanamaKernelProvider(KernelProvider.Choice c) {
    super(c, fft(c.fftBits()), vmp(c.vmpBlock()), new PanamaZnx());
  }

  /** Bits of {@code DoubleVector.SPECIES_PREFERRED} (called by name from KernelProvider). */
  static int preferredBits() {
    return DoubleVector.SPECIES_PREFERRED.vectorBitSize();
  }

  private static FftKernel fft(int bits) {
    return bits == 128 ? new Panama128Fft() : new PanamaFft(bits == 512);
  }

  private static VmpKernel vmp(VmpBlock block) {
    return block.bits() == 128 ? new Panama128Vmp(block) : new PanamaVmp(block);
  }

  @Override
  FftKernel fftVariant(String name) {
    switch (name) {
      case "panama":
        return new PanamaFft(choice().fftBits() == 512);
      case "panama128":
        return new Panama128Fft();
      case "panama256":
        return new PanamaFft.Narrow();
      case "panama512":
        return new PanamaFft.Wide();
      case "panama512-leaf256":
        return new PanamaFft.WideNarrowLeaf();
      default:
        throw new IllegalArgumentException("FFT implementation '" + name
            + "' is not one of: panama, panama128, panama256, panama512, panama512-leaf256");
    }
  }

  @Override
  VmpKernel vmpVariant(VmpBlock block) {
    if (block == null || !VmpBlock.SUPPORTED.contains(block)) {
      throw new IllegalArgumentException("VMP block " + block + " is not one of "
          + VmpBlock.SUPPORTED);
    }
    return vmp(block);
  }
}
