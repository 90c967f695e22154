package org.jpir.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
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

  /** Renders to {@code file} (PNG, 900x560). */
  public void write(Path file) throws IOException {
    XYSeriesCollection data = new XYSeriesCollection();
    for (XYSeries s : series.values()) {
      data.addSeries(s);
    }
    JFreeChart chart = ChartFactory.createXYLineChart(title, xLabel, yLabel, data,
        PlotOrientation.VERTICAL, true, false, false);
    XYPlot plot = chart.getXYPlot();
    plot.setRenderer(new XYLineAndShapeRenderer(true, true));
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 560);
  }
}
