package org.jpir.spark.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.DefaultDrawingSupplier;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The cost model's plots (PNG, 900 x 560, JFreeChart, both axes base-10 logarithmic): predicted
 * against measured seconds of the checked points with the line of no error, and the grid's
 * predicted queries/s against the executor count, one line per database size and query kind.
 */
final class CostModelCharts {
  private CostModelCharts() {}

  /** Points (measured s, predicted s) per series name, plus the diagonal predicted = measured. */
  static void check(Map<String, double[][]> points, Path file) throws IOException {
    XYSeriesCollection data = new XYSeriesCollection();
    double[] box = series(points, false, data);
    double lo = Math.min(box[0], box[2]) / 1.3;
    double hi = Math.max(box[1], box[3]) * 1.3;
    XYSeries diag = new XYSeries("predicted = measured", true, true);
    diag.add(lo, lo);
    diag.add(hi, hi);
    data.addSeries(diag);
    XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(false, true);
    r.setSeriesLinesVisible(data.getSeriesCount() - 1, true);
    r.setSeriesShapesVisible(data.getSeriesCount() - 1, false);
    r.setSeriesPaint(data.getSeriesCount() - 1, Color.GRAY);
    write("Cost model: predicted against measured seconds per batch",
        axis("measured s per batch", lo, hi), axis("predicted s per batch", lo, hi), data, r,
        file);
  }

  /** Lines of (executors, queries/s) per series name; cells the memory plan refuses are absent. */
  static void grid(Map<String, double[][]> lines, Path file) throws IOException {
    XYSeriesCollection data = new XYSeriesCollection();
    double[] box = series(lines, true, data);
    write("Cost model: predicted queries/s (batches of 4; memory-refused cells left out)",
        axis("executors", box[0] / 1.2, box[1] * 1.2),
        axis("queries/s", box[2] / 1.3, box[3] * 1.3), data,
        new XYLineAndShapeRenderer(true, true), file);
  }

  /**
   * Adds one series per non-empty entry of {@code points} to {@code data} (sorted by x when
   * {@code sorted}); returns {xmin, xmax, ymin, ymax} over all points.
   */
  private static double[] series(Map<String, double[][]> points, boolean sorted,
      XYSeriesCollection data) {
    double[] box = {Double.POSITIVE_INFINITY, 0, Double.POSITIVE_INFINITY, 0};
    for (Map.Entry<String, double[][]> e : points.entrySet()) {
      if (e.getValue().length == 0) {
        continue;
      }
      XYSeries s = new XYSeries(e.getKey(), sorted, true);
      for (double[] p : e.getValue()) {
        s.add(p[0], p[1]);
        box[0] = Math.min(box[0], p[0]);
        box[1] = Math.max(box[1], p[0]);
        box[2] = Math.min(box[2], p[1]);
        box[3] = Math.max(box[3], p[1]);
      }
      data.addSeries(s);
    }
    return box;
  }

  private static LogAxis axis(String label, double lo, double hi) {
    LogAxis a = new LogAxis(label + " (log scale)");
    a.setRange(lo, hi);
    a.setNumberFormatOverride(new DecimalFormat("0.###"));
    return a;
  }

  private static void write(String title, LogAxis x, LogAxis y, XYSeriesCollection data,
      XYLineAndShapeRenderer r, Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    XYPlot plot = new XYPlot(data, x, y, r);
    // Okabe-Ito colours (no yellow, which does not read on white)
    plot.setDrawingSupplier(new DefaultDrawingSupplier(new Color[] {new Color(0x0072B2),
        new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7), new Color(0xE69F00),
        new Color(0x56B4E9), Color.BLACK, Color.GRAY},
        DefaultDrawingSupplier.DEFAULT_FILL_PAINT_SEQUENCE,
        DefaultDrawingSupplier.DEFAULT_OUTLINE_PAINT_SEQUENCE,
        DefaultDrawingSupplier.DEFAULT_STROKE_SEQUENCE,
        DefaultDrawingSupplier.DEFAULT_OUTLINE_STROKE_SEQUENCE,
        DefaultDrawingSupplier.DEFAULT_SHAPE_SEQUENCE));
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 560);
  }
}
