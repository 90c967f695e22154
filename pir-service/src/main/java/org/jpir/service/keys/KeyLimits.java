package org.jpir.service.keys;

import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.params.CompactParams;
import org.jpir.core.wire.Wire;

/**
 * The largest valid key uploads of a compact preset, checked before any key bytes are decoded
 * or stored (the key stores' first step).
 */
final class KeyLimits {
  private KeyLimits() {}

  /** The largest valid plane-packing key of {@code cp} (any number of planes). */
  static long maxPackingBytes(CompactParams cp) {
    return Wire.packingKeyBytes(cp.server(), PlanePacking.MAX_PLANES);
  }

  /**
   * Refuses evaluation keys or a packing key ({@code pack} null or empty: none) larger than
   * {@code cp}'s largest valid ones.
   *
   * @throws IllegalArgumentException saying which and the bound
   */
  static void check(CompactParams cp, byte[] evk, byte[] pack) {
    long max = Wire.maxEvaluationKeysBytes(cp);
    if (evk.length > max) {
      throw new IllegalArgumentException("evaluation keys of " + evk.length + " bytes: preset "
          + cp.id() + " takes at most " + max);
    }
    long maxPack = maxPackingBytes(cp);
    if (pack != null && pack.length > maxPack) {
      throw new IllegalArgumentException("packing key of " + pack.length + " bytes: preset "
          + cp.id() + " takes at most " + maxPack);
    }
  }
}
