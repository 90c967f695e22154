package org.jpir.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.jpir.datasets.cli.JpirVersion;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * One fork of the SIMD study ({@link SimdStudy}): this JVM, started by the study with one
 * variant's flags, measures a list of benchmark points with JMH inside itself ({@code forks(0)})
 * in an order shuffled by the fork number, and writes all their results as one JMH JSON file.
 * One JVM per (variant, fork, job) instead of JMH's one JVM per (benchmark, parameter, fork) is
 * what makes 10 forks of every point affordable; the fork is still a fresh JVM with its own JIT
 * decisions, and the shuffle keeps any one point from always running first (cold) or last.
 *
 * <pre>
 * SimdFork --out FILE --fork K [--prewarm ITERATIONS] [--prewarm-passes P] [--warmup ITERATIONS]
 *          [--warmup-ms MS] POINT...
 * POINT = class.method|param=value|iterations|iteration-ms     (param part may be empty)
 * </pre>
 */
@Command(name = "SimdFork", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "One fresh JVM of the SIMD study: measures its points.")
public final class SimdFork implements Callable<Integer> {
  /** One benchmark at one parameter point, with its own measurement length. */
  record Point(String benchmark, String param, int iterations, int iterationMs) {
    static Point parse(String s) {
      String[] f = s.split("\\|", -1);
      if (f.length != 4) {
        throw new IllegalArgumentException("point '" + s
            + "': want class.method|param=value|iterations|iteration-ms");
      }
      return new Point(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]));
    }

    String format() {
      return benchmark + "|" + param + "|" + iterations + "|" + iterationMs;
    }
  }

  @Option(names = "--out", required = true, description = "the JSON file to write")
  Path out;

  @Option(names = "--fork", description = "the fork's index (shuffle seed)")
  int fork;

  @Option(names = "--warmup", description = "warmup iterations (default: ${DEFAULT-VALUE})")
  int warmup = 5;

  @Option(names = "--warmup-ms", description = "warmup iteration time (default:"
      + " ${DEFAULT-VALUE})")
  int warmupMs = 50;

  @Option(names = "--prewarm", description = "pre-warm iterations of 100 ms per point (default:"
      + " ${DEFAULT-VALUE})")
  int prewarm = 3;

  @Option(names = "--prewarm-passes", description = "pre-warm passes over every point (default:"
      + " ${DEFAULT-VALUE})")
  int passes = 2;

  @Parameters(arity = "1..*", paramLabel = "POINT",
      description = "class.method|param=value|iterations|iteration-ms",
      converter = PointConverter.class)
  List<Point> points = new ArrayList<>();

  /** Parses a POINT argument. */
  static final class PointConverter implements CommandLine.ITypeConverter<Point> {
    @Override
    public Point convert(String s) {
      return Point.parse(s);
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new SimdFork()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Collections.shuffle(points, new Random(1000L + fork));
    // pre-warm passes over every point (results dropped): the Vector API kernels need about
    // half a second of running before C2 has compiled them with intrinsics; until then a call is
    // 10-100x slower (measured: FFT N=16384 2.4 ms, then 21 us). And a point run after others
    // can find shared kernels deoptimized and being recompiled, for seconds (measured: phase 1
    // at 3.5 ms in a pre-warm, then 7.7 ms for a whole measurement after the query had run);
    // a second pass over all points lets that settle before anything is measured
    for (int pass = 0; pass < passes && prewarm > 0; pass++) {
      for (Point p : points) {
        try {
          new Runner(options(p, prewarm, 100, 1, 1).build()).run();
        } catch (Exception e) {
          System.out.println("simd-fork: pre-warm failed " + p.format() + ": " + e);
        }
      }
    }
    List<RunResult> results = new ArrayList<>();
    for (Point p : points) {
      try {
        results.addAll(new Runner(options(p, warmup, warmupMs, p.iterations(),
            p.iterationMs()).build()).run());
      } catch (Exception e) { // one failing point leaves a hole, the others are kept
        System.out.println("simd-fork: FAILED " + p.format() + ": " + e);
      }
    }
    write(results, out);
    System.out.printf("simd-fork: %d of %d points written to %s%n", results.size(),
        points.size(), out);
    return results.size() < points.size() ? 3 : 0;
  }

  /** JMH options measuring one point inside this JVM. */
  static ChainedOptionsBuilder options(Point p, int warmup, int warmupMs, int iterations,
      int iterationMs) {
    ChainedOptionsBuilder ob = new OptionsBuilder()
        .include("^" + Pattern.quote(p.benchmark()) + "$")
        .forks(0)
        .warmupIterations(warmup)
        .warmupTime(TimeValue.milliseconds(warmupMs))
        .measurementIterations(iterations)
        .measurementTime(TimeValue.milliseconds(iterationMs))
        .shouldFailOnError(true);
    if (!p.param().isEmpty()) {
      String[] kv = p.param().split("=", 2);
      ob.param(kv[0], kv[1]);
    }
    return ob;
  }

  /** Writes results as JMH's own JSON (an array of benchmark results). */
  static void write(List<RunResult> results, Path out) throws IOException {
    Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
    try (PrintStream ps = new PrintStream(Files.newOutputStream(tmp), false,
        StandardCharsets.UTF_8)) {
      ResultFormatFactory.getInstance(ResultFormatType.JSON, ps).writeOut(results);
    }
    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
  }
}
