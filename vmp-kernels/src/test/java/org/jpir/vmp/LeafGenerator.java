package org.jpir.vmp;

import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code FftLeaves} (package {@code org.jpir.vmp}, source root {@code src/main/panama}):
 * the leaves of the negacyclic FFT ({@link FftKernel#fwdLeaf}, {@link FftKernel#fwdLeaf3} and
 * their inverses) from one template per level direction: a level at lane distance d pairs lane
 * l with lane {@code l ^ d}. Forward: {@code x = lo + W hi}, lo and hi the pairs' left and
 * right values spread over both lanes (shuffles {@code LO}, {@code HI}), two fused multiply-adds
 * per part with W's {@code re, im, -im} vectors from the table. Inverse: {@code d = [a + b, a -
 * b]} (or {@code [a + b, b - a]} from one swap of partners, {@code X}, where the table negates
 * W at the right value) with a sign vector, then {@code d W}.
 *
 * <ul>
 *   <li>256-bit, one node of 4 per vector ({@link FftKernel#LEAF_ENTRY}): levels A (d = 2,
 *       {@code W = [s, s, -s, -s]}) and B (d = 1). Nodes of 8 ({@link FftKernel#LEAF3_ENTRY}):
 *       the top level as one 4-lane butterfly of the node's halves with a broadcast twiddle, and
 *       each half as a node of 4, run to its end before the other starts, so that 16 registers
 *       hold one half.
 *   <li>512-bit, one node of 8 per vector ({@link FftKernel#LEAF3_WIDE_ENTRY}): levels 1, 2, 3
 *       (d = 4, 2, 1).
 * </ul>
 *
 * Straight-line code, one induction variable per loop (so that C2 hoists the range checks of
 * {@code buf} and {@code tw}): helpers taking vectors made JDK 17 box them. {@code
 * GeneratedKernelsTest} fails when the committed file differs from this output and rewrites it
 * with {@code -Djpir.regenerate=true}.
 */
public final class LeafGenerator {
  private LeafGenerator() {}

  /** The generated class. */
  static final String CLASS = "FftLeaves";

  /** The file of the generated class under the module directory. */
  static Path file(Path module) {
    return MacGenerator.file(module, CLASS);
  }

  /**
   * One level: name suffix of its constants, species, lanes, lane distance, and the offsets of
   * W's re, im and -im vectors in the node's table entry.
   */
  private record Level(String tag, String sp, int lanes, int dist, int wr, int wi, int nwi) {
    boolean wide() {
      return lanes == 8;
    }
  }

  private static final Level A = new Level("_A", "S256", 4, 2, 0, 4, 16);
  private static final Level B = new Level("_B", "S256", 4, 1, 8, 12, 20);
  private static final List<Level> WIDE = List.of(new Level("1", "S512", 8, 4, 0, 8, 16),
      new Level("2", "S512", 8, 2, 24, 32, 40), new Level("3", "S512", 8, 1, 48, 56, 64));

  // the top level of a narrow node of 8: (a, b) -> (a + wb, a - wb) on its halves
  private static final String FWD_TOP = """
      // top level: (a, b) -> (a + wb, a - wb) on the halves, w = c + i s
      final DoubleVector c = DoubleVector.broadcast(S256, tw[t]);
      final DoubleVector s = DoubleVector.broadcast(S256, tw[t + 1]);
      final DoubleVector ns = DoubleVector.broadcast(S256, tw[t + 2]);
      final DoubleVector b0r = DoubleVector.fromArray(S256, buf, ro + p + 4);
      final DoubleVector b0i = DoubleVector.fromArray(S256, buf, io + p + 4);
      final DoubleVector tr = b0r.fma(c, b0i.mul(ns));
      final DoubleVector ti = b0r.fma(s, b0i.mul(c));
      final DoubleVector a0r = DoubleVector.fromArray(S256, buf, ro + p);
      final DoubleVector a0i = DoubleVector.fromArray(S256, buf, io + p);
      final DoubleVector b1r = a0r.sub(tr);
      final DoubleVector b1i = a0i.sub(ti);
      final DoubleVector a1r = a0r.add(tr);
      final DoubleVector a1i = a0i.add(ti);
      """;

  private static final String INV_TOP = """
      // top level: (a, b) -> (a + b, (a - b) conj(w)) on the halves
      final DoubleVector c = DoubleVector.broadcast(S256, tw[t]);
      final DoubleVector s = DoubleVector.broadcast(S256, tw[t + 1]);
      final DoubleVector ns = DoubleVector.broadcast(S256, tw[t + 2]);
      final DoubleVector dr = a2r.sub(b2r);
      final DoubleVector di = a2i.sub(b2i);
      a2r.add(b2r).intoArray(buf, ro + p);
      a2i.add(b2i).intoArray(buf, io + p);
      dr.fma(c, di.mul(s)).intoArray(buf, ro + p + 4);
      di.fma(c, dr.mul(ns)).intoArray(buf, io + p + 4);
      """;

  /** The source text of {@code FftLeaves}. */
  static String source() {
    StringBuilder b = new StringBuilder();
    b.append(MacGenerator.header("LeafGenerator", true));
    b.append("/**\n * The leaves of the negacyclic FFT ({@link FftKernel#fwdLeaf}, {@link"
        + " FftKernel#fwdLeaf3} and\n * their inverses) on 256-bit vectors (a node of 4 per"
        + " vector) and 512-bit vectors (a node of 8\n * per vector); layouts in {@code"
        + " LeafGenerator}.\n */\n");
    b.append("final class ").append(CLASS).append(" {\n");
    b.append("  private static final VectorSpecies<Double> S256 = DoubleVector.SPECIES_256;\n");
    b.append("  private static final VectorSpecies<Double> S512 = DoubleVector.SPECIES_512;\n");
    b.append("  // per level: LO, HI spread each pair's left and right value, X swaps partners,"
        + " SIGN is -1\n  // at the right value\n");
    constants(b, A);
    constants(b, B);
    for (Level lv : WIDE) {
      constants(b, lv);
    }
    b.append("\n  private ").append(CLASS).append("() {}\n");

    node(b, "fwd4", "{@link FftKernel#fwdLeaf}: a node of 4 per 256-bit vector, levels A, B.",
        4, "LEAF_ENTRY", true, List.of(A, B));
    node(b, "inv4", "{@link FftKernel#invLeaf}: a node of 4 per 256-bit vector, levels B, A.",
        4, "LEAF_ENTRY", false, List.of(B, A));

    b.append("\n  /**\n   * {@link FftKernel#fwdLeaf3} ({@link FftKernel#LEAF3_ENTRY}): the top"
        + " level on the halves,\n   * then each half as in {@link #fwd4}.\n   */\n");
    head(b, "fwd8", 8, "LEAF3_ENTRY");
    halves(b);
    indent(b, FWD_TOP);
    b.append("      // first half\n");
    levels(b, true, List.of(A, B), "a", 1, "ta", "p");
    b.append("      // second half\n");
    levels(b, true, List.of(A, B), "b", 1, "tb", "p + 4");
    tail(b);

    b.append("\n  /**\n   * {@link FftKernel#invLeaf3} ({@link FftKernel#LEAF3_ENTRY}): each half"
        + " as in {@link #inv4},\n   * then the top level.\n   */\n");
    head(b, "inv8", 8, "LEAF3_ENTRY");
    halves(b);
    b.append("      // first half\n");
    load(b, "S256", "a0", "p");
    levels(b, false, List.of(B, A), "a", 0, "ta", null);
    b.append("      // second half\n");
    load(b, "S256", "b0", "p + 4");
    levels(b, false, List.of(B, A), "b", 0, "tb", null);
    indent(b, INV_TOP);
    tail(b);

    node(b, "fwd8Wide", "{@link FftKernel#fwdLeaf3} ({@link FftKernel#LEAF3_WIDE_ENTRY}): a node"
        + " of 8 per 512-bit\n   * vector, levels 1, 2, 3.", 8, "LEAF3_WIDE_ENTRY", true, WIDE);
    node(b, "inv8Wide", "{@link FftKernel#invLeaf3} ({@link FftKernel#LEAF3_WIDE_ENTRY}): a node"
        + " of 8 per 512-bit\n   * vector, levels 3, 2, 1.", 8, "LEAF3_WIDE_ENTRY", false,
        List.of(WIDE.get(2), WIDE.get(1), WIDE.get(0)));
    b.append("}\n");
    return b.toString();
  }

  // LO, HI, SIGN (and X on the wide levels) of a level
  private static void constants(StringBuilder b, Level lv) {
    int[] lo = new int[lv.lanes()];
    int[] hi = new int[lv.lanes()];
    int[] x = new int[lv.lanes()];
    double[] sign = new double[lv.lanes()];
    for (int l = 0; l < lv.lanes(); l++) {
      lo[l] = l & ~lv.dist();
      hi[l] = l | lv.dist();
      x[l] = l ^ lv.dist();
      sign[l] = (l & lv.dist()) == 0 ? 1 : -1;
    }
    shuffle(b, "LO" + lv.tag(), lv.sp(), lo);
    shuffle(b, "HI" + lv.tag(), lv.sp(), hi);
    if (lv.wide()) {
      shuffle(b, "X" + lv.tag(), lv.sp(), x);
    }
    b.append("  private static final DoubleVector SIGN").append(lv.tag())
        .append(" =\n      DoubleVector.fromArray(").append(lv.sp()).append(", new double[] {");
    for (int l = 0; l < sign.length; l++) {
      b.append(l == 0 ? "" : ", ").append((int) sign[l]);
    }
    b.append("}, 0);\n");
  }

  // a shuffle constant with the given lanes
  private static void shuffle(StringBuilder b, String name, String sp, int[] lanes) {
    b.append("  private static final VectorShuffle<Double> ").append(name).append(" =\n")
        .append("      VectorShuffle.fromValues(").append(sp);
    for (int l : lanes) {
      b.append(", ").append(l);
    }
    b.append(");\n");
  }

  // a leaf of one node per vector: its levels in order, in place
  private static void node(StringBuilder b, String name, String doc, int nodeSize, String entry,
      boolean fwd, List<Level> lvs) {
    b.append(doc.contains("\n") ? "\n  /**\n   * " + doc + "\n   */\n"
        : "\n  /** " + doc + " */\n");
    head(b, name, nodeSize, entry);
    load(b, lvs.get(0).sp(), "v0", "p");
    levels(b, fwd, lvs, "v", 0, "t", "p");
    tail(b);
  }

  // the levels in order on value v + from, their results v + (from + 1) ..., the last one
  // stored at buf[ro/io + store] (declared when store is null)
  private static void levels(StringBuilder b, boolean fwd, List<Level> lvs, String v, int from,
      String t, String store) {
    for (int k = 0; k < lvs.size(); k++) {
      String in = v + (from + k);
      String out = v + (from + k + 1);
      String at = k == lvs.size() - 1 ? store : null;
      if (fwd) {
        fwdLevel(b, lvs.get(k), in, out, t, at);
      } else {
        invLevel(b, lvs.get(k), in, out, t, at);
      }
    }
  }

  // the loop over nodes: node offset and table entry linear in the one induction variable
  private static void head(StringBuilder b, String name, int nodeSize, String entry) {
    b.append("  static void ").append(name).append("(double[] buf, int ro, int io, int k0, int"
        + " count, double[] tw,\n      int t0) {\n");
    b.append("    for (int i = 0; i < count; i++) {\n");
    b.append("      final int p = (k0 + i) * ").append(nodeSize).append(";\n");
    b.append("      final int t = t0 + i * FftKernel.").append(entry).append(";\n");
  }

  // the halves' entries of a narrow node of 8
  private static void halves(StringBuilder b) {
    b.append("      final int ta = t + 4;\n");
    b.append("      final int tb = ta + FftKernel.LEAF_ENTRY;\n");
  }

  // closes the loop over nodes and the method
  private static void tail(StringBuilder b) {
    b.append("    }\n  }\n");
  }

  // value v (v + "r", v + "i") loaded from buf at ro/io + at
  private static void load(StringBuilder b, String sp, String v, String at) {
    b.append("      final DoubleVector ").append(v).append("r = DoubleVector.fromArray(")
        .append(sp).append(", buf, ro + ").append(at).append(");\n");
    b.append("      final DoubleVector ").append(v).append("i = DoubleVector.fromArray(")
        .append(sp).append(", buf, io + ").append(at).append(");\n");
  }

  // forward level on value in: out = lo + W hi, declared, or stored at buf[ro/io + store]
  private static void fwdLevel(StringBuilder b, Level lv, String in, String out, String t,
      String store) {
    b.append("      // level ").append(lv.tag().replace("_", "")).append(", pairs ")
        .append(lv.dist())
        .append(" apart: x = lo + W hi\n");
    String[] parts = {"r", "i"};
    for (String half : new String[] {"l", "h"}) {
      for (String part : parts) {
        b.append("      final DoubleVector ").append(out).append(half).append(part).append(" = ")
            .append(in).append(part).append(".rearrange(").append(half.equals("l") ? "LO" : "HI")
            .append(lv.tag()).append(");\n");
      }
    }
    // re = h_r W_r + (h_i (-W_i) + lo_r), im = h_r W_i + (h_i W_r + lo_i)
    int[][] w = {{lv.wr(), lv.nwi()}, {lv.wi(), lv.wr()}};
    for (int k = 0; k < 2; k++) {
      String value = out + "hr.fma(" + tw(lv, t, w[k][0]) + ",\n          " + out + "hi.fma("
          + tw(lv, t, w[k][1]) + ", " + out + "l" + parts[k] + "))";
      result(b, value, out + parts[k], store, k == 0 ? "ro" : "io");
    }
  }

  // inverse level on value in: out = d W, d = [a + b, a - b] (narrow) or [a + b, b - a] (wide)
  private static void invLevel(StringBuilder b, Level lv, String in, String out, String t,
      String store) {
    b.append("      // level ").append(lv.tag().replace("_", "")).append(", pairs ")
        .append(lv.dist())
        .append(" apart: d W, d = [a + b, ").append(lv.wide() ? "b - a" : "a - b").append("]\n");
    String[] parts = {"r", "i"};
    for (String part : parts) {
      String v = in + part;
      b.append("      final DoubleVector ").append(out).append("d").append(part).append(" = ")
          .append(lv.wide() ? v + ".rearrange(X" + lv.tag() + ").fma(SIGN" + lv.tag() + ", " + v
              + ")" : v + ".rearrange(HI" + lv.tag() + ").fma(SIGN" + lv.tag() + ", " + v
              + ".rearrange(LO" + lv.tag() + "))").append(";\n");
    }
    // re = d_r W_r + d_i (-W_i), im = d_r W_i + d_i W_r
    int[][] w = {{lv.wr(), lv.nwi()}, {lv.wi(), lv.wr()}};
    for (int k = 0; k < 2; k++) {
      String value = out + "dr.fma(" + tw(lv, t, w[k][0]) + ",\n          " + out + "di.mul("
          + tw(lv, t, w[k][1]) + "))";
      result(b, value, out + parts[k], store, k == 0 ? "ro" : "io");
    }
  }

  // value declared as name, or stored at buf[base + store]
  private static void result(StringBuilder b, String value, String name, String store,
      String base) {
    if (store == null) {
      b.append("      final DoubleVector ").append(name).append(" = ").append(value)
          .append(";\n");
    } else {
      b.append("      ").append(value).append("\n          .intoArray(buf, ").append(base)
          .append(" + ").append(store).append(");\n");
    }
  }

  // the table vector at tw[t + off]
  private static String tw(Level lv, String t, int off) {
    return "DoubleVector.fromArray(" + lv.sp() + ", tw, " + t + (off == 0 ? "" : " + " + off)
        + ")";
  }

  // body's lines inside the loop over nodes
  private static void indent(StringBuilder b, String body) {
    for (String line : body.split("\n")) {
      if (!line.isEmpty()) {
        b.append("      ").append(line).append('\n');
      }
    }
  }
}
