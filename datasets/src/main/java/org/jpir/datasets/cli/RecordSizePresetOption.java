package org.jpir.datasets.cli;

import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import picocli.CommandLine.Option;

/**
 * {@code --preset ID}, a picocli mixin for the commands that make a database whose record size
 * they know ({@code setup <source>} and its alias {@code data import}, {@code demo}): the id given wins;
 * without it the preset follows the records ({@link DefaultPreset#forRecordSize}, logged with the
 * reason).
 */
public final class RecordSizePresetOption {
  /** The help text's default, as {@link Presets#forRecordSize} chooses (a test keeps it so). */
  static final String DEFAULT_TEXT = "by the record size: onionpir-2048-compact-128 for records"
      + " of up to 4096 bytes, else onionpir-4096-compact-128";

  @Option(names = "--preset", description = "parameter preset (default: " + DEFAULT_TEXT + ")")
  String preset;

  /** The id given, or null when {@code --preset} was not given. */
  public String id() {
    return preset;
  }

  /**
   * The preset given ({@link Presets#byId}: unknown or refused ids throw), or null when none was
   * given: lets a command refuse a bad id before it reads its records.
   */
  public Params given() {
    return preset == null ? null : Presets.byId(preset);
  }

  /** The preset given, else the default for records of {@code recordSize} bytes. */
  public Params params(int recordSize) {
    return DefaultPreset.resolve(preset, recordSize);
  }
}
