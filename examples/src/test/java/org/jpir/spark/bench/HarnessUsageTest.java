package org.jpir.spark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class HarnessUsageTest {
  static int run(Class<?> command, StringWriter err, String... args) {
    return new CommandLine(command).setErr(new PrintWriter(err)).execute(args);
  }

  @Test
  void everyHarnessRejectsUnknownOptionsWithExitCode2() {
    for (Class<?> c : List.of(UpdateBench.class, PlacementRecovery.class,
        SparkOverheadBench.Cli.class, org.jpir.datasets.bench.CuckooStats.class,
        org.jpir.datasets.bench.ImportBench.class)) {
      StringWriter err = new StringWriter();
      assertEquals(2, run(c, err, "--db", "x", "--no-such-option", "1"), c.getName());
      // the first problem is named (an unknown option, or a value of the wrong type)
      assertTrue(err.toString().contains("Usage:") && (err.toString().contains("Unknown option")
          || err.toString().contains("Invalid value")), err.toString());
    }
    for (String sub : List.of("calibrate", "point", "report")) {
      StringWriter err = new StringWriter();
      assertEquals(2, run(CostModel.class, err, sub, "--no-such-option", "1"), sub);
      assertTrue(err.toString().contains("Usage: CostModel " + sub), err.toString());
    }
    StringWriter err = new StringWriter();
    assertEquals(2, run(CostModel.class, err, "predict"));
    assertTrue(err.toString().contains("predict"), err.toString());
    err = new StringWriter();
    assertEquals(2, run(CostModel.class, err, "point", "--master", "local[2]"));
    assertTrue(err.toString().contains("Missing required option"), err.toString());
  }

  @Test
  void sparkOverheadForksGetTheParsedOptionsWithTheirOwnIndexAndTheParentsRows() {
    SparkOverheadBench.Cli parent = new SparkOverheadBench.Cli();
    new CommandLine(parent).parseArgs("--mib", "8", "--tsv=/tmp/mine.tsv", "--batches", "2,3",
        "--reps", "5", "--path", "client", "--rows", "16", "--forks", "2");
    List<String> args = parent.opts().forkArgs(1, java.nio.file.Path.of("/tmp/all.tsv"));
    SparkOverheadBench.Cli fork = new SparkOverheadBench.Cli();
    new CommandLine(fork).parseArgs(args.toArray(new String[0]));
    SparkOverheadBench.Opts p = parent.opts();
    SparkOverheadBench.Opts f = fork.opts();
    assertEquals(List.of(p.mib(), p.rows(), p.threads(), p.rounds(), p.forks(), p.path()),
        List.of(f.mib(), f.rows(), f.threads(), f.rounds(), f.forks(), f.path()));
    assertEquals(java.util.Arrays.toString(p.batches()), java.util.Arrays.toString(f.batches()));
    assertEquals(1, f.fork());
    assertEquals(java.nio.file.Path.of("/tmp/all.tsv"), f.tsv());
    assertEquals(1, args.stream().filter(a -> a.startsWith("--tsv")).count(), args.toString());
  }
}
