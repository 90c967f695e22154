package org.jpir.bench;

/** Placeholder main until the benchmark runner lands. */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    org.openjdk.jmh.Main.main(args);
  }
}
