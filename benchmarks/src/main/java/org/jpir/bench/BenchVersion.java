package org.jpir.bench;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code --version} ({@code -V}) of the benchmark command lines: {@code jpir <command>
 * <version>}, as {@code org.jpir.datasets.cli.JpirVersion} prints it for the other modules (this
 * module does not depend on datasets).
 */
public final class BenchVersion implements CommandLine.IVersionProvider {
  @Spec
  CommandSpec spec;

  @Override
  public String[] getVersion() {
    String v = BenchVersion.class.getPackage().getImplementationVersion();
    return new String[] {"jpir " + spec.qualifiedName() + " "
        + (v == null ? "(development build)" : v)};
  }
}
