package org.jpir.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The data of a SIMD study ({@link SimdStudy}): its raw directory's observations and {@code
 * env.json}, tabulated per benchmark point ({@code "method params"}) and variant, each cell with
 * its median and bootstrap confidence interval computed once.
 */
final class SimdData {
  /** Bootstrap resamples of every interval of the report. */
  static final int RESAMPLES = 2000;
  /** The operations in report order; others follow. */
  static final List<String> OPS = List.of("fft", "ifft", "fromZnx", "toZnx", "reim4Extract",
      "normalize", "pmatPrepare", "pvecPrepare", "applyDftToDft", "applyPvecToDft",
      "multiColumn", "externalProduct", "phase1", "phase2", "query");
  /** The timed variants in table order. */
  static final List<String> TIME_VARIANTS = List.of("interp", "c1", "c2-nosw", "c2", "panama",
      "c2-jdk17", "panama-jdk17");
  /** Operations with no Vector API kernel: under panama they run the same scalar code. */
  static final Set<String> SCALAR_ONLY = Set.of("fromZnx", "toZnx");
  private static final Pattern NUMBER = Pattern.compile("(\\d+)");

  final Path raw;
  final JsonObject env;
  final List<SimdRaw.Obs> obs;
  /** key -> variant -> cell; keys in {@link #OPS} order, then by first number, then params. */
  final Map<String, Map<String, Cell>> table = new LinkedHashMap<>();

  SimdData(Path raw, JsonObject env, List<SimdRaw.Obs> obs) {
    this.raw = raw;
    this.env = env;
    this.obs = obs;
    List<SimdRaw.Obs> sorted = new ArrayList<>(obs);
    sorted.sort(Comparator.<SimdRaw.Obs>comparingInt(o -> order(o.method()))
        .thenComparingDouble(o -> firstNumber(o.params())).thenComparing(o -> o.params()));
    for (SimdRaw.Obs o : sorted) {
      table.computeIfAbsent(o.key(), k -> new LinkedHashMap<>()).put(o.variant(), new Cell(o));
    }
  }

  /** Reads the JMH JSON files and {@code env.json} (empty when absent) of {@code raw}. */
  static SimdData read(Path raw) throws IOException {
    Path envFile = raw.resolve("env.json");
    JsonObject env = Files.exists(envFile)
        ? JsonParser.parseString(Files.readString(envFile)).getAsJsonObject() : new JsonObject();
    return new SimdData(raw, env, SimdRaw.readRaw(raw));
  }

  /** Per (key, variant): the observations in nanoseconds, their median and 95% CI. */
  static final class Cell {
    final SimdRaw.Obs o;
    final double[] ns;
    final double median;
    final double[] ci;

    Cell(SimdRaw.Obs o) {
      this.o = o;
      this.ns = o.nanos();
      this.median = Stats.median(ns);
      this.ci = Stats.bootstrapMedianCi(ns, 0.95, RESAMPLES, 42);
    }
  }

  /** The cell of a key and variant, or null. */
  Cell get(String key, String variant) {
    Map<String, Cell> m = table.get(key);
    return m == null ? null : m.get(variant);
  }

  /** The variants of {@link #TIME_VARIANTS} with at least one cell. */
  List<String> timeVariants() {
    List<String> present = new ArrayList<>();
    for (String v : TIME_VARIANTS) {
      if (table.values().stream().anyMatch(m -> m.containsKey(v))) {
        present.add(v);
      }
    }
    return present;
  }

  /** The forks' JDKs, sorted. */
  Set<String> jdks() {
    Set<String> jdks = new TreeSet<>();
    for (SimdRaw.Obs o : obs) {
      jdks.add(o.jdk());
    }
    return jdks;
  }

  /**
   * The chains of the {@code peakFma} loop that measured {@code env}'s ceilings: its {@code
   * fmaChains}, or 16 for the runs from before it was recorded (when the loop had 16).
   */
  static int fmaChains(JsonObject env) {
    return env.has("fmaChains") ? env.get("fmaChains").getAsInt() : 16;
  }

  /** A string field of {@code env.json}, or "?" when it has none. */
  String env(String key) {
    return str(env, key);
  }

  /** A string field of {@code o}, or "?" when it has none. */
  static String str(JsonObject o, String key) {
    return o.has(key) ? o.get(key).getAsString() : "?";
  }

  /** The first integer in a parameter string (the sort key within one operation), or 0. */
  static double firstNumber(String params) {
    Matcher m = NUMBER.matcher(params);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  /** An operation's place in {@link #OPS}; unknown ones last. */
  static int order(String method) {
    int i = OPS.indexOf(method);
    return i < 0 ? 100 : i;
  }

  /** The operation's name, marked when it has no Vector API kernel. */
  static String label(String method) {
    return SCALAR_ONLY.contains(method) ? method + " (scalar only)" : method;
  }
}
