package org.jpir.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * A minimal headless grouped bar chart with confidence-interval whiskers, log-scale y axis, a
 * reference line at y = 1, written as PNG (for speedup ratios).
 */
public final class BarChart {
  private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728),
      new Color(0x2ca02c), new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b)};
  private final String title;
  private final String yLabel;
  private final List<String> groups = new ArrayList<>();
  private final Map<String, Map<String, double[]>> series = new LinkedHashMap<>();

  public BarChart(String title, String yLabel) {
    this.title = title;
    this.yLabel = yLabel;
  }

  /** Bar of {@code seriesName} in {@code group}: value with interval [lo, hi]. */
  public BarChart add(String group, String seriesName, double value, double lo, double hi) {
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

  /** Renders to {@code file}. */
  public void write(Path file) throws IOException {
    int left = 80;
    int right = 30;
    int top = 70;
    int bottom = 200;
    int groupW = Math.max(40, 18 * Math.max(1, series.size()) + 14);
    int w = Math.max(720, left + right + groupW * groups.size());
    int h = 620;
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    double ymin = 1;
    double ymax = 1;
    for (Map<String, double[]> s : series.values()) {
      for (double[] v : s.values()) {
        ymin = Math.min(ymin, Math.max(1e-6, Math.min(v[0], v[1])));
        ymax = Math.max(ymax, Math.max(v[0], v[2]));
      }
    }
    double lmin = Math.floor(Math.log10(ymin) * 2) / 2 - 0.1;
    double lmax = Math.ceil(Math.log10(ymax) * 2) / 2 + 0.1;
    int pw = w - left - right;
    int ph = h - top - bottom;
    java.util.function.DoubleUnaryOperator yOf =
        v -> top + ph - ph * (Math.log10(Math.max(v, 1e-6)) - lmin) / (lmax - lmin);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(title, left, 25);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    g.drawRect(left, top, pw, ph);
    for (double e = Math.ceil(lmin); e <= lmax; e += 1) {
      for (double m : new double[] {1, 2, 5}) {
        double v = m * Math.pow(10, e);
        double y = yOf.applyAsDouble(v);
        if (y < top || y > top + ph) {
          continue;
        }
        g.setColor(new Color(0xdddddd));
        g.drawLine(left + 1, (int) y, left + pw - 1, (int) y);
        g.setColor(Color.BLACK);
        g.drawString(String.format(Locale.ROOT, "%.3g", v), 10, (int) y + 4);
      }
    }
    g.setColor(Color.GRAY);
    g.setStroke(new BasicStroke(1.5f));
    int y1 = (int) yOf.applyAsDouble(1);
    g.drawLine(left, y1, left + pw, y1);
    g.setColor(Color.BLACK);
    g.drawString(yLabel + " (log scale)", left, top - 8);
    int si = 0;
    int barW = 16;
    for (Map.Entry<String, Map<String, double[]>> e : series.entrySet()) {
      Color c = COLORS[si % COLORS.length];
      for (int gi = 0; gi < groups.size(); gi++) {
        double[] v = e.getValue().get(groups.get(gi));
        if (v == null) {
          continue;
        }
        int x = left + gi * groupW + 7 + si * (barW + 2);
        int yv = (int) yOf.applyAsDouble(v[0]);
        g.setColor(c);
        g.fillRect(x, Math.min(yv, y1), barW, Math.abs(y1 - yv));
        g.setColor(Color.BLACK);
        int ylo = (int) yOf.applyAsDouble(v[1]);
        int yhi = (int) yOf.applyAsDouble(v[2]);
        g.drawLine(x + barW / 2, ylo, x + barW / 2, yhi);
        g.drawLine(x + 3, ylo, x + barW - 3, ylo);
        g.drawLine(x + 3, yhi, x + barW - 3, yhi);
      }
      g.setColor(c);
      g.fillRect(left + 10 + si * 215, 38, 14, 10);
      g.setColor(Color.BLACK);
      g.drawString(e.getKey(), left + 28 + si * 215, 48);
      si++;
    }
    AffineTransform orig = g.getTransform();
    for (int gi = 0; gi < groups.size(); gi++) {
      int x = left + gi * groupW + groupW / 2;
      g.setTransform(orig);
      g.translate(x, top + ph + 8);
      g.rotate(Math.PI / 4);
      g.drawString(groups.get(gi), 0, 0);
    }
    g.setTransform(orig);
    g.dispose();
    ImageIO.write(img, "png", file.toFile());
  }
}
