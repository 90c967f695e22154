package org.jpir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Facts recorded with every benchmark result: CPU model, git revision, JDK. */
final class Environment {
  private Environment() {}

  /** The CPU model from /proc/cpuinfo, or "unknown". */
  static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }

  /** The CPU flags that decide the kernels' paths: "avx512f avx2 fma", a subset, or "none". */
  static String cpuFlags() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("flags") || line.startsWith("Features")) {
          String f = " " + line.substring(line.indexOf(':') + 1).trim() + " ";
          StringBuilder sb = new StringBuilder();
          for (String x : new String[] {"avx512f", "avx2", "fma", "asimd", "sve"}) {
            if (f.contains(" " + x + " ")) {
              sb.append(sb.length() == 0 ? "" : " ").append(x);
            }
          }
          return sb.length() == 0 ? "none" : sb.toString();
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }

  /** Size in KiB of the level-{@code level} data/unified cache of cpu0 (sysfs), or -1. */
  static int cacheKib(int level) {
    for (int i = 0; i < 8; i++) {
      Path d = Path.of("/sys/devices/system/cpu/cpu0/cache/index" + i);
      try {
        if (Files.isDirectory(d)
            && Integer.parseInt(Files.readString(d.resolve("level")).trim()) == level
            && !Files.readString(d.resolve("type")).trim().equals("Instruction")) {
          String s = Files.readString(d.resolve("size")).trim();
          return s.endsWith("M") ? 1024 * Integer.parseInt(s.substring(0, s.length() - 1))
              : s.endsWith("K") ? Integer.parseInt(s.substring(0, s.length() - 1))
              : Integer.parseInt(s) / 1024;
        }
      } catch (IOException | RuntimeException e) {
        return -1;
      }
    }
    return -1;
  }

  /** Short git revision of the working tree (with "+dirty" when modified), or "unknown". */
  static String gitRevision() {
    String rev = run("git", "rev-parse", "--short", "HEAD");
    if (rev.isEmpty()) {
      return "unknown";
    }
    String status = run("git", "status", "--porcelain", "--untracked-files=no");
    return status.isEmpty() ? rev : rev + "+dirty";
  }

  /** "vendor version" of the running JVM. */
  static String jdk() {
    return System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version");
  }

  private static String run(String... cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return "";
      }
      return out;
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
