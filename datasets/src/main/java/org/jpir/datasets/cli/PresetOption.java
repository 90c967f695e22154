package org.jpir.datasets.cli;

import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import picocli.CommandLine.Option;

/**
 * {@code --preset ID}, a picocli mixin ({@code @Mixin PresetOption preset = new
 * PresetOption(...)}) for the commands that take a preset with a default of their own: the id as
 * given, resolved when the command runs ({@link #params}, {@link #compact}), so an unknown or
 * refused id fails as it did when each command called {@link Presets#byId} itself.
 */
public final class PresetOption {
  @Option(names = "--preset", description = "parameter preset (default: ${DEFAULT-VALUE})")
  String preset;

  /** {@code --preset}, by default {@link Presets#DEFAULT}. */
  public PresetOption() {
    this(Presets.DEFAULT);
  }

  /** {@code --preset}, by default {@code preset}. */
  public PresetOption(Params preset) {
    this.preset = preset.id();
  }

  /** {@code --preset} of the compact commands, by default {@code preset}. */
  public PresetOption(CompactParams preset) {
    this.preset = preset.id();
  }

  /** The id given (or the default). */
  public String id() {
    return preset;
  }

  /** The preset of that id ({@link Presets#byId}: unknown or refused ids throw). */
  public Params params() {
    return Presets.byId(preset);
  }

  /** The compact preset of that id ({@link CompactParams#byId}). */
  public CompactParams compact() {
    return CompactParams.byId(preset);
  }
}
