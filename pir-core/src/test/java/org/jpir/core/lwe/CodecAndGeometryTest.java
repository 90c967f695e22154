package org.jpir.core.lwe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.junit.jupiter.api.Test;

class CodecAndGeometryTest {
  @Test
  void codecRoundTripsAndToleratesNoiseBelowTheMargin() {
    Params p = Presets.TEST_INSECURE_256;
    PlaintextCodec codec = new PlaintextCodec(p);
    int n = p.n();
    byte[] bytes = new byte[codec.polynomialBytes()];
    new SplittableRandom(9).nextBytes(bytes);
    bytes[0] = (byte) 0xFF;
    bytes[6] = (byte) 0xFF;
    long[] digits = new long[p.plaintextLimbs() * n];
    codec.encode(bytes, 0, bytes.length, digits, 0);
    for (long d : digits) {
      assertTrue(d >= -(1 << 15) && d < (1 << 15), "digit " + d);
    }
    // add noise of just under half the plaintext unit (2^-57 = 2^7 units of 2^-64) in the last
    // digit, and the decode still rounds to the bytes
    long[] noisy = digits.clone();
    for (int j = 0; j < n; j++) {
      noisy[3 * n + j] += (j % 2 == 0 ? 127 : -127);
    }
    org.jpir.vmp.Znx.normalize(n, 16, noisy, 0, 4, noisy, 0, 4, new long[n]);
    byte[] back = new byte[bytes.length];
    codec.decode(noisy, back, 0);
    assertArrayEquals(bytes, back);
  }

  @Test
  void geometryPlacesRecordsColumnMajorAndRejectsBadShapes() {
    Params p = Presets.TEST_INSECURE_256; // 1792 bytes per polynomial
    Geometry g = Geometry.of(p, 1000, 100, 8); // 17 per poly -> 59 polys -> 8 x 8
    assertEquals(17, g.recordsPerPoly());
    assertEquals(8, g.cols());
    assertEquals(0, g.rowOf(16));
    assertEquals(1, g.rowOf(17));
    assertEquals(1, g.columnOf(17 * 8));
    assertEquals(100, g.offsetInSlot(18));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> g.checkRecord(1000));
    assertTrue(e.getMessage().contains("out of range"));
    e = assertThrows(IllegalArgumentException.class,
        () -> new Geometry(1000, 100, 1792, 17, 1, 2, 2));
    assertTrue(e.getMessage().contains("hold fewer"), e.getMessage());
    Geometry chosen = Geometry.choose(Presets.ONIONPIR_4096, 1L << 20, 1024, 1024);
    assertTrue(chosen.rows() <= 1024 && chosen.rows() * (long) chosen.cols() >= chosen
        .polynomials());
  }

  @Test
  void productionPresetFailureProbabilityIsBelowTwoToMinus40AtLargestGeometry() {
    Params p = Presets.ONIONPIR_4096;
    double var = Noise.answer(p, 1024, 1 << 20);
    double log2Fail = Noise.log2FailureProbability(p, var);
    assertTrue(log2Fail <= -40, "log2 failure " + log2Fail);
    // the estimate must be able to fail: an absurd noise gives a large failure probability
    assertTrue(Noise.log2FailureProbability(p, Math.pow(Noise.margin(p), 2)) > -2);
  }
}
