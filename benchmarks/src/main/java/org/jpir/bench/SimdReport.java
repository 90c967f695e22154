package org.jpir.bench;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jpir.bench.SimdComparisons.Bound;
import org.jpir.bench.SimdComparisons.Comparison;
import org.jpir.bench.SimdComparisons.LayoutRow;
import org.jpir.bench.SimdComparisons.Speedup;
import org.jpir.bench.SimdComparisons.Spread;
import org.jpir.bench.SimdData.Cell;

/**
 * Renders the SIMD study's report ({@link SimdStudy}) from a raw directory alone: the data
 * ({@link SimdData}), what it says ({@link SimdComparisons}) and the plots ({@link SimdPlots},
 * PNG files written into the raw directory) poured into the Markdown template {@code
 * simd-report.md}, which holds the report's prose.
 */
public final class SimdReport {
  /** A speedup counts when the whole 95% CI of the ratio lies above this. */
  static final double GAIN = 1.10;
  private static final MarkdownTemplate TEMPLATE = MarkdownTemplate.load("simd-report.md");

  private SimdReport() {}

  /** Reads {@code raw}, writes the report to {@code report} and plots into {@code raw}. */
  public static void write(Path raw, Path report) throws IOException {
    SimdComparisons c = new SimdComparisons(SimdData.read(raw));
    Path rel = report.toAbsolutePath().getParent().relativize(raw.toAbsolutePath());
    String md = render(c, SimdPlots.write(c), rel);
    if (report.getParent() != null) {
      Files.createDirectories(report.getParent());
    }
    Files.writeString(report, md, StandardCharsets.UTF_8);
    System.out.println("simd: report written to " + report);
  }

  /** The report's Markdown; {@code rel} is the raw directory relative to the report's. */
  static String render(SimdComparisons c, List<SimdPlots.Plot> plots, Path rel)
      throws IOException {
    SimdData d = c.data;
    SimdComparisons.SampleSizes sizes = c.sampleSizes;
    List<String> present = d.timeVariants();
    Path notes = d.raw.resolve("notes.md");
    String md = TEMPLATE.fill("report",
        "cpu", d.env("cpu"), "cores", d.env("cores"), "jdks", String.join("; ", d.jdks()),
        "revision", d.env("revision"), "started", d.env("started"),
        "finished", d.env("finished"), "seconds", d.env("seconds"), "profile", d.env("profile"),
        "raw", d.raw.normalize(), "command", d.env("command"),
        "reused", reused(d.env),
        "warmup", d.env("warmup"), "measurement", d.env("measurement"), "heap", d.env("heap"),
        "perf", d.env("perf"),
        "met", sizes.met(), "total", sizes.total(), "barObs", SimdComparisons.BAR_OBS,
        "barForks", SimdComparisons.BAR_FORKS,
        "belowBar", sizes.below().isEmpty() ? "" : TEMPLATE.fill("below-bar", "cells",
            join(sizes.below().entrySet(), "; ", e -> e.getKey() + " (" + e.getValue() + ")")),
        "variants", variants(d.env),
        "resamples", SimdData.RESAMPLES,
        "ceilings", join(c.ceilings, "\n", k -> k.method().equals("streamRead")
            ? TEMPLATE.fill("ceiling-stream", "value", fmt(k.value()), "lo", fmt(k.lo()),
                "hi", fmt(k.hi()))
            : TEMPLATE.fill("ceiling-fma", "chains", c.fmaChains, "value", fmt(k.value()),
                "lo", fmt(k.lo()), "hi", fmt(k.hi()))),
        "timeHeads", join(present, "", v -> " " + v + " |"),
        "timeAligns", join(present, "", v -> "---:|"),
        "times", times(d, present),
        "decomposition", comparisons(c, SimdComparisons.DECOMPOSITION),
        "jdk", comparisons(c, SimdComparisons.JDK),
        "layout", c.layout.isEmpty() ? "" : TEMPLATE.fill("layout", "rows",
            join(c.layout, "\n", SimdReport::layoutRow)),
        "spreadCells", c.spreads.size(), "cells", c.spreadCells,
        "spread", fmt(SimdComparisons.SPREAD),
        "spreadMore", c.spreads.isEmpty() ? "" : TEMPLATE.fill("fork-spread-more"),
        "spreadTable", c.spreads.isEmpty() ? "" : TEMPLATE.fill("fork-spread-table",
            "spread", fmt(SimdComparisons.SPREAD), "rows",
            join(c.spreads, "\n", SimdReport::spreadRow)),
        "l3Mib", c.l3 >> 20,
        "l3Source", TEMPLATE.fill(c.l3Recorded ? "l3-recorded" : "l3-assumed"),
        "bounds", Double.isNaN(c.balance) ? TEMPLATE.fill("no-ceilings")
            : TEMPLATE.fill("bounds", "balance", fmt(c.balance),
                "rows", join(c.bounds, "\n", SimdReport::boundRow)),
        "gain", fmt(GAIN),
        "vectorHelps", list(c.beyond("Vector API over C2 scalar", GAIN, true)),
        "vectorNoHelp", list(c.beyond("Vector API over C2 scalar", GAIN, false)),
        "autoHelps", list(c.beyond("auto-vectorization (C2 over C2 -SuperWord)", GAIN, true)),
        "autoNoHelp", list(c.beyond("auto-vectorization (C2 over C2 -SuperWord)", GAIN, false)),
        "jdkHelps", list(c.beyond("Java 25 over 17, Vector API", GAIN, true)),
        "memoryBound", classified(c, "memory", b -> fmt(b.pctStream())
            + "% of the streaming read"),
        "computeBound", classified(c, "compute", b -> fmt(b.pctPeak()) + "% of peak FMA"),
        "interpretation", !Files.exists(notes) ? "" : TEMPLATE.fill("interpretation",
            "path", rel.resolve("notes.md"),
            "notes", Files.readString(notes, StandardCharsets.UTF_8).trim()),
        "failures", failures(d.env),
        "plots", join(plots, "\n\n", p -> "![" + p.alt() + "](" + rel.resolve(p.file()) + ")"));
    return md + "\n\n";
  }

  private static String reused(JsonObject env) {
    if (!env.has("reused")) {
      return "";
    }
    JsonObject r = env.getAsJsonObject("reused");
    return join(r.keySet(), "\n", job -> TEMPLATE.fill("reused", "job", job,
        "settings", ownSettings(r.get(job).getAsString(), job)));
  }

  private static String variants(JsonObject env) {
    if (!env.has("variants")) {
      return "";
    }
    JsonObject vs = env.getAsJsonObject("variants");
    return join(vs.keySet(), "\n", v -> {
      JsonObject o = vs.getAsJsonObject(v);
      return row(v, "`" + o.get("jdkHome").getAsString() + "`",
          "`" + o.get("args").getAsString() + "`", o.get("meaning").getAsString());
    });
  }

  private static String failures(JsonObject env) {
    if (!env.has("failures") || env.getAsJsonArray("failures").size() == 0) {
      return "";
    }
    List<String> items = new ArrayList<>();
    env.getAsJsonArray("failures").forEach(f -> items.add("- " + f.getAsString()));
    return TEMPLATE.fill("failures", "list", String.join("\n", items));
  }

  private static String times(SimdData d, List<String> present) {
    List<String> rows = new ArrayList<>();
    for (Map<String, Cell> m : d.table.values()) {
      if (m.containsKey("machine")) {
        continue;
      }
      Cell any = m.values().iterator().next();
      List<Object> cols = new ArrayList<>(List.of(any.o.method(), any.o.params()));
      for (String v : present) {
        Cell c = m.get(v);
        cols.add(c == null ? "" : fmtNs(c.median) + " (" + fmtNs(c.ci[0])
            + ".." + fmtNs(c.ci[1]) + ")");
      }
      Cell c = m.getOrDefault("panama", any);
      cols.add(c.ns.length / c.o.forks().length + " x " + c.o.forks().length);
      rows.add(row(cols.toArray()));
    }
    return String.join("\n", rows);
  }

  private static String comparisons(SimdComparisons c, List<Comparison> group) {
    List<String> blocks = new ArrayList<>();
    for (Comparison cmp : group) {
      List<Speedup> s = c.speedups.get(cmp.name());
      if (s == null) {
        continue;
      }
      String against = "`" + cmp.baseline() + "` against `" + cmp.candidate() + "`.";
      String m = cmp.meaning();
      blocks.add(TEMPLATE.fill("comparison", "name", cmp.name(),
          "intro", m.isEmpty() ? against
              : m.substring(0, 1).toUpperCase(Locale.ROOT) + m.substring(1) + ": " + against,
          "rows", join(s, "\n", r -> row(SimdData.label(r.cand().o.method()),
              r.cand().o.params(), "**" + fmt(r.ratio()) + "x**", fmt(r.lo()) + ".." + fmt(r.hi()),
              String.format(Locale.ROOT, "%+.3f (%s)", r.delta(),
                  NonParametric.magnitude(r.delta())), pval(r.p()),
              String.format(Locale.ROOT, "%d/%d (%d/%d forks)", r.base().ns.length,
                  r.cand().ns.length, r.base().o.forks().length, r.cand().o.forks().length)))));
    }
    return String.join("\n\n", blocks);
  }

  private static String layoutRow(LayoutRow r) {
    return row(r.variant(), r.shape(), median(r.dft()), median(r.pvec()), median(r.multi()),
        ratio(r.dftOverPvec()), ratio(r.pvecOverMulti()));
  }

  private static String spreadRow(Spread s) {
    Cell c = s.cell();
    return row(c.o.method(), c.o.params(), c.o.variant(), fmtNs(s.fastest()),
        fmtNs(s.slowest()), fmt(s.slowest() / s.fastest()),
        s.slowForks() + " of " + c.o.forks().length);
  }

  private static String boundRow(Bound b) {
    double[] m = b.model();
    SimdRaw.Obs o = b.cell().o;
    return row(o.method(), o.params(), b.variant(), mib(m[0]), sci(m[1]), fmt(m[1] / m[0]),
        fmt(b.gbs()), fmt(b.pctStream()) + "%", fmt(b.gflops()), fmt(b.pctPeak()) + "%",
        b.bound());
  }

  /** A Markdown table row of the cells' {@code toString()}. */
  private static String row(Object... cells) {
    return Stream.of(cells).map(String::valueOf).collect(Collectors.joining(" | ", "| ", " |"));
  }

  private static <T> String join(Iterable<T> items, String sep, Function<T, String> f) {
    List<String> out = new ArrayList<>();
    items.forEach(i -> out.add(f.apply(i)));
    return String.join(sep, out);
  }

  private static String median(Cell c) {
    return c == null ? "" : fmtNs(c.median);
  }

  private static String ratio(double[] r) {
    return r == null ? "" : fmt(r[0]) + " (" + fmt(r[1]) + ".." + fmt(r[2]) + ")";
  }

  /** A findings list: " a 1.2x (1.1..1.3); b ...", " none." or " not measured.". */
  private static String list(List<Speedup> hits) {
    if (hits == null) {
      return " not measured.";
    }
    if (hits.isEmpty()) {
      return " none.";
    }
    return " " + join(hits, "; ", r -> {
      String method = r.cand().o.method();
      return SimdData.label(method) + r.key().substring(method.length()) + " " + fmt(r.ratio())
          + "x (" + fmt(r.lo()) + ".." + fmt(r.hi()) + ")";
    }) + ".";
  }

  /** The bounds whose class starts with {@code kind}, each with its share of the ceiling. */
  private static String classified(SimdComparisons c, String kind, Function<Bound, String> share) {
    List<Bound> hits = c.bounds.stream().filter(b -> b.bound().startsWith(kind)).toList();
    return hits.isEmpty() ? " none classified." : " " + join(hits, "; ", b -> b.key() + " ("
        + b.variant() + ", " + share.apply(b) + ")") + ".";
  }

  /**
   * A reused job's description keeps only that job's own settings out of the earlier run's list
   * ("... (revision R, started S; job1: ...; job2: ...)").
   */
  static String ownSettings(String reused, String job) {
    int open = reused.indexOf("; ");
    int close = reused.lastIndexOf(')');
    if (open < 0 || close < open) {
      return reused;
    }
    String own = "";
    for (String seg : reused.substring(open + 2, close).split("; ")) {
      if (seg.startsWith(job + ":")) {
        own = "; " + seg;
      }
    }
    if (own.isEmpty() && job.equals("machine")) {
      own = "; JMH defaults (5 x 10 s warmup, 5 x 10 s measurement), 3 forks";
    }
    return reused.substring(0, open) + own + ")";
  }

  private static String mib(double bytes) {
    return bytes >= 1 << 20 ? fmt(bytes / (1 << 20)) + " MiB" : fmt(bytes / 1024) + " KiB";
  }

  private static String sci(double v) {
    return v == 0 ? "0" : String.format(Locale.ROOT, "%.3g", v);
  }

  private static String fmt(double v) {
    return Report.fmt(v);
  }

  /** Nanoseconds in the unit that fits (s, ms, us, ns), three significant digits. */
  static String fmtNs(double ns) {
    if (ns >= 1e9) {
      return Report.fmt(ns / 1e9) + " s";
    } else if (ns >= 1e6) {
      return Report.fmt(ns / 1e6) + " ms";
    } else if (ns >= 1e3) {
      return Report.fmt(ns / 1e3) + " us";
    }
    return Report.fmt(ns) + " ns";
  }


  /** A p-value as the report prints it ("<1e-300" for 0). */
  static String pval(double p) {
    if (p == 0) {
      return "<1e-300";
    }
    return p < 0.001 ? String.format(Locale.ROOT, "%.1e", p) : String.format(Locale.ROOT, "%.3f",
        p);
  }
}
