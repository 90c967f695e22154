package org.jpir.core;

/**
 * The server's answer: one GLWE of {@code limbs} limbs per component for each plane, as K-bit
 * digits in 16-bit words; plane p's GLWE (layout of {@link Glwe}) starts at {@code p * 2 * limbs
 * * N}.
 */
public record Answer(String paramsId, int planes, int limbs, short[] data) {
  /** Bytes on the wire (payload only). */
  public long sizeBytes() {
    return 2L * data.length;
  }
}
