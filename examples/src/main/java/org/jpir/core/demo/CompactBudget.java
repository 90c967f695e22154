package org.jpir.core.demo;

import java.util.Locale;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Noise;
import org.jpir.core.params.Params;
import org.jpir.core.params.Security;
import org.jpir.datasets.cli.JpirVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Prints the noise budget of a compact preset (default onionpir-4096-compact-128) from the
 * closed forms in {@link Noise}: every step's standard deviation as log2 on the torus, and the
 * failure probability per coefficient, at several geometries (rows x cols), for two packed
 * GLWEs and for the layout the query uses ({@link CompactParams#layout}).
 */
@Command(name = "CompactBudget", mixinStandardHelpOptions = true,
    versionProvider = JpirVersion.class,
    description = "The noise budget of a compact preset from the"
    + " closed forms, step by step, at several geometries.")
public final class CompactBudget implements Runnable {
  @Parameters(arity = "0..1", description = "the compact preset (default: ${DEFAULT-VALUE})")
  String preset = CompactParams.ONIONPIR_4096_COMPACT.id();

  public static void main(String[] args) {
    System.exit(new CommandLine(new CompactBudget()).execute(args));
  }

  @Override
  public void run() {
    CompactParams cp = CompactParams.byId(preset);
    Params s = cp.server();
    Params k = cp.keys();
    out("preset %s: N=%d, keys q=2^%d sigma=%.1f (torus std 2^%.2f, 128-bit floor 2^%.2f),"
        + " server q=2^%d, %d-bit plaintexts in %d limbs%s, GGSW %d x %d-bit digits, CMux tree in"
        + " %d limbs, answer %d limbs, key switching %d x %d-bit digits, GGSW(s) %d x %d-bit"
        + " digits, phase-1 rows in %s", cp.id(), s.n(),
        k.logQ(), k.sigma(), lg(k.noiseStdTorus()),
        lg(Security.minNoiseStdTorus(s.n())), s.logQ(), s.plaintextBits(),
        s.plaintextLimbs(), s.scaledPlaintext() ? " (scaled: the digit is the value)" : "",
        s.ggswLevels(), s.ggswBits(), s.foldLimbs(), s.answerLimbs(), cp.ksLevels(),
        cp.ksBits(),
        k.ggswLevels(), k.ggswBits(), cp.phase1());
    out("fresh (keys, query)          2^%.1f", lg2v(Noise.fresh(k)));
    out("one key switch               2^%.1f", lg2v(Noise.keySwitch(cp)));
    out("margin (decoding)            2^%.1f", lg(Noise.margin(s)));
    out("%6s %8s | %7s %7s %7s %7s %7s %7s %7s | %9s | %s", "rows", "cols", "l1", "row",
        "phase1", "l2", "ggsw0", "cmux", "answer", "log2 fail", "query layout (answer, fail)");
    int[][] geo = {{16, 16}, {99, 589}, {128, 1024}, {99, 4096}, {160, 1200}, {256, 256},
        {cp.maxRows(), 1 << 12},
        {cp.maxRows(), CompactParams.BUDGET_COLS}, {cp.maxRows() + 1, CompactParams.BUDGET_COLS}};
    out("(the last row is one past the largest geometry the preset allows, %d rows)",
        cp.maxRows());
    for (int[] g : geo) {
      int rows = g[0];
      int cols = g[1];
      double v = Noise.compactAnswer(cp, rows, cols);
      // the columns before the bar: two packed GLWEs; after it: the layout the query uses
      int l1 = CompactParams.depth(cp.phase1Slots(rows));
      int l2 = CompactParams.depth(Math.max(1, cp.phase2Slots(cols)));
      double v2 = Noise.compactAnswerAt(cp, rows, cols, l1, l2);
      CompactParams.Layout lay = cp.layout(rows, cols);
      out("%6d %8d | %7d %7.1f %7.1f %7d %7.1f %7.1f %7.1f | %9.0f | %s (2^%.1f, 2^%.0f)", rows,
          cols, l1, lg2v(Noise.compactRow(cp, rows)), lg2v(Noise.compactPhase1(cp, rows)), l2,
          lg2v(Noise.expansion(cp, Math.max(1, cp.phase2Slots(cols)))),
          lg2v(Noise.compactExternalProduct(cp, cols)), lg2v(v2),
          Noise.log2FailureProbability(s, v2), lay.packed() ? "one GLWE, depth "
              + lay.phase1Depth() : "two GLWEs", lg2v(v), Noise.log2FailureProbability(s, v));
    }
  }

  private static double lg(double x) {
    return Math.log(x) / Math.log(2);
  }

  /** log2 of the standard deviation of a variance. */
  private static double lg2v(double v) {
    return lg(v) / 2;
  }

  private static void out(String f, Object... a) {
    System.out.println(String.format(Locale.ROOT, f, a));
  }
}
