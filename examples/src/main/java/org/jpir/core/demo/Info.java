package org.jpir.core.demo;

import java.util.concurrent.Callable;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.vmp.CpuInfo;
import org.jpir.vmp.JvmOptions;
import org.jpir.vmp.KernelProvider;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./pir info}: the JVM, the CPU, the kernel choice and the project's JVM options. */
@Command(name = "info", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Print the JVM, the CPU, the kernel choice and the project's JVM options.")
public final class Info implements Callable<Integer> {
  public static void main(String[] args) {
    System.exit(new CommandLine(new Info()).execute(args));
  }

  @Override
  public Integer call() {
    System.out.println("java     : " + System.getProperty("java.vm.name") + " "
        + System.getProperty("java.runtime.version"));
    System.out.println("cpu      : " + CpuInfo.get().model() + ", "
        + Runtime.getRuntime().availableProcessors() + " cores available");
    System.out.println("kernels  : " + KernelProvider.get());
    System.out.println("jvm opts : " + JvmOptions.joined());
    return 0;
  }
}
