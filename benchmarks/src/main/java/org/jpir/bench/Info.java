package org.jpir.bench;

import org.jpir.vmp.JvmOptions;
import org.jpir.vmp.KernelProvider;

/** {@code ./pir info}: the JVM, the CPU, the kernel choice and the project's JVM options. */
public final class Info {
  private Info() {}

  public static void main(String[] args) {
    System.out.println("java     : " + System.getProperty("java.vm.name") + " "
        + System.getProperty("java.runtime.version"));
    System.out.println("cpu      : " + Environment.cpuModel() + ", "
        + Runtime.getRuntime().availableProcessors() + " cores available");
    System.out.println("kernels  : " + KernelProvider.get());
    System.out.println("jvm opts : " + JvmOptions.joined());
  }
}
