package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jpir.core.params.CompactParams;
import org.junit.jupiter.api.Test;

/**
 * The parameter table's shared-mask measurement decodes what it measures: 30 KiB records of the
 * N = 4096 compact preset span 1.5 planes, so their tails are paired and every answer needs the
 * tail's half selected before it is packed (it once skipped that, and the table said "NO").
 */
class PresetMeasurementTest {
  @Test
  void sharedMaskAnswersToPairedTailsDecode() {
    PresetMeasurement.Large l = PresetMeasurement.measureLarge(
        CompactParams.ONIONPIR_4096_COMPACT.server(), 4, 2);
    assertTrue(l.geometry().pairedTail(), "30 KiB records at N = 4096: " + l.geometry());
    assertTrue(l.correct(), "records decoded exactly, noise 2^" + l.log2MeasuredStd()
        + " (estimate 2^" + l.log2EstimatedStd() + ")");
    assertTrue(l.log2MeasuredStd() <= l.log2EstimatedStd() + 1, "noise 2^" + l.log2MeasuredStd());
  }
}
