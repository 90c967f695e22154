package org.jpir.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.jpir.vmp.CpuInfo;

/** Facts recorded with every benchmark result: CPU model, git revision, JDK. */
final class Environment {
  private Environment() {}

  /** The CPU model from /proc/cpuinfo, or "unknown" ({@link CpuInfo}). */
  static String cpuModel() {
    return CpuInfo.get().model();
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

  /** The L3 cache size Linux reports for cpu0, or 0 when it reports none. */
  static long l3Bytes() {
    return Math.max(0, CpuInfo.get().sysfsCacheBytes(3));
  }

  /** What {@code perf stat -e instructions,cycles true} says on this machine. */
  static String perfStatus() {
    try {
      Process p = new ProcessBuilder("perf", "stat", "-e", "instructions,cycles", "true")
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      if (out.contains("not supported")) {
        return "unavailable (perf stat: instructions and cycles <not supported> in this VM)";
      }
      if (p.exitValue() != 0) {
        return "unavailable (perf stat exit " + p.exitValue() + ")";
      }
      return "perf stat works (not yet used by this study)";
    } catch (IOException e) {
      return "unavailable (no perf binary)";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
