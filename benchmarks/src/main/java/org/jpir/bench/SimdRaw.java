package org.jpir.bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The SIMD study's raw results: every JMH JSON file of a raw directory read back as
 * observations, one per (variant, benchmark, parameters), forks merged in file order.
 */
final class SimdRaw {
  private SimdRaw() {}

  /** One benchmark at one parameter point of one variant, samples kept per fork. */
  record Obs(String variant, String method, String params, String unit, double[][] forks,
      String jdk) {
    double[] all() {
      return Stream.of(forks).flatMapToDouble(Arrays::stream).toArray();
    }

    /** All samples in nanoseconds. */
    double[] nanos() {
      double f = JmhResults.secondsPerUnit(unit) * 1e9;
      return Stream.of(forks).flatMapToDouble(Arrays::stream).map(x -> x * f)
          .toArray();
    }

    String key() {
      return method + (params.isEmpty() ? "" : " " + params);
    }
  }

  /**
   * Reads every {@code variant__job[__fNN].json[.gz]} of a raw directory; the forks of one
   * (variant, benchmark, parameters) from several files are merged, in file order.
   */
  static List<Obs> readRaw(Path raw) throws IOException {
    Map<String, Obs> merged = new LinkedHashMap<>();
    List<Path> files;
    try (Stream<Path> s = Files.list(raw)) {
      files = s.filter(p -> p.getFileName().toString().contains("__")
          && (p.getFileName().toString().endsWith(".json")
          || p.getFileName().toString().endsWith(".json.gz"))).sorted().toList();
    }
    for (Path f : files) {
      String name = f.getFileName().toString();
      String variant = name.substring(0, name.indexOf("__"));
      String text;
      if (name.endsWith(".gz")) { // a full campaign's raw data is gzipped to stay small
        try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
          text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
      } else {
        text = Files.readString(f, StandardCharsets.UTF_8).trim();
      }
      if (text.isEmpty()) {
        continue; // a run that died before writing
      }
      for (JsonElement e : JsonParser.parseString(text).getAsJsonArray()) {
        JsonObject o = e.getAsJsonObject();
        String bench = o.get("benchmark").getAsString();
        String method = bench.substring(bench.lastIndexOf('.') + 1);
        Map<String, String> params = new TreeMap<>();
        if (o.has("params")) {
          o.getAsJsonObject("params").entrySet()
              .forEach(p -> params.put(p.getKey(), p.getValue().getAsString()));
        }
        StringBuilder ps = new StringBuilder();
        params.forEach((k, v) -> ps.append(ps.length() == 0 ? "" : " ").append(k).append('=')
            .append(v));
        JsonObject pm = o.getAsJsonObject("primaryMetric");
        JsonArray rawData = pm.getAsJsonArray("rawData");
        double[][] forks = new double[rawData.size()][];
        for (int i = 0; i < forks.length; i++) {
          JsonArray a = rawData.get(i).getAsJsonArray();
          forks[i] = new double[a.size()];
          for (int j = 0; j < a.size(); j++) {
            forks[i][j] = a.get(j).getAsDouble();
          }
        }
        String jdk = o.has("jdkVersion") ? o.get("jdkVersion").getAsString() + " ("
            + o.get("vmName").getAsString() + " " + o.get("vmVersion").getAsString() + ")"
            : "unknown";
        String unit = pm.get("scoreUnit").getAsString();
        String key = variant + "|" + method + "|" + ps;
        Obs prev = merged.get(key);
        if (prev != null) {
          if (!prev.unit().equals(unit)) {
            throw new IOException(f + ": " + method + " " + ps + " in " + unit
                + ", earlier forks in " + prev.unit());
          }
          double[][] all = Arrays.copyOf(prev.forks(), prev.forks().length
              + forks.length);
          System.arraycopy(forks, 0, all, prev.forks().length, forks.length);
          forks = all;
        }
        merged.put(key, new Obs(variant, method, ps.toString(), unit, forks, jdk));
      }
    }
    return new ArrayList<>(merged.values());
  }
}
