package org.jpir.datasets.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code --version} ({@code -V}) of jpir's command lines ({@code mixinStandardHelpOptions}):
 * {@code jpir <command> <version>}, the version of the jar the classes came from, or {@code
 * (development build)} when it names none.
 */
public final class JpirVersion implements CommandLine.IVersionProvider {
  @Spec
  CommandSpec spec;

  @Override
  public String[] getVersion() {
    String v = JpirVersion.class.getPackage().getImplementationVersion();
    return new String[] {"jpir " + spec.qualifiedName() + " "
        + (v == null ? "(development build)" : v)};
  }
}
