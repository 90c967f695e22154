package org.jpir.datasets.progress;

import java.io.Console;
import java.io.PrintStream;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.function.Consumer;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of one long step (import, prepare, answer) towards a known total: a redrawn bar on a
 * terminal ({@link Mode#BAR}, drawn by the {@code me.tongfei:progressbar} library: done of
 * total, percentage, rate, time left), a line every few seconds ({@link Mode#LINES}), or
 * nothing ({@link Mode#QUIET}). Thread-safe; {@link #close} prints the final state once.
 */
public final class Progress implements AutoCloseable {
  /** How progress is shown. */
  public enum Mode {
    /** A bar redrawn in place (terminals). */
    BAR,
    /** A plain line at most every {@link #LINE_INTERVAL} and at the end (logs). */
    LINES,
    /** Nothing. */
    QUIET;

    /**
     * Parses {@code bar|lines|quiet|auto} (case-insensitive); {@code auto} is {@link #detect}.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Mode parse(String s) {
      String v = s.trim().toLowerCase(Locale.ROOT);
      if (v.equals("auto")) {
        return detect();
      }
      for (Mode m : values()) {
        if (m.name().toLowerCase(Locale.ROOT).equals(v)) {
          return m;
        }
      }
      throw new IllegalArgumentException("--progress " + s + " is not one of auto, bar, lines,"
          + " quiet");
    }

    /**
     * {@link #BAR} when standard output is a terminal, else {@link #QUIET} (CI logs and
     * redirected output keep only the log lines the jobs print anyway); {@code JPIR_PROGRESS}
     * (bar, lines, quiet) overrides.
     */
    public static Mode detect() {
      String env = System.getenv("JPIR_PROGRESS");
      if (env != null && !env.isBlank() && !env.trim().equalsIgnoreCase("auto")) {
        return parse(env);
      }
      return isTerminal() ? BAR : QUIET;
    }
  }

  /** The longest gap between two lines in {@link Mode#LINES}. */
  public static final Duration LINE_INTERVAL = Duration.ofSeconds(5);

  private final String task;
  private final String unit;
  private final double unitSize;
  private final long total;
  private final ProgressBar bar;
  private final Consumer<String> lines;
  private final long start = System.nanoTime();
  private long done;
  private long lastLine = System.nanoTime();
  private String extra = "";
  private boolean closed;

  private Progress(String task, long total, String unit, double unitSize, ProgressBar bar,
      Consumer<String> lines) {
    this.task = task;
    this.total = total;
    this.unit = unit;
    this.unitSize = unitSize;
    this.bar = bar;
    this.lines = lines;
  }

  /**
   * Starts showing {@code task}: {@code total} steps, shown in {@code unit}s of {@code unitSize}
   * steps (e.g. "MiB", 1048576 for bytes), on {@code out} in {@code mode}.
   *
   * @throws IllegalArgumentException when total is negative or unitSize is not positive
   */
  public static Progress start(String task, long total, String unit, long unitSize, Mode mode,
      PrintStream out) {
    if (mode == Mode.BAR) {
      return start(task, total, unit, unitSize, mode, new ConsoleProgressBarConsumer(out),
          null);
    }
    return start(task, total, unit, unitSize, mode, null, out::println);
  }

  /**
   * As {@link #start(String, long, String, long, Mode, PrintStream)}, drawing the bar through
   * {@code barConsumer} (rendered lines) and printing {@link Mode#LINES} to {@code lineOut}
   * (tests).
   */
  static Progress start(String task, long total, String unit, long unitSize, Mode mode,
      ProgressBarConsumer barConsumer, Consumer<String> lineOut) {
    if (total < 0) {
      throw new IllegalArgumentException("progress total " + total + " is negative");
    }
    if (unitSize < 1) {
      throw new IllegalArgumentException("progress unit size " + unitSize + " is not positive");
    }
    ProgressBar bar = null;
    if (mode == Mode.BAR) {
      bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
          .setUnit(" " + unit, unitSize).setStyle(ProgressBarStyle.ASCII).showSpeed()
          .setSpeedUnit(ChronoUnit.SECONDS).setUpdateIntervalMillis(500)
          .setConsumer(barConsumer).build();
    }
    return new Progress(task, total, unit, unitSize, bar,
        mode == Mode.LINES ? lineOut : null);
  }

  /** A bar drawn through {@code rendered} (each redraw one string), for tests. */
  static ProgressBarConsumer rendering(Consumer<String> rendered) {
    return new DelegatingProgressBarConsumer(rendered, 120);
  }

  /** Sets the steps done so far (clamped to [0, total]); shows it per the mode's pace. */
  public synchronized void stepTo(long steps) {
    done = Math.max(0, Math.min(total, steps));
    if (bar != null) {
      bar.stepTo(done);
    }
    if (lines != null && System.nanoTime() - lastLine >= LINE_INTERVAL.toNanos()) {
      lines.accept(line());
      lastLine = System.nanoTime();
    }
  }

  /** Adds {@code steps} to the steps done. */
  public synchronized void stepBy(long steps) {
    stepTo(done + steps);
  }

  /** A short note shown after the figures (e.g. a rate in other units); never a secret. */
  public synchronized void note(String message) {
    extra = message == null ? "" : message;
    if (bar != null) {
      bar.setExtraMessage(extra.isEmpty() ? "" : " " + extra);
    }
  }

  /** Steps done so far. */
  public synchronized long done() {
    return done;
  }

  /** The line {@link Mode#LINES} prints: done of total, percentage, rate, time left, note. */
  synchronized String line() {
    double s = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
    double rate = done / s;
    String left = done == 0 ? "?" : String.format(Locale.ROOT, "%.0f s",
        (total - done) / Math.max(rate, 1e-12));
    return String.format(Locale.ROOT, "%s: %s / %s %s (%.0f%%), %.2f %s/s, %s left%s", task,
        fmt(done / unitSize), fmt(total / unitSize), unit, total == 0 ? 100.0
            : 100.0 * done / total, rate / unitSize, unit, left, extra.isEmpty() ? ""
            : "; " + extra);
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }

  /** Shows the final state (once) and releases the bar. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (bar != null) {
      bar.close();
    }
    if (lines != null) {
      lines.accept(line());
    }
  }

  /**
   * Whether standard output is an interactive terminal: {@code System.console()} is non-null
   * and, on Java 22 and later (where a console exists also when redirected), {@code
   * Console.isTerminal()} says so.
   */
  static boolean isTerminal() {
    Console c = System.console();
    if (c == null) {
      return false;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(c);
    } catch (ReflectiveOperationException e) {
      return true; // Java 17-21: a console exists only on a terminal
    }
  }
}
