package org.jpir.bench;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.jpir.vmp.JvmOptions;
import org.jpir.vmp.Kernels;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@code ./pir bench}: runs the kernel benchmarks side by side in one JMH run, with every fork
 * started with the project's JVM options ({@link JvmOptions}), writes the raw JMH JSON plus an
 * environment file (CPU, JDK, git revision) under {@code benchmarks/results/}, and renders the
 * README table from them ({@link Report}).
 *
 * <p>Options: {@code --quick} (1 fork, short iterations: a smoke run, not for the README),
 * {@code --include REGEX} (repeatable; default: the README suite), {@code --param NAME=V1,V2}
 * (override a JMH parameter), {@code --forks F},
 * {@code --iterations I}, {@code --no-readme} (write the report but leave README.md alone).
 */
public final class BenchRunner {
  /** The README suite: machine ceilings plus the kernels. */
  static final List<String> README_SUITE = List.of(
      "MachineBench", "FftBench", "VmpBench", "MultiColumnBench", "PirBench");

  private BenchRunner() {}

  public static void main(String[] args) throws Exception {
    boolean quick = false;
    boolean readme = true;
    int forks = 3;
    int iterations = 8;
    List<String> includes = new ArrayList<>();
    java.util.Map<String, String[]> params = new java.util.LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick": quick = true; break;
        case "--no-readme": readme = false; break;
        case "--include": includes.add(value(args, ++i)); break;
        case "--forks": forks = Integer.parseInt(value(args, ++i)); break;
        case "--iterations": iterations = Integer.parseInt(value(args, ++i)); break;
        case "--param": {
          String[] kv = value(args, ++i).split("=", 2);
          if (kv.length != 2) {
            throw new IllegalArgumentException("--param needs name=v1,v2,...");
          }
          params.put(kv[0], kv[1].split(","));
          break;
        }
        default: throw new IllegalArgumentException("unknown option '" + args[i]
            + "' (known: --quick --include REGEX --param NAME=V1,V2 --forks F --iterations I --no-readme)");
      }
    }
    if (includes.isEmpty()) {
      for (String s : README_SUITE) {
        includes.add("\\." + s + "\\.");
      }
    }
    if (quick) {
      forks = 1;
      iterations = 3;
    }
    Path dir = Path.of("benchmarks", "results");
    Files.createDirectories(dir);
    String rev = Environment.gitRevision();
    String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
        .format(Instant.now());
    String base = "kernels-" + stamp + "-" + rev.replace('+', '_') + (quick ? "-quick" : "");
    Path json = dir.resolve(base + ".json");

    List<String> jvm = new ArrayList<>(JvmOptions.list());
    jvm.add("-Xms12g");
    jvm.add("-Xmx12g");
    jvm.add("-XX:+AlwaysPreTouch");
    ChainedOptionsBuilder ob = new OptionsBuilder()
        .forks(forks)
        .warmupIterations(quick ? 2 : 4)
        .warmupTime(TimeValue.seconds(1))
        .measurementIterations(iterations)
        .measurementTime(TimeValue.seconds(1))
        .jvmArgsAppend(jvm.toArray(new String[0]))
        .shouldFailOnError(true)
        .resultFormat(ResultFormatType.JSON)
        .result(json.toString());
    for (String inc : includes) {
      ob.include(inc);
    }
    params.forEach(ob::param);
    System.out.println("bench: " + Environment.cpuModel() + ", " + Environment.jdk()
        + ", revision " + rev + ", kernels " + Kernels.choice().name() + " by default");
    new Runner(ob.build()).run();

    JsonObject env = new JsonObject();
    env.addProperty("cpu", Environment.cpuModel());
    env.addProperty("cores", Runtime.getRuntime().availableProcessors());
    env.addProperty("jdk", Environment.jdk());
    env.addProperty("revision", rev);
    env.addProperty("date", Instant.now().toString());
    env.addProperty("quick", quick);
    env.addProperty("command", "./pir bench " + String.join(" ", args));
    Files.writeString(dir.resolve(base + ".env.json"),
        new GsonBuilder().setPrettyPrinting().create().toJson(env), StandardCharsets.UTF_8);
    System.out.println("bench: raw results in " + json);
    Report.main(readme ? new String[] {json.toString(), "--readme", "README.md"}
        : new String[] {json.toString()});
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException("option " + args[i - 1] + " needs a value");
    }
    return args[i];
  }
}
