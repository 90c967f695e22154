package org.jpir.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a JMH JSON result file into rows: benchmark, params, unit and every iteration sample. */
public final class JmhResults {
  private JmhResults() {}

  /**
   * One benchmark at one parameter point.
   *
   * @param benchmark fully qualified {@code Class.method}
   * @param samples every measured iteration score, all forks together, in {@code unit}
   */
  public record Row(String benchmark, Map<String, String> params, String unit, double[] samples,
      String jdk, List<String> jvmArgs) {

    /** {@code Class.method} without the package. */
    public String shortName() {
      String b = benchmark;
      int dot = b.lastIndexOf('.', b.lastIndexOf('.') - 1);
      return b.substring(dot + 1);
    }

    /** The method name alone. */
    public String method() {
      return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** A parameter value, or null. */
    public String param(String name) {
      return params.get(name);
    }

    /** Seconds per operation of one sample score. */
    public double seconds(double score) {
      return score * secondsPerUnit(unit);
    }
  }

  /** Seconds in one unit of a JMH "x/op" unit string. */
  static double secondsPerUnit(String unit) {
    String u = unit.endsWith("/op") ? unit.substring(0, unit.length() - 3) : unit;
    switch (u) {
      case "s": return 1;
      case "ms": return 1e-3;
      case "us": return 1e-6;
      case "ns": return 1e-9;
      default: throw new IllegalArgumentException("unsupported JMH unit '" + unit
          + "' (expected s/op, ms/op, us/op or ns/op)");
    }
  }

  /** Parses a JMH JSON file. */
  public static List<Row> read(Path file) throws IOException {
    JsonElement root = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8));
    if (!root.isJsonArray()) {
      throw new IOException(file + " is not a JMH JSON result (top level is not an array)");
    }
    List<Row> rows = new ArrayList<>();
    for (JsonElement e : root.getAsJsonArray()) {
      JsonObject o = e.getAsJsonObject();
      Map<String, String> params = new LinkedHashMap<>();
      if (o.has("params")) {
        for (Map.Entry<String, JsonElement> p : o.getAsJsonObject("params").entrySet()) {
          params.put(p.getKey(), p.getValue().getAsString());
        }
      }
      JsonObject pm = o.getAsJsonObject("primaryMetric");
      List<Double> samples = new ArrayList<>();
      for (JsonElement fork : pm.getAsJsonArray("rawData")) {
        for (JsonElement v : fork.getAsJsonArray()) {
          samples.add(v.getAsDouble());
        }
      }
      List<String> jvmArgs = new ArrayList<>();
      if (o.has("jvmArgs")) {
        JsonArray a = o.getAsJsonArray("jvmArgs");
        a.forEach(x -> jvmArgs.add(x.getAsString()));
      }
      rows.add(new Row(o.get("benchmark").getAsString(), params,
          pm.get("scoreUnit").getAsString(),
          samples.stream().mapToDouble(Double::doubleValue).toArray(),
          o.has("vmVersion") ? o.get("jdkVersion").getAsString() + " (" + o.get("vmName")
              .getAsString() + " " + o.get("vmVersion").getAsString() + ")" : "unknown",
          jvmArgs));
    }
    return rows;
  }
}
