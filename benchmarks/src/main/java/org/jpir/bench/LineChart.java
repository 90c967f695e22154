package org.jpir.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/** A minimal headless line chart written as PNG (no plotting library is reachable here). */
public final class LineChart {
  private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728),
      new Color(0x2ca02c), new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b),
      new Color(0x17becf), new Color(0x7f7f7f)};
  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final Map<String, List<double[]>> series = new LinkedHashMap<>();

  public LineChart(String title, String xLabel, String yLabel) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  /** Adds point (x, y) to the named series. */
  public LineChart add(String name, double x, double y) {
    series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {x, y});
    return this;
  }

  /** Renders to {@code file} (PNG, 900x560). */
  public void write(Path file) throws IOException {
    int w = 900;
    int h = 560;
    int left = 80;
    int right = 300;
    int top = 50;
    int bottom = 60;
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    double xmin = Double.MAX_VALUE;
    double xmax = -Double.MAX_VALUE;
    double ymax = 0;
    for (List<double[]> pts : series.values()) {
      for (double[] p : pts) {
        xmin = Math.min(xmin, p[0]);
        xmax = Math.max(xmax, p[0]);
        ymax = Math.max(ymax, p[1]);
      }
    }
    if (xmax <= xmin) {
      xmax = xmin + 1;
    }
    ymax = ymax <= 0 ? 1 : ymax * 1.1;
    int pw = w - left - right;
    int ph = h - top - bottom;
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString(title, left, 30);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.drawRect(left, top, pw, ph);
    for (int i = 0; i <= 5; i++) {
      double yv = ymax * i / 5;
      int y = top + ph - (int) (ph * i / 5.0);
      g.setColor(new Color(0xdddddd));
      g.drawLine(left + 1, y, left + pw - 1, y);
      g.setColor(Color.BLACK);
      g.drawString(String.format(Locale.ROOT, "%.3g", yv), 10, y + 4);
      double xv = xmin + (xmax - xmin) * i / 5;
      int x = left + (int) (pw * i / 5.0);
      g.drawString(String.format(Locale.ROOT, "%.3g", xv), x - 10, top + ph + 18);
    }
    g.drawString(xLabel, left + pw / 2 - 40, h - 15);
    g.drawString(yLabel, 10, top - 10);
    int si = 0;
    for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
      Color c = COLORS[si % COLORS.length];
      g.setColor(c);
      g.setStroke(new BasicStroke(2f));
      int px = -1;
      int py = -1;
      for (double[] p : e.getValue()) {
        int x = left + (int) (pw * (p[0] - xmin) / (xmax - xmin));
        int y = top + ph - (int) (ph * p[1] / ymax);
        g.fillOval(x - 4, y - 4, 8, 8);
        if (px >= 0) {
          g.drawLine(px, py, x, y);
        }
        px = x;
        py = y;
      }
      g.fillRect(w - right + 15, top + 10 + 20 * si, 14, 4);
      g.setColor(Color.BLACK);
      g.drawString(e.getKey(), w - right + 35, top + 16 + 20 * si);
      si++;
    }
    g.dispose();
    ImageIO.write(img, "png", file.toFile());
  }
}
