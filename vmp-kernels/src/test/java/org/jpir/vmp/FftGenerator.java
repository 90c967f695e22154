package org.jpir.vmp;

import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code R4Passes} (package {@code org.jpir.vmp}, source root {@code src/main/panama}):
 * the radix-4 passes (two radix-2 levels per pass) of the forward and inverse negacyclic FFT at
 * vector widths of 8, 4 and 2 doubles, from one template per direction. A pass over {@code
 * count} nodes of {@code size} values (node k at {@code buf[ro + (k0+k)*size ..]} and {@code
 * buf[io + ...]}, quarters q = size/4) takes its six twiddles from {@code tw[t0 + k*R4_ENTRY ..]}; each loop trip handles L butterflies per
 * quarter. Nodes of one or two trips (q = L or 2L) run in a loop of their own whose node offset
 * is {@code (k0 + k)} times a constant, with both trips written out: C2 then hoists the range
 * checks out of the loop, where the general loop pays them per node (measured on Zen 5: the
 * 512-bit pass over nodes of 32 took 1.5x as long; on Zen 3 a two-trip loop cost 40% more at
 * quarters of 8). Each of the three loops is a method of its own (the public entry only
 * dispatches): JDK 17's C1 gave up on the 2,200-byte single method ("out of virtual registers in
 * linear scan") and left it in tier-2 code, which never reached C2 and boxed every vector.
 * {@code GeneratedKernelsTest} fails when the committed file differs from this
 * output and rewrites it with {@code -Djpir.regenerate=true}.
 */
public final class FftGenerator {
  private FftGenerator() {}

  /** The generated class. */
  static final String CLASS = "R4Passes";

  /** Vector widths in doubles, widest first. */
  static final List<Integer> LANES = List.of(8, 4, 2);

  /** The file of the generated class under the module directory. */
  static Path file(Path module) {
    return MacGenerator.file(module, CLASS);
  }

  // the butterflies of one trip at j (p1..p3 the other quarters), species S
  private static final String FWD = """
      int p1 = j + q;
      int p2 = p1 + q;
      int p3 = p2 + q;
      DoubleVector a0r = DoubleVector.fromArray(S, buf, ro + j);
      DoubleVector a0i = DoubleVector.fromArray(S, buf, io + j);
      DoubleVector a1r = DoubleVector.fromArray(S, buf, ro + p1);
      DoubleVector a1i = DoubleVector.fromArray(S, buf, io + p1);
      DoubleVector a2r = DoubleVector.fromArray(S, buf, ro + p2);
      DoubleVector a2i = DoubleVector.fromArray(S, buf, io + p2);
      DoubleVector a3r = DoubleVector.fromArray(S, buf, ro + p3);
      DoubleVector a3i = DoubleVector.fromArray(S, buf, io + p3);
      // level 1: (a0, a2) and (a1, a3) with s
      DoubleVector t2r = a2r.fma(c, a2i.mul(ns));
      DoubleVector t2i = a2r.fma(s, a2i.mul(c));
      DoubleVector t3r = a3r.fma(c, a3i.mul(ns));
      DoubleVector t3i = a3r.fma(s, a3i.mul(c));
      DoubleVector x0r = a0r.add(t2r);
      DoubleVector x0i = a0i.add(t2i);
      DoubleVector y0r = a0r.sub(t2r);
      DoubleVector y0i = a0i.sub(t2i);
      DoubleVector x1r = a1r.add(t3r);
      DoubleVector x1i = a1i.add(t3i);
      DoubleVector y1r = a1r.sub(t3r);
      DoubleVector y1i = a1i.sub(t3i);
      // level 2: (x0, x1) with s0, (y0, y1) with i s0
      DoubleVector ur = x1r.fma(c0, x1i.mul(ns0));
      DoubleVector ui = x1r.fma(s0, x1i.mul(c0));
      DoubleVector wr = y1r.fma(c0, y1i.mul(ns0));
      DoubleVector wi = y1r.fma(s0, y1i.mul(c0));
      x0r.add(ur).intoArray(buf, ro + j);
      x0i.add(ui).intoArray(buf, io + j);
      x0r.sub(ur).intoArray(buf, ro + p1);
      x0i.sub(ui).intoArray(buf, io + p1);
      // y0 + i w = (y0r - wi) + i (y0i + wr)
      y0r.sub(wi).intoArray(buf, ro + p2);
      y0i.add(wr).intoArray(buf, io + p2);
      y0r.add(wi).intoArray(buf, ro + p3);
      y0i.sub(wr).intoArray(buf, io + p3);
      """;

  private static final String INV = """
      int p1 = j + q;
      int p2 = p1 + q;
      int p3 = p2 + q;
      DoubleVector o0r = DoubleVector.fromArray(S, buf, ro + j);
      DoubleVector o0i = DoubleVector.fromArray(S, buf, io + j);
      DoubleVector o1r = DoubleVector.fromArray(S, buf, ro + p1);
      DoubleVector o1i = DoubleVector.fromArray(S, buf, io + p1);
      DoubleVector o2r = DoubleVector.fromArray(S, buf, ro + p2);
      DoubleVector o2i = DoubleVector.fromArray(S, buf, io + p2);
      DoubleVector o3r = DoubleVector.fromArray(S, buf, ro + p3);
      DoubleVector o3i = DoubleVector.fromArray(S, buf, io + p3);
      // left child with s0: x0 = o0 + o1, x1 = (o0 - o1) conj(s0)
      DoubleVector x0r = o0r.add(o1r);
      DoubleVector x0i = o0i.add(o1i);
      DoubleVector dr = o0r.sub(o1r);
      DoubleVector di = o0i.sub(o1i);
      DoubleVector x1r = dr.fma(c0, di.mul(s0));
      DoubleVector x1i = di.fma(c0, dr.mul(ns0));
      // right child with i s0: y1 = (o2 - o3) conj(i s0) = (-i (o2 - o3)) conj(s0)
      DoubleVector y0r = o2r.add(o3r);
      DoubleVector y0i = o2i.add(o3i);
      DoubleVector er = o2i.sub(o3i); // -i d = (d_i, -d_r)
      DoubleVector ei = o3r.sub(o2r);
      DoubleVector y1r = er.fma(c0, ei.mul(s0));
      DoubleVector y1i = ei.fma(c0, er.mul(ns0));
      // parent with s
      x0r.add(y0r).intoArray(buf, ro + j);
      x0i.add(y0i).intoArray(buf, io + j);
      x1r.add(y1r).intoArray(buf, ro + p1);
      x1i.add(y1i).intoArray(buf, io + p1);
      DoubleVector fr = x0r.sub(y0r);
      DoubleVector fi = x0i.sub(y0i);
      fr.fma(c, fi.mul(s)).intoArray(buf, ro + p2);
      fi.fma(c, fr.mul(ns)).intoArray(buf, io + p2);
      DoubleVector gr = x1r.sub(y1r);
      DoubleVector gi = x1i.sub(y1i);
      gr.fma(c, gi.mul(s)).intoArray(buf, ro + p3);
      gi.fma(c, gr.mul(ns)).intoArray(buf, io + p3);
      """;

  /** The source text of {@code R4Passes}. */
  static String source() {
    StringBuilder b = new StringBuilder();
    b.append(MacGenerator.header("FftGenerator", false));
    b.append("/**\n * The radix-4 passes of the negacyclic FFT ({@link FftKernel#fwdR4}, {@link"
        + " FftKernel#invR4}) on\n * vectors of 8, 4 and 2 doubles (layouts in {@code"
        + " FftGenerator}).\n */\n");
    b.append("final class ").append(CLASS).append(" {\n");
    for (int lanes : LANES) {
      b.append("  private static final VectorSpecies<Double> S").append(64 * lanes)
          .append(" = DoubleVector.SPECIES_").append(64 * lanes).append(";\n");
    }
    b.append("\n  private ").append(CLASS).append("() {}\n");
    for (boolean fwd : new boolean[] {true, false}) {
      for (int lanes : LANES) {
        b.append('\n');
        method(b, fwd, lanes);
      }
    }
    b.append("}\n");
    return b.toString();
  }

  private static void method(StringBuilder b, boolean fwd, int lanes) {
    String name = (fwd ? "fwd" : "inv") + (64 * lanes);
    String sp = "S" + (64 * lanes);
    String params = "(double[] buf, int ro, int io, int size, int k0, int count,\n"
        + "      double[] tw, int t0) {\n";
    b.append("  /** ").append(fwd ? "Forward" : "Inverse (up to the factor 4)")
        .append(" radix-4 pass, ").append(lanes).append(" butterflies per vector; quarters a"
            + " multiple of ").append(lanes).append(". */\n");
    b.append("  static void ").append(name).append(params);
    b.append("    int q = size >> 2;\n");
    for (int trips = 1; trips <= 2; trips++) {
      b.append("    if (q == ").append(lanes * trips).append(") {\n");
      b.append("      ").append(name).append("Nodes").append(4 * lanes * trips)
          .append("(buf, ro, io, size, k0, count, tw, t0);\n");
      b.append("      return;\n");
      b.append("    }\n");
    }
    b.append("    ").append(name).append("Loop(buf, ro, io, size, k0, count, tw, t0);\n");
    b.append("  }\n");
    String body = (fwd ? FWD : INV).replace("(S, ", "(" + sp + ", ");
    // nodes of one or two trips: their own loop, node index times a constant
    for (int trips = 1; trips <= 2; trips++) {
      int nodeSize = 4 * lanes * trips;
      b.append("\n  // nodes of ").append(nodeSize).append(": ")
          .append(trips == 1 ? "one trip" : "both trips written out")
          .append(", node offset a constant multiple of k\n");
      b.append("  private static void ").append(name).append("Nodes").append(nodeSize)
          .append(params);
      b.append("    int q = ").append(lanes * trips).append(";\n");
      loopHead(b, sp, "    ");
      b.append("      int a = (k0 + k) * ").append(nodeSize).append(";\n");
      for (int trip = 0; trip < trips; trip++) {
        b.append("      {\n");
        b.append("        int j = a").append(trip == 0 ? "" : " + " + lanes).append(";\n");
        indent(b, body, "        ");
        b.append("      }\n");
      }
      b.append("    }\n");
      b.append("  }\n");
    }
    b.append("\n  // nodes of three or more trips\n");
    b.append("  private static void ").append(name).append("Loop").append(params);
    b.append("    int q = size >> 2;\n");
    loopHead(b, sp, "    ");
    b.append("      int a = (k0 + k) * size;\n");
    b.append("      for (int j = a; j < a + q; j += ").append(lanes).append(") {\n");
    indent(b, body, "        ");
    b.append("      }\n");
    b.append("    }\n");
    b.append("  }\n");
  }

  // the loop over nodes and the broadcast of each node's six twiddles
  private static void loopHead(StringBuilder b, String sp, String pad) {
    b.append(pad).append("for (int k = 0; k < count; k++) {\n");
    b.append(pad).append("  int t = t0 + k * FftKernel.R4_ENTRY;\n");
    String[] tws = {"c", "s", "ns", "c0", "s0", "ns0"};
    for (int i = 0; i < tws.length; i++) {
      b.append(pad).append("  DoubleVector ").append(tws[i]).append(" = DoubleVector.broadcast(")
          .append(sp).append(", tw[t").append(i == 0 ? "" : " + " + i).append("]);\n");
    }
  }

  private static void indent(StringBuilder b, String body, String pad) {
    for (String line : body.split("\n")) {
      if (!line.isEmpty()) {
        b.append(pad).append(line).append('\n');
      }
    }
  }
}
