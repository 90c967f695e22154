package org.jpir.vmp.panama;

import jdk.incubator.vector.DoubleVector;

/** Reports the Vector API's preferred width; loaded only by reflection from {@code Kernels}. */
public final class VectorProbe {
  private VectorProbe() {}

  /** Bits of {@code DoubleVector.SPECIES_PREFERRED}. */
  public static int preferredBits() {
    return DoubleVector.SPECIES_PREFERRED.vectorBitSize();
  }
}
