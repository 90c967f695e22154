package org.jpir.vmp;

import java.util.Map;

/**
 * Writes the straight-line register-blocked kernels of the multi-column pass in the three-product
 * (Gauss) form of {@code VmpKernel.macGauss}: class {@code Gauss512} (package {@code
 * org.jpir.vmp}, source root {@code src/main/panama}), one method {@code g<V>x<C>} per block of
 * {@code V} database vectors x {@code C} matrix columns. The 256- and 128-bit bodies it can also
 * write ({@code CLASSES} lists which it writes) were load-bound on a Zen 4 (three matrix
 * operands per column, each feeding one multiply-add): those widths keep four products.
 *
 * <p>Layouts (from {@code VmpKernel}): vector q row r at {@code u_q[uOff + 8r]} = {@code [a0..3 |
 * b0..3]}; Gauss panel row r at {@code v[vOff + R*r]}, {@code R = 8C + 8*ceil(C/2)}: column x's
 * {@code [d-c | c+d]} at {@code 8x}, its {@code c} at {@code 8C + 4x}; state of (q, x): {@code
 * [K2 | K3]} at {@code st[gOff + q*ss + 8x]}, {@code K1} at {@code st[kOff + q*ss + 4x]}.
 *
 * <ul>
 *   <li>512 bits: {@code x_q = [a|b]} as loaded times {@code [d-c|c+d]} accumulates {@code
 *       [K2|K3]} in one vector per (q, x); {@code s_q = x_q + swap(x_q) = [a+b|a+b]} (one
 *       rearrange and one add per vector row) times the pair {@code [c_x|c_x+1]} accumulates
 *       {@code [K1_x|K1_x+1]}: {@code V*(C + ceil(C/2))} accumulators.
 *   <li>256 and 128 bits: {@code A = a}, {@code B = b}, {@code S = A + B} in 4/L vectors each;
 *       per (q, x, part) three accumulators {@code K2 += A(d-c)}, {@code K3 += B(c+d)}, {@code K1
 *       += Sc}.
 * </ul>
 *
 * Each accumulator lane is one FMA chain over the rows in order and {@code a + b} is one IEEE
 * addition (commutative), so every body is bitwise the reference {@code VmpKernel.macGauss}.
 * {@code GeneratedKernelsTest} fails when a committed file differs from this output.
 */
public final class GaussGenerator {
  private GaussGenerator() {}

  /** Class name -> {lanes, max vectors, max columns}. */
  static final Map<String, int[]> CLASSES = Map.of("Gauss512", new int[] {8, 3, 4});

  /**
   * The wide 512-bit bodies ({@code VmpKernel.macGaussWide}): these many vectors x 1 and 2
   * columns, 3 accumulators per vector at 2 columns (18 or 24 of the 32 registers).
   */
  static final int[] WIDE_VECTORS = {6, 8};

  /** The source text of class {@code name}. */
  static String source(String name) {
    int[] spec = CLASSES.get(name);
    int lanes = spec[0];
    StringBuilder b = new StringBuilder();
    b.append(MacGenerator.header("GaussGenerator", lanes == 8));
    b.append("/**\n * Three-product (Gauss) multi-column kernels on ").append(64 * lanes)
        .append("-bit vectors, {@code g<V>x<C>}: V database\n * vectors x C matrix columns of a"
            + " Gauss panel, states accumulated in place (layouts in\n * {@code GaussGenerator}"
            + " and {@code VmpKernel.macTile}).\n */\n");
    b.append("final class ").append(name).append(" {\n");
    b.append("  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_")
        .append(64 * lanes).append(";\n");
    if (lanes == 8) {
      b.append("  private static final VectorShuffle<Double> SWAP =\n"
          + "      VectorShuffle.fromValues(S, 4, 5, 6, 7, 0, 1, 2, 3);\n");
    }
    b.append("\n  private ").append(name).append("() {}\n");
    for (int v = 1; v <= spec[1]; v++) {
      for (int c = 1; c <= spec[2]; c++) {
        b.append('\n');
        if (lanes == 8) {
          method512(b, v, c);
        } else {
          methodNarrow(b, lanes, v, c);
        }
      }
    }
    if (lanes == 8) {
      for (int wv : WIDE_VECTORS) {
        for (int c = 1; c <= 2; c++) {
          b.append('\n');
          method512(b, wv, c);
        }
      }
    }
    b.append("}\n");
    return b.toString();
  }

  private static void header(StringBuilder b, int v, int c) {
    b.append("  /** ").append(v).append(" vector").append(v > 1 ? "s" : "").append(" x ")
        .append(c).append(" column").append(c > 1 ? "s" : "").append(". */\n");
    b.append("  static void g").append(v).append('x').append(c).append("(int rows, ");
    int arrays = Math.max(3, v);
    for (int q = 0; q < arrays; q++) {
      // four arrays per line where there are more than three
      boolean wrap = arrays > 3 && (q % 4 == 3 || q == arrays - 1);
      b.append("double[] u").append(q).append(wrap ? ",\n      " : ", ");
    }
    b.append(arrays > 3 ? "int uOff, " : "int uOff,\n      ")
        .append("double[] v, int vOff, double[] st, int gOff, int kOff, int ss) {\n");
  }

  private static void method512(StringBuilder b, int nv, int nc) {
    header(b, nv, nc);
    int pairs = (nc + 1) / 2;
    int row = VmpKernel.gaussRow(nc);
    for (int q = 0; q < nv; q++) {
      for (int x = 0; x < nc; x++) {
        b.append("    DoubleVector g").append(q).append(x)
            .append(" = DoubleVector.fromArray(S, st, gOff + ").append(q).append(" * ss + ")
            .append(8 * x).append(");\n");
      }
      for (int p = 0; p < pairs; p++) {
        b.append("    DoubleVector h").append(q).append(p)
            .append(" = DoubleVector.fromArray(S, st, kOff + ").append(q).append(" * ss + ")
            .append(8 * p).append(");\n");
      }
    }
    b.append("    for (int r = 0; r < rows; r++) {\n");
    b.append("      final int uo = uOff + 8 * r;\n");
    b.append("      final int vr = vOff + ").append(row).append(" * r;\n");
    for (int q = 0; q < nv; q++) {
      b.append("      final DoubleVector x").append(q).append(" = DoubleVector.fromArray(S, u")
          .append(q).append(", uo);\n");
      b.append("      final DoubleVector s").append(q).append(" = x").append(q).append(".add(x")
          .append(q).append(".rearrange(SWAP));\n");
    }
    b.append("      DoubleVector y;\n");
    for (int x = 0; x < nc; x++) {
      b.append("      y = DoubleVector.fromArray(S, v, vr + ").append(8 * x).append(");\n");
      for (int q = 0; q < nv; q++) {
        b.append("      g").append(q).append(x).append(" = x").append(q).append(".fma(y, g")
            .append(q).append(x).append(");\n");
      }
      if (x % 2 == 1 || x == nc - 1) {
        int p = x / 2;
        b.append("      y = DoubleVector.fromArray(S, v, vr + ").append(8 * nc + 8 * p)
            .append(");\n");
        for (int q = 0; q < nv; q++) {
          b.append("      h").append(q).append(p).append(" = s").append(q).append(".fma(y, h")
              .append(q).append(p).append(");\n");
        }
      }
    }
    b.append("    }\n");
    for (int q = 0; q < nv; q++) {
      for (int x = 0; x < nc; x++) {
        b.append("    g").append(q).append(x).append(".intoArray(st, gOff + ").append(q)
            .append(" * ss + ").append(8 * x).append(");\n");
      }
      for (int p = 0; p < pairs; p++) {
        b.append("    h").append(q).append(p).append(".intoArray(st, kOff + ").append(q)
            .append(" * ss + ").append(8 * p).append(");\n");
      }
    }
    b.append("  }\n");
  }

  // accumulator names: k<1|2|3>_<q><x><part>
  private static void methodNarrow(StringBuilder b, int lanes, int nv, int nc) {
    header(b, nv, nc);
    int parts = 4 / lanes;
    int row = VmpKernel.gaussRow(nc);
    for (int q = 0; q < nv; q++) {
      for (int x = 0; x < nc; x++) {
        for (int p = 0; p < parts; p++) {
          String id = "" + q + x + p;
          b.append("    DoubleVector k2_").append(id).append(" = DoubleVector.fromArray(S, st,"
              + " gOff + ").append(q).append(" * ss + ").append(8 * x + lanes * p)
              .append(");\n");
          b.append("    DoubleVector k3_").append(id).append(" = DoubleVector.fromArray(S, st,"
              + " gOff + ").append(q).append(" * ss + ").append(8 * x + 4 + lanes * p)
              .append(");\n");
          b.append("    DoubleVector k1_").append(id).append(" = DoubleVector.fromArray(S, st,"
              + " kOff + ").append(q).append(" * ss + ").append(4 * x + lanes * p)
              .append(");\n");
        }
      }
    }
    b.append("    for (int r = 0; r < rows; r++) {\n");
    b.append("      final int uo = uOff + 8 * r;\n");
    b.append("      final int vr = vOff + ").append(row).append(" * r;\n");
    for (int q = 0; q < nv; q++) {
      for (int p = 0; p < parts; p++) {
        String id = "" + q + p;
        b.append("      final DoubleVector a").append(id).append(" = DoubleVector.fromArray(S, u")
            .append(q).append(", uo + ").append(lanes * p).append(");\n");
        b.append("      final DoubleVector b").append(id).append(" = DoubleVector.fromArray(S, u")
            .append(q).append(", uo + ").append(4 + lanes * p).append(");\n");
        b.append("      final DoubleVector s").append(id).append(" = a").append(id).append(".add(b")
            .append(id).append(");\n");
      }
    }
    b.append("      DoubleVector y;\n");
    for (int x = 0; x < nc; x++) {
      for (int p = 0; p < parts; p++) {
        String[][] terms = {{"2", "a", String.valueOf(8 * x + lanes * p)},
            {"3", "b", String.valueOf(8 * x + 4 + lanes * p)},
            {"1", "s", String.valueOf(8 * nc + 4 * x + lanes * p)}};
        for (String[] t : terms) {
          b.append("      y = DoubleVector.fromArray(S, v, vr + ").append(t[2]).append(");\n");
          for (int q = 0; q < nv; q++) {
            String id = "" + q + x + p;
            b.append("      k").append(t[0]).append('_').append(id).append(" = ").append(t[1])
                .append(q).append(p).append(".fma(y, k").append(t[0]).append('_').append(id)
                .append(");\n");
          }
        }
      }
    }
    b.append("    }\n");
    for (int q = 0; q < nv; q++) {
      for (int x = 0; x < nc; x++) {
        for (int p = 0; p < parts; p++) {
          String id = "" + q + x + p;
          b.append("    k2_").append(id).append(".intoArray(st, gOff + ").append(q)
              .append(" * ss + ").append(8 * x + lanes * p).append(");\n");
          b.append("    k3_").append(id).append(".intoArray(st, gOff + ").append(q)
              .append(" * ss + ").append(8 * x + 4 + lanes * p).append(");\n");
          b.append("    k1_").append(id).append(".intoArray(st, kOff + ").append(q)
              .append(" * ss + ").append(4 * x + lanes * p).append(");\n");
        }
      }
    }
    b.append("  }\n");
  }
}
