package org.jpir.bench;

import org.openjdk.jmh.Main;

/**
 * The main class of {@code benchmarks.jar} ({@code java -jar benchmarks/target/benchmarks.jar
 * ...}): hands every argument to JMH's own command line ({@link org.openjdk.jmh.Main}), which
 * parses and checks JMH's options itself ({@code -h} lists them) and runs the selected
 * benchmarks. {@code ./pir bench} runs {@link BenchRunner} instead, which picks the benchmarks,
 * writes the JSON results and the README table.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    Main.main(args);
  }
}
