package org.jpir.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * Ratios (speedups) with their confidence intervals, grouped by category, on a log-scale y axis
 * with a reference line at 1, written as PNG by JFreeChart: series s of group g is drawn at x =
 * g + offset(s), its interval as a whisker.
 */
public final class RatioChart {
  private final String title;
  private final String yLabel;
  private final List<String> groups = new ArrayList<>();
  private final Map<String, Map<String, double[]>> series = new LinkedHashMap<>();

  /** An empty chart with this title and y-axis label. */
  public RatioChart(String title, String yLabel) {
    this.title = title;
    this.yLabel = yLabel;
  }

  /** Ratio of {@code seriesName} in {@code group}: value with interval [lo, hi], all positive. */
  public RatioChart add(String group, String seriesName, double value, double lo, double hi) {
    if (!(value > 0 && lo > 0 && hi > 0)) {
      throw new IllegalArgumentException("ratio chart values must be positive: " + group + " "
          + seriesName + " " + value + " [" + lo + ", " + hi + "]");
    }
    if (!groups.contains(group)) {
      groups.add(group);
    }
    series.computeIfAbsent(seriesName, k -> new LinkedHashMap<>())
        .put(group, new double[] {value, lo, hi});
    return this;
  }

  /** Number of groups so far. */
  public int size() {
    return groups.size();
  }

  /** Renders to {@code file} (PNG; wider with more groups). */
  public void write(Path file) throws IOException {
    YIntervalSeriesCollection data = new YIntervalSeriesCollection();
    double lo = 1;
    double hi = 1;
    int ns = series.size();
    int s = 0;
    for (Map.Entry<String, Map<String, double[]>> e : series.entrySet()) {
      YIntervalSeries ys = new YIntervalSeries(e.getKey());
      double offset = ns == 1 ? 0 : 0.6 * (s / (double) (ns - 1) - 0.5);
      for (Map.Entry<String, double[]> p : e.getValue().entrySet()) {
        double[] v = p.getValue();
        ys.add(groups.indexOf(p.getKey()) + offset, v[0], v[1], v[2]);
        lo = Math.min(lo, v[1]);
        hi = Math.max(hi, v[2]);
      }
      data.addSeries(ys);
      s++;
    }
    SymbolAxis x = new SymbolAxis(null, groups.toArray(new String[0]));
    x.setVerticalTickLabels(true);
    x.setGridBandsVisible(false);
    // 1, the reference line, always in view
    LogAxis y = ChartStyle.log2Axis(yLabel, lo / 1.15, hi * 1.15);
    XYErrorRenderer r = new XYErrorRenderer();
    r.setDefaultLinesVisible(false);
    r.setDefaultShapesVisible(true);
    r.setDrawXError(false);
    r.setErrorStroke(new BasicStroke(1.5f));
    XYPlot plot = new XYPlot(data, x, y, r);
    plot.setDomainGridlinesVisible(false);
    plot.addRangeMarker(new ValueMarker(1.0, Color.DARK_GRAY, new BasicStroke(1f)));
    JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    ChartStyle.apply(chart, plot, r);
    ChartUtils.saveChartAsPNG(file.toFile(), chart, Math.max(720, 80 + 40 * groups.size()), 620);
  }
}
