package org.jpir.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpir.bench.PresetMeasurement.Large;
import org.jpir.bench.PresetMeasurement.Measurement;
import org.jpir.bench.PresetRows.Row;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Noise;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;
import org.jpir.core.params.Security;
import org.jpir.core.wire.Sizes;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The parameter table of every preset, from one command: parameters, noise budget, estimated
 * security and message sizes from the code ({@link Sizes}, {@link Noise}, {@link Security}),
 * plus measured noise and server time for one query on one core at a stated database size. With
 * {@code --write docs/parameters.md} the markdown replaces the text between {@value #BEGIN} and {@value
 * #END}. Options: {@code --mib M} (measured database, default 256), {@code --record-size B}
 * (default 3072), {@code --queries Q} (timed queries after one warm-up, default 2), {@code
 * --large-mib L} (database of 30 KiB records answered with shared-mask answers, default 64; 0:
 * none), {@code --write FILE}, {@code --no-measure} (model columns only). Exits 1 when a record
 * decodes wrong.
 */
@Command(name = "ParamTable", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "The parameter table: every production preset's N,"
    + " moduli, noise, security and sizes, with the server time measured.")
public final class ParamTable implements Callable<Integer> {
  ParamTable() {}

  /** Marker line before the generated table. */
  public static final String BEGIN = "<!-- params:begin -->";
  /** Marker line after the generated table. */
  public static final String END = "<!-- params:end -->";

  /** The markdown table (measurements may be null: those cells say "not measured"). */
  public static String markdown(List<Row> rows, List<Measurement> ms, long mib,
      int recordSize,
      String header) {
    StringBuilder sb = new StringBuilder();
    sb.append(header).append("\n\n");
    sb.append("| preset | N | q (log2) | plaintext | gadgets (levels x digit bits) | answer modulus"
        + " b / a | largest geometry | noise std, estimated there | failure per coefficient"
        + " there | noise std measured / estimated (measured geometry) | security classical /"
        + " quantum | parameter revision |\n");
    sb.append("|---|---:|---|---|---|---|---|---:|---:|---|---|---|\n");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      Params p = r.params();
      CompactParams cp = r.compact();
      Measurement m = ms == null ? null : ms.get(i);
      String q = cp == null ? "2^" + p.logQ() : String.format(Locale.ROOT,
          "server 2^%d, client ciphertexts and keys 2^%d (noise 2^%.0f/q)", p.logQ(),
          cp.keys().logQ(), Math.log(cp.keys().sigma() / 3.2) / Math.log(2));
      String gadgets = cp == null
          ? String.format(Locale.ROOT, "GGSW %d x %d; limbs of K = %d", p.ggswLevels(),
              p.ggswBits(), p.base2k())
          : String.format(Locale.ROOT, "GGSW %d x %d, key switching %d x %d, GGSW(s) %d x %d;"
              + " limbs of K = %d; query b %d bits, key b %d bits; phase-1 rows in %s",
              p.ggswLevels(), p.ggswBits(), cp.ksLevels(), cp.ksBits(), cp.keys().ggswLevels(),
              cp.keys().ggswBits(), p.base2k(), cp.queryBits(), cp.keyBits(), cp.phase1());
      String sec = cp == null
          ? String.format(Locale.ROOT, "%.0f / %.0f", r.security().classicalBits(),
              r.security().quantumBits())
          : String.format(Locale.ROOT, "%.0f / %.0f (keys; server %.0f / %.0f)",
              r.keySecurity().classicalBits(), r.keySecurity().quantumBits(),
              r.security().classicalBits(), r.security().quantumBits());
      String meas = m == null ? "not measured" : String.format(Locale.ROOT,
          "2^%.2f / 2^%.2f (%d x %d)", m.log2MeasuredStd(), m.log2EstimatedStd(),
          m.geometry().rows(), m.geometry().cols());
      sb.append(String.format(Locale.ROOT, "| `%s` | %d | %s | %d bits in %d limbs%s | %s |"
          + " %d / %d bits | %d x %d | 2^%.1f | 2^%.0f | %s | %s | `%s` |\n", p.id(), p.n(), q,
          p.plaintextBits(), p.plaintextLimbs(), p.scaledPlaintext()
              ? " (scaled: the digit is the byte, the query row 2^-" + p.plaintextBits() + ")"
              : "", gadgets, p.answerBitsB(), p.answerBitsA(),
          r.maxRows(), r.maxCols(), r.log2Std(), r.log2Failure(), meas, sec,
          ParameterRevision.hex(ParameterRevision.of(p))));
    }
    List<String> tests = new ArrayList<>();
    for (Params t : PresetRows.testPresets()) {
      tests.add("`" + t.id() + "`");
    }
    sb.append("| ").append(String.join(", ", tests)).append(" | 256, 1024 | as above |"
        + " | | | | | | | insecure: tests only, refused elsewhere | each its own |\n\n");
    sb.append(String.format(Locale.ROOT, "| preset | geometry at 1 GiB / 3 KiB | query (B) |"
        + " answer (B) | evaluation keys (B) | 30 KiB records at 1 GiB (geometry): answer"
        + " bytes (rate = record / answer)"
        + " | server time, one query, one core, %d MiB / %d B records (geometry): expansion +"
        + " phase 1 + phase 2 = total | records exact |\n", mib, recordSize));
    sb.append("|---|---|---:|---:|---:|---|---|---|\n");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      Measurement m = ms == null ? null : ms.get(i);
      String t = m == null ? "not measured" : String.format(Locale.ROOT,
          "%.3f + %.3f + %.3f = %.3f s (%d x %d), %.2f GB/s", m.expandSeconds(),
          m.phase1Seconds(), m.phase2Seconds(), m.totalSeconds(), m.geometry().rows(),
          m.geometry().cols(), m.geometry().rawBytes() / m.totalSeconds() / 1e9);
      sb.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s |\n", r.params().id(),
          PresetRows.sizeCells(r), t, m == null ? "" : m.correct() ? "yes" : "NO"));
    }
    if (ms != null) {
      sb.append("\nShared-mask answers to 30 KiB records, measured in the same run (packing key"
          + " and answers through the wire):\n\n");
      sb.append("| preset | database (geometry) | answer (B) | rate | noise std measured /"
          + " estimated | forming the answer from the plane GLWEs: shared mask / per plane |"
          + " records exact |\n|---|---|---:|---:|---|---|---|\n");
      for (int i = 0; i < rows.size(); i++) {
        Large l = ms.get(i).large();
        if (l == null) {
          continue;
        }
        Geometry lg = l.geometry();
        sb.append(String.format(Locale.ROOT, "| `%s` | %,d x 30 KiB (%d x %d x %d) | %,d |"
            + " %.3f | 2^%.2f / 2^%.2f | %.1f / %.1f ms | %s |\n", rows.get(i).params().id(),
            lg.recordCount(), lg.rows(), lg.cols(), lg.planes(), l.answerBytes(), l.rate(),
            l.log2MeasuredStd(), l.log2EstimatedStd(), l.sharedMs(), l.perPlaneMs(),
            l.correct() ? "yes" : "NO"));
      }
    }
    return sb.toString();
  }


  /**
   * {@code text} with the lines between {@link #BEGIN} and {@link #END} replaced by {@code
   * table}.
   *
   * @throws IllegalArgumentException when the markers are missing or out of order
   */
  public static String replaceBetweenMarkers(String text, String table) {
    int b = text.indexOf(BEGIN);
    int e = text.indexOf(END);
    if (b < 0 || e < b) {
      throw new IllegalArgumentException("the file needs a line " + BEGIN + " before a line "
          + END);
    }
    return text.substring(0, b + BEGIN.length()) + "\n" + table + text.substring(e);
  }

  @Option(names = "--mib", description = "database size measured (default: ${DEFAULT-VALUE})")
  long mib = 256;

  @Option(names = "--record-size", description = "record size measured (default:"
      + " ${DEFAULT-VALUE})")
  int recordSize = PresetRows.SIZE_RECORD;

  @Option(names = "--queries", description = "queries timed per preset (default:"
      + " ${DEFAULT-VALUE})")
  int queries = 2;

  @Option(names = "--large-mib", description = "database of 30 KiB records measured (default:"
      + " ${DEFAULT-VALUE})")
  long largeMib = 64;

  @Option(names = "--write", description = "a file whose table between the markers is"
      + " replaced")
  Path write;

  @Option(names = "--no-measure", negatable = false, description = "sizes and estimates only")
  boolean noMeasure;

  /** The command line as given (echoed into the table). */
  private String[] args = new String[0];

  public static void main(String[] args) {
    ParamTable t = new ParamTable();
    t.args = args.clone();
    System.exit(new CommandLine(t).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    boolean measure = !noMeasure;
    List<Row> rows = new ArrayList<>();
    List<Measurement> ms = measure ? new ArrayList<>() : null;
    boolean ok = true;
    for (Params p : PresetRows.productionPresets()) {
      rows.add(PresetRows.row(p));
      if (measure) {
        System.err.printf(Locale.ROOT, "measuring %s at %d MiB ...%n", p.id(), mib);
        Measurement m = PresetMeasurement.measure(p, mib, recordSize, queries, largeMib);
        ms.add(m);
        ok &= m.correct() && (m.large() == null || m.large().correct());
        System.gc();
      }
    }
    StringBuilder cmd = new StringBuilder("./pir java " + ParamTable.class.getName());
    for (String a : args) {
      cmd.append(' ').append(a);
    }
    String table = markdown(rows, ms, mib, recordSize, ParamTableHeader.environment(cmd.toString()));
    System.out.print(table);
    if (write != null) {
      String text = Files.readString(write);
      Files.writeString(write, replaceBetweenMarkers(text, table));
      System.err.println("wrote the table into " + write);
    }
    return ok ? 0 : 1;
  }
}
