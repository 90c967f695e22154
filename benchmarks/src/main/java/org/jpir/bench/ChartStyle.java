package org.jpir.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.text.DecimalFormat;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.DefaultDrawingSupplier;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.AbstractXYItemRenderer;

/**
 * The look shared by the benchmarks' charts: white background, light grid, and series colours
 * from the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies),
 * yellow left out, which does not read on white.
 */
final class ChartStyle {
  /** Series colours, in order; the series after the last one start again at the first. */
  static final Color[] PALETTE = {new Color(0x0072B2), new Color(0xD55E00),
      new Color(0x009E73), new Color(0xCC79A7), new Color(0xE69F00), new Color(0x56B4E9),
      Color.BLACK, Color.GRAY};

  private ChartStyle() {}

  /**
   * A base-2 log axis over [lo, hi] (both positive) with ticks at powers of 2, or at half or
   * quarter powers when the range spans less than 16x or 4x.
   */
  static LogAxis log2Axis(String label, double lo, double hi) {
    LogAxis y = new LogAxis(label + " (log scale)");
    y.setBase(2);
    y.setRange(lo, hi);
    double octaves = Math.log(hi / lo) / Math.log(2);
    y.setTickUnit(new NumberTickUnit(octaves >= 4 ? 1 : octaves >= 2 ? 0.5 : 0.25));
    y.setNumberFormatOverride(new DecimalFormat("0.##"));
    return y;
  }

  /** Applies the look to {@code chart}, whose plot draws with {@code renderer}. */
  static void apply(JFreeChart chart, XYPlot plot, AbstractXYItemRenderer renderer) {
    plot.setDrawingSupplier(new DefaultDrawingSupplier(PALETTE,
        DefaultDrawingSupplier.DEFAULT_FILL_PAINT_SEQUENCE,
        DefaultDrawingSupplier.DEFAULT_OUTLINE_PAINT_SEQUENCE,
        DefaultDrawingSupplier.DEFAULT_STROKE_SEQUENCE,
        DefaultDrawingSupplier.DEFAULT_OUTLINE_STROKE_SEQUENCE,
        DefaultDrawingSupplier.DEFAULT_SHAPE_SEQUENCE));
    renderer.setDefaultStroke(new BasicStroke(2f));
    renderer.setAutoPopulateSeriesStroke(false);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    chart.setBackgroundPaint(Color.WHITE);
  }
}
