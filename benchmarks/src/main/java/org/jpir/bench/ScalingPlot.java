package org.jpir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Draws the scaling experiment's CSV (deploy/scaling.sh): throughput against executors, one line
 * per (database size, batch), and per-phase task seconds per query against executors.
 */
@Command(name = "ScalingPlot", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class,
    description = "Plots of the scaling experiment's CSV.")
public final class ScalingPlot implements Callable<Integer> {
  @Parameters(index = "0", description = "scaling.csv")
  Path csv;

  @Parameters(index = "1", description = "output folder")
  Path out;

  ScalingPlot() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new ScalingPlot()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    List<String> lines = Files.readAllLines(csv);
    List<String> head = Arrays.asList(lines.get(0).split(","));
    LineChart thr = new LineChart("answer job throughput (raw database GB/s)", "executors (1 core)",
        "GB/s").integerX();
    LineChart phases = new LineChart("task seconds per query", "executors (1 core)", "s")
        .integerX();
    for (String l : lines.subList(1, lines.size())) {
      String[] f = l.split(",");
      double ex = Double.parseDouble(f[head.indexOf("executors")]);
      String key = f[head.indexOf("db_mib")] + " MiB, batch " + f[head.indexOf("batch")];
      double answered = Double.parseDouble(f[head.indexOf("answered")]);
      thr.add(key + ", whole job", ex, Double.parseDouble(f[head.indexOf("gbps")]));
      int st = head.indexOf("steady_gbps");
      if (st >= 0 && !f[st].equals("nan")) {
        thr.add(key + ", after 1st batch", ex, Double.parseDouble(f[st]));
      }
      phases.add("phase 1, " + key, ex,
          Double.parseDouble(f[head.indexOf("phase1_task_seconds")]) / answered);
      phases.add("phase 2, " + key, ex,
          Double.parseDouble(f[head.indexOf("phase2_task_seconds")]) / answered);
    }
    thr.write(out.resolve("throughput.png"));
    phases.write(out.resolve("phases.png"));
    System.out.println("plots: " + out.resolve("throughput.png") + ", "
        + out.resolve("phases.png"));
    return 0;
  }
}
