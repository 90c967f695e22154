package org.jpir.datasets.cli;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;

/**
 * The preset of a database whose record size is known and for which no preset was given: {@link
 * Presets#forRecordSize} (N = 2048 up to {@link Presets#N2048_MAX_RECORD} bytes, else N = 4096),
 * logged at INFO with {@link Presets#recordSizeReason} once per record size and JVM. An explicit
 * preset ({@link #resolve}) always wins; a stored database's manifest is read elsewhere and wins
 * over both.
 */
public final class DefaultPreset {
  private static final Logger LOG = LogManager.getLogger(DefaultPreset.class);
  private static final Set<Integer> LOGGED = ConcurrentHashMap.newKeySet();

  private DefaultPreset() {}

  /**
   * {@link Presets#forRecordSize}{@code (recordSize)}, logged at INFO with its reason the first
   * time this JVM chooses for that record size.
   *
   * @throws IllegalArgumentException when recordSize is not positive
   */
  public static Params forRecordSize(int recordSize) {
    Params p = Presets.forRecordSize(recordSize);
    if (LOGGED.add(recordSize)) {
      LOG.info("preset {} (no --preset given; chosen by the record size): {}", p.id(),
          Presets.recordSizeReason(recordSize));
    }
    return p;
  }

  /**
   * The preset of id {@code requested} ({@link Presets#byId}: unknown or refused ids throw) when
   * it is not null, else {@link #forRecordSize}{@code (recordSize)}.
   */
  public static Params resolve(String requested, int recordSize) {
    return requested != null ? Presets.byId(requested) : forRecordSize(recordSize);
  }
}
