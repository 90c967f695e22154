package org.jpir.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Named series of (x, y) points drawn as lines with markers, written as PNG by JFreeChart. */
public final class LineChart {
  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final Map<String, XYSeries> series = new LinkedHashMap<>();
  private boolean logY;
  private boolean integerX;

  /** An empty chart with these title and axis labels. */
  public LineChart(String title, String xLabel, String yLabel) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  /** Adds point (x, y) to the named series (points are drawn in x order). */
  public LineChart add(String name, double x, double y) {
    series.computeIfAbsent(name, k -> new XYSeries(k, true, true)).add(x, y);
    return this;
  }

  /** Draws the y axis on a log scale (every y must then be positive). */
  public LineChart logY() {
    logY = true;
    return this;
  }

  /** Puts x ticks on integers only (x is a count or an exponent). */
  public LineChart integerX() {
    integerX = true;
    return this;
  }

  /** Number of series so far. */
  public int size() {
    return series.size();
  }

  /** Renders to {@code file} (PNG, 900x560). */
  public void write(Path file) throws IOException {
    XYSeriesCollection data = new XYSeriesCollection();
    for (XYSeries s : series.values()) {
      data.addSeries(s);
    }
    NumberAxis x = new NumberAxis(xLabel);
    x.setAutoRangeIncludesZero(false);
    if (integerX) {
      x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    }
    ValueAxis y = new NumberAxis(yLabel);
    if (logY) {
      double lo = Double.POSITIVE_INFINITY;
      double hi = 0;
      for (XYSeries s : series.values()) {
        lo = Math.min(lo, s.getMinY());
        hi = Math.max(hi, s.getMaxY());
      }
      if (!(lo > 0)) {
        throw new IllegalStateException("a log axis needs positive values, got " + lo);
      }
      y = ChartStyle.log2Axis(yLabel, lo / 1.15, hi * 1.15);
    }
    XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
    XYPlot plot = new XYPlot(data, x, y, r);
    JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    ChartStyle.apply(chart, plot, r);
    ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 560);
  }
}
