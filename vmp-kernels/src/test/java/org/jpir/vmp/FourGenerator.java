package org.jpir.vmp;

/**
 * Writes class {@code Four512} (package {@code org.jpir.vmp}, source root {@code
 * src/main/panama}): the straight-line four-product kernels of {@code VmpKernel.macFourWide} for
 * panels of two matrix columns, one method {@code f<V>x2} per count {@code V} of database vectors
 * in {@link #VECTORS}. Layouts (from {@code VmpKernel}): vector q row r at {@code u_q[uOff + 8r]}
 * = {@code [re0..3 | im0..3]}; panel row r, column j at {@code v[vOff + 16r + 8j]} = {@code [yr |
 * yi]}; state of (q, j) at {@code st[stOff + q*ss + 16j]}: {@code [rr | ii]} then {@code [ri |
 * ir]}. Per row: {@code p_j} as loaded, {@code q_j = swap(p_j)}; per vector {@code a_qj +=
 * x_q*p_j}, {@code b_qj += x_q*q_j}. Each lane is one FMA chain over the rows in order, so every
 * body is bitwise the reference's {@code mac1} sums. {@code GeneratedKernelsTest} fails when the
 * committed file differs from this output.
 */
public final class FourGenerator {
  private FourGenerator() {}

  /** The database vectors per method: 6 (24 accumulators) and 1 (the remainders). */
  static final int[] VECTORS = {6, 1};

  /** The source text of {@code Four512}. */
  static String source() {
    StringBuilder b = new StringBuilder();
    b.append(MacGenerator.header("FourGenerator", true));
    b.append("""
        /**
         * Four-product multi-column kernels on 512-bit vectors for panels of two matrix columns,
         * {@code f<V>x2}: V database vectors x 2 columns, states in the layout of {@link
         * VmpKernel#macFourWide}. A database row {@code x = (re[4] | im[4])} meets a panel entry
         * {@code p = (yr[4] | yi[4])} and its halves swapped {@code q = (yi | yr)}: {@code x*p}
         * accumulates {@code (rr | ii)} and {@code x*q} {@code (ri | ir)}, lane by lane the fused
         * multiply-adds of {@link VmpKernel#mac1}, in row order. Two FMAs per database vector and
         * column, no per-row shuffle of the database side (the Gauss form spends an add and a
         * shuffle per row on it): for two columns that is 4 operations per row and vector against
         * the Gauss form's 5.
         */
        final class Four512 {
          private static final VectorSpecies<Double> S = DoubleVector.SPECIES_512;
          private static final VectorShuffle<Double> SWAP =
              VectorShuffle.fromValues(S, 4, 5, 6, 7, 0, 1, 2, 3);

          private Four512() {}
        """);
    for (int v : VECTORS) {
      b.append('\n').append(method(v));
    }
    b.append("}\n");
    return b.toString();
  }

  private static String method(int v) {
    StringBuilder b = new StringBuilder();
    if (v == 6) {
      b.append("  /** 6 vectors x 2 columns (row stride 16): 24 accumulators; state of vector i at"
          + " stOff + i*ss. */\n");
      b.append("  static void f6x2(int rows, double[] u0, double[] u1, double[] u2, double[] u3,"
          + " double[] u4,\n      double[] u5, int uOff, double[] v, int vOff, double[] st, int"
          + " stOff, int ss) {\n");
    } else if (v == 1) {
      b.append("  /** 1 vector x 2 columns (row stride 16): 4 accumulators. */\n");
      b.append("  static void f1x2(int rows, double[] u0, int uOff, double[] v, int vOff, double[]"
          + " st, int stOff,\n      int ss) {\n");
    } else {
      throw new IllegalArgumentException("no signature for " + v + " vectors");
    }
    for (int i = 0; i < v; i++) {
      for (int j = 0; j < 2; j++) {
        String o = "stOff + " + i + " * ss + " + 16 * j;
        b.append("    DoubleVector a").append(i).append(j)
            .append(" = DoubleVector.fromArray(S, st, ").append(o).append(");\n");
        b.append("    DoubleVector b").append(i).append(j)
            .append(" = DoubleVector.fromArray(S, st, ").append(o).append(" + 8);\n");
      }
    }
    b.append("    for (int r = 0; r < rows; r++) {\n");
    b.append("      final int uo = uOff + 8 * r;\n");
    b.append("      final int vr = vOff + 16 * r;\n");
    b.append("      final DoubleVector p0 = DoubleVector.fromArray(S, v, vr);\n");
    b.append("      final DoubleVector q0 = p0.rearrange(SWAP);\n");
    b.append("      final DoubleVector p1 = DoubleVector.fromArray(S, v, vr + 8);\n");
    b.append("      final DoubleVector q1 = p1.rearrange(SWAP);\n");
    for (int i = 0; i < v; i++) {
      b.append("      final DoubleVector x").append(i).append(" = DoubleVector.fromArray(S, u")
          .append(i).append(", uo);\n");
      for (int j = 0; j < 2; j++) {
        b.append("      a").append(i).append(j).append(" = x").append(i).append(".fma(p").append(j)
            .append(", a").append(i).append(j).append(");\n");
        b.append("      b").append(i).append(j).append(" = x").append(i).append(".fma(q").append(j)
            .append(", b").append(i).append(j).append(");\n");
      }
    }
    b.append("    }\n");
    for (int i = 0; i < v; i++) {
      for (int j = 0; j < 2; j++) {
        String o = "stOff + " + i + " * ss + " + 16 * j;
        b.append("    a").append(i).append(j).append(".intoArray(st, ").append(o).append(");\n");
        b.append("    b").append(i).append(j).append(".intoArray(st, ").append(o)
            .append(" + 8);\n");
      }
    }
    b.append("  }\n");
    return b.toString();
  }
}
