package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jpir.spark.bench.PlacementRecovery;
import org.junit.jupiter.api.Test;

/**
 * Placement on {@code local-cluster[3,1,1024]} (three executor JVMs): the prepared partitions are
 * spread evenly, answers stay exact after an executor is killed, and once the master's
 * replacement executor registers the partitions are spread evenly again, the replacement
 * included. Runs {@link PlacementRecovery} in a child JVM, which gets the {@code SPARK_HOME} and
 * {@code SPARK_SCALA_VERSION} that local-cluster's workers need to launch executors.
 */
class LocalClusterPlacementTest {
  @Test
  void partitionsAreSpreadEvenlyAndSpreadAgainAfterAnExecutorIsKilled() throws Exception {
    Path home = Path.of("target", "placement-spark-home").toAbsolutePath();
    Files.createDirectories(home.resolve("jars"));
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!a.startsWith("-Xmx") && !a.startsWith("-agentlib") && !a.startsWith("-javaagent")) {
        cmd.add(a);
      }
    }
    cmd.add("-Xmx1g");
    // what Surefire sets as system properties: the insecure test presets, no UI
    cmd.add("-Djpir.allowInsecure=" + Boolean.getBoolean("jpir.allowInsecure"));
    cmd.add("-Dspark.ui.enabled=false");
    cmd.add("-Dlog4j2.configurationFile=" + Path.of("src/test/resources/log4j2-test.properties")
        .toAbsolutePath());
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"),
        PlacementRecovery.class.getName(), "--master", "local-cluster[3,1,1024]",
        "--preset", "test-insecure-256", "--cols", "768", "--partitions", "6"));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("SPARK_HOME", home.toString());
    pb.environment().put("SPARK_SCALA_VERSION", "2.13");
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Path log = Path.of("target", "placement-recovery.log");
    pb.redirectOutput(log.toFile());
    Process p = pb.start();
    boolean done = p.waitFor(300, TimeUnit.SECONDS);
    if (!done) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    String out = Files.readString(log);
    assertTrue(done, "the scenario did not end within 300 s:\n" + tail(out));
    Map<String, String> r = new HashMap<>();
    for (String line : out.split("\n")) {
      if (line.startsWith("placement: ")) {
        String[] kv = line.substring("placement: ".length()).split("=", 2);
        r.put(kv[0], kv[1]);
      }
    }
    assertEquals(0, p.exitValue(), tail(out));
    assertEquals("true", r.get("exact"), tail(out));
    for (String b : List.of("batch1", "batch2", "batch3", "batch4")) {
      assertTrue(r.getOrDefault(b, "").startsWith("exact"), b + ": " + tail(out));
    }
    Map<String, Integer> initial = counts(r.get("initial"));
    assertEquals(3, initial.size(), "three executors hold partitions: " + initial);
    assertEquals(6, initial.values().stream().mapToInt(Integer::intValue).sum());
    assertTrue(initial.values().stream().allMatch(c -> c == 2), "2 each: " + initial);
    String killed = r.get("killed").split(" ")[0];
    Map<String, Integer> fin = counts(r.get("final"));
    assertEquals("3", r.get("executors"), "the replacement registered: " + tail(out));
    assertFalse(fin.containsKey(killed), "the killed executor holds nothing: " + fin);
    assertEquals(3, fin.size(), "spread again over three executors: " + fin);
    assertTrue(fin.values().stream().allMatch(c -> c == 2), "2 each again: " + fin);
  }

  /** "{0=2, 1=2}" -> map. */
  private static Map<String, Integer> counts(String s) {
    Map<String, Integer> m = new HashMap<>();
    String body = s.trim().replaceAll("^\\{|\\}$", "");
    if (!body.isEmpty()) {
      for (String e : body.split(",\\s*")) {
        String[] kv = e.split("=");
        m.put(kv[0].trim(), Integer.parseInt(kv[1].trim()));
      }
    }
    return m;
  }

  private static String tail(String s) {
    return s.length() > 6000 ? s.substring(s.length() - 6000) : s;
  }
}
