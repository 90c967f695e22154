package org.jpir.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jpir.vmp.KernelProvider;

/**
 * The header line of a generated table: date, command, git revision, JDK, kernels, CPU model,
 * flags and caches, load average.
 */
public final class ParamTableHeader {
  private ParamTableHeader() {}

  /** The header: date, command, git revision, JDK, kernels and the CPU (model, flags, caches). */
  public static String environment(String command) {
    String rev = run("git", "rev-parse", "--short", "HEAD");
    String dirty = run("git", "status", "--porcelain", "--untracked-files=no");
    return String.format(Locale.ROOT, "Generated %s by `%s`; revision %s%s; %s %s; kernels %s;"
        + " CPU %s, %d cores; %s; caches %s; load average at the end %s. Server times are the"
        + " answering thread's CPU time (medians of the timed queries).",
        Instant.now().truncatedTo(ChronoUnit.SECONDS), command,
        rev.isEmpty() ? "unknown" : rev, dirty.isEmpty() ? "" : " (with local changes)",
        System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
        kernels(), cpuField("model name"), Runtime.getRuntime().availableProcessors(),
        cpuFlags(), caches(), loadAverage());
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " / " + f[1] + " / " + f[2] + " (1 / 5 / 15 min)";
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      return "unknown";
    }
  }

  private static String kernels() {
    return String.valueOf(KernelProvider.get());
  }

  private static String run(String... cmd) {
    try {
      Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return pr.waitFor() == 0 ? out : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private static String cpuField(String name) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith(name)) {
          return line.substring(line.indexOf(':') + 1).trim()
              + (name.equals("model name") ? " (family " + cpuRaw("cpu family") + ", model "
                  + cpuRaw("model\t") + ")" : "");
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }

  private static String cpuRaw(String name) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith(name)) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return "?";
  }

  private static String cpuFlags() {
    String flags = " " + cpuRaw("flags") + " ";
    List<String> have = new ArrayList<>();
    for (String f : new String[] {"avx2", "fma", "avx512f", "avx512dq", "avx512bw", "avx512vl",
        "avx512_fp16"}) {
      if (flags.contains(" " + f + " ")) {
        have.add(f);
      }
    }
    return "flags " + (have.isEmpty() ? "none of avx2/fma/avx512" : String.join(" ", have));
  }

  private static String caches() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Path d = Path.of("/sys/devices/system/cpu/cpu0/cache/index" + i);
      if (!Files.isDirectory(d)) {
        break;
      }
      try {
        String type = Files.readString(d.resolve("type")).trim();
        if (type.equals("Instruction")) {
          continue;
        }
        out.add("L" + Files.readString(d.resolve("level")).trim()
            + (type.equals("Data") ? "d" : "") + " " + Files.readString(d.resolve("size")).trim());
      } catch (IOException e) {
        break;
      }
    }
    return out.isEmpty() ? "unknown" : String.join(", ", out) + " (per core: cpu0's)";
  }
}
