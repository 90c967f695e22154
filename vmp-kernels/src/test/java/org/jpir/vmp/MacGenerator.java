package org.jpir.vmp;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the straight-line four-product kernels of the 256- and 128-bit multi-column pass
 * ({@code Mac256}, {@code Mac128}; package {@code org.jpir.vmp}, source root {@code
 * src/main/panama}; 512-bit blocks use the three-product {@link GaussGenerator} bodies) and the
 * per-column applies ({@code VmpKernel.mac1}, {@code mac2}, {@code mac2Out}, {@code mac4Out},
 * {@code mac1Out})
 * from one template: a block of {@code V} database vectors x {@code C} matrix columns at a vector
 * width of {@code L} doubles (4 or 2).
 *
 * <p>State of (vector q, column j) at {@code st[stOff + q*stStride + 16*j ..]} in quarters
 * {@code rr, ri, ir, ii} (offsets 0, 4, 8, 12); database vector q row r at {@code
 * u_q[uOff + 8r ..]} as a reim4 block {@code [re0..3 | im0..3]}; matrix column j row r at {@code
 * v[vOff + 8*C*r + 8*j ..]} (packed panel), {@code v[vOff + 16r + 8j ..]} (a PMAT column pair),
 * {@code v[vOff + pairStride*(j/2) + 16r + 8*(j%2) ..]} (consecutive PMAT column pairs) or {@code
 * v[vOff + vStride*r + 8j ..]} (any row stride; the row offsets are induction
 * variables, as the stride is not a constant). The applies ({@link Layout#apply}) take one vector {@code u} and keep the state at
 * {@code st[stOff ..]} or, {@code *Out}, start from zero states and write the finished sums to a
 * result ({@code VmpKernel.mac2Out}). Every accumulator is one FMA chain over the rows in order,
 * so each state quarter is bitwise the reference's.
 *
 * <p>{@code x_{a,p} = u_q[row + 4a + L*p]} (a = re, im; p = lane part), {@code y_{b,p} = v[col +
 * 4b + L*p]}: accumulator (q, j, a, b, p) at state quarter {@code 8a + 4b} plus {@code L*p}.
 *
 * {@code GeneratedKernelsTest} fails when a committed file differs from what this class
 * generates, and rewrites the files with {@code -Djpir.regenerate=true}.
 */
public final class MacGenerator {
  private MacGenerator() {}

  /** Where a method's matrix columns lie (the layouts of the class comment). */
  enum Layout {
    PACKED("packed"), PAIR("pair"), PAIRS("pairs"), STRIDED("strided");

    final String prefix;

    Layout(String prefix) {
      this.prefix = prefix;
    }

    /** True for the per-column applies: one vector, no state stride. */
    boolean apply() {
      return this == PAIR || this == PAIRS || this == STRIDED;
    }
  }

  /**
   * One generated method: width in doubles, vectors, columns, the columns' layout, and whether
   * it starts from zero states and finishes them into a result ({@code out}, applies only).
   */
  record Shape(int lanes, int vectors, int cols, Layout layout, boolean out) {
    Shape {
      if (lanes != 4 && lanes != 2 || (layout.apply() ? vectors != 1 : out)) {
        throw new IllegalArgumentException("4 or 2 lanes; applies are 1 vector, and only"
            + " applies finish into a result: " + this);
      }
    }

    String name() {
      return layout.prefix + vectors + "x" + cols + (out ? "Out" : "");
    }
  }

  /** The shapes of each generated class, by class name. */
  static final Map<String, List<Shape>> CLASSES = Map.of(
      "Mac256", shapes(4, new int[][] {{2, 3}, {2, 2}, {2, 1}, {1, 3}, {1, 2}, {1, 1}},
          // mac1 (row stride 16 or any), mac2, mac2Out, mac1Out of PanamaVmp
          new Shape(4, 1, 1, Layout.PAIR, false), new Shape(4, 1, 1, Layout.STRIDED, false),
          new Shape(4, 1, 2, Layout.PAIR, false), new Shape(4, 1, 2, Layout.PAIR, true),
          new Shape(4, 1, 1, Layout.STRIDED, true),
          // mac4Out of PanamaVmp with 32 registers (two column pairs per call)
          new Shape(4, 1, 4, Layout.PAIRS, true)),
      "Mac128", shapes(2, new int[][] {{1, 3}, {1, 2}},
          // mac1 of Panama128Vmp
          new Shape(2, 1, 1, Layout.STRIDED, false)));

  private static List<Shape> shapes(int lanes, int[][] packed, Shape... applies) {
    List<Shape> out = new ArrayList<>();
    for (int[] s : packed) {
      out.add(new Shape(lanes, s[0], s[1], Layout.PACKED, false));
    }
    out.addAll(List.of(applies));
    return out;
  }

  /** The source text of class {@code name}. */
  static String source(String name) {
    List<Shape> shapes = CLASSES.get(name);
    int lanes = shapes.get(0).lanes();
    StringBuilder b = new StringBuilder();
    b.append(header("MacGenerator", false));
    b.append("/**\n * Register-blocked multi-column kernels on ").append(64 * lanes)
        .append("-bit vectors (layouts in {@code MacGenerator}):\n * {@code V} database vectors x"
            + " {@code C} matrix columns per call, states accumulated in place.");
    boolean out = shapes.stream().anyMatch(Shape::out);
    if (shapes.stream().anyMatch(s -> s.layout().apply())) {
      b.append("\n * The per-column applies ({@code pair*}, {@code strided*}) take one vector;"
          + " {@code *Out}\n * start from zero states and finish them into a result.");
    }
    b.append("\n */\n");
    b.append("final class ").append(name).append(" {\n");
    b.append("  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_")
        .append(64 * lanes).append(";\n");
    b.append("\n  private ").append(name).append("() {}\n");
    for (Shape s : shapes) {
      b.append('\n');
      method(b, s);
    }
    if (out) {
      b.append("\n  /** {@code res[at ..] = re}, {@code res[at + half ..] = im}; {@code +=} when"
          + " add. */\n");
      b.append("  private static void finish(DoubleVector re, DoubleVector im, double[] res,"
          + " int at,\n      int half, boolean add) {\n");
      b.append("    if (add) {\n");
      b.append("      re = DoubleVector.fromArray(S, res, at).add(re);\n");
      b.append("      im = DoubleVector.fromArray(S, res, at + half).add(im);\n");
      b.append("    }\n");
      b.append("    re.intoArray(res, at);\n");
      b.append("    im.intoArray(res, at + half);\n");
      b.append("  }\n");
    }
    b.append("}\n");
    return b.toString();
  }

  /** The accumulators of (q, j): {name, state offset within the column's 16 doubles}. */
  private static List<String[]> accumulators(Shape s, int q, int j) {
    List<String[]> out = new ArrayList<>();
    for (int a = 0; a < 2; a++) {
      for (int bb = 0; bb < 2; bb++) {
        for (int p = 0; p < 4 / s.lanes(); p++) {
          out.add(new String[] {acc(s, q, j, a, bb, p),
              String.valueOf(16 * j + 8 * a + 4 * bb + s.lanes() * p)});
        }
      }
    }
    return out;
  }

  private static String acc(Shape s, int q, int j, int a, int bb, int p) {
    String[] half = {"r", "i"};
    return "a" + q + j + half[a] + half[bb] + (s.lanes() == 4 ? "" : String.valueOf(p));
  }

  // the method of shape s: states in, the FMA chains over the rows, states (or sums) out
  private static void method(StringBuilder b, Shape s) {
    int v = s.vectors();
    int c = s.cols();
    boolean apply = s.layout().apply();
    int per = 4 * (4 / s.lanes());
    if (apply) {
      b.append("  /** 1 vector x ").append(c).append(c == 1 ? " column" : " columns")
          .append(s.layout() == Layout.PAIRS ? " at vOff + pairStride*(j/2) + 8*(j%2)"
              : " at vOff + 8j").append(", row stride ")
          .append(s.layout() == Layout.STRIDED ? "vStride" : "16").append(": ").append(per * c)
          .append(" accumulators, ").append(s.out() ? "from zero into res" : "states at stOff")
          .append(". */\n");
    } else {
      b.append("  /** ").append(v).append(" vector(s) x ").append(c)
          .append(" packed columns (row stride " + 8 * c + ")").append(": ").append(per * v * c)
          .append(" accumulators. */\n");
    }
    b.append("  static void ").append(s.name());
    if (apply) {
      b.append("(int rows, double[] u, int uOff, double[] v, int vOff")
          .append(s.layout() == Layout.STRIDED ? ", int vStride"
              : s.layout() == Layout.PAIRS ? ", int pairStride" : "").append(",\n      ");
      if (s.out()) {
        b.append("double[] res");
        for (int j = 0; j < c; j++) {
          b.append(", int re").append(j);
        }
        b.append(", int half, boolean add) {\n");
      } else {
        b.append("double[] st, int stOff) {\n");
      }
    } else {
      b.append("(int rows, double[] u0, double[] u1, int uOff, double[] v,\n      int vOff,"
          + " double[] st, int stOff, int stStride) {\n");
    }
    if (!apply) {
      for (int q = 0; q < v; q++) {
        b.append("    final int s").append(q).append(" = stOff + ").append(q)
            .append(" * stStride;\n");
      }
    }
    if (s.out()) {
      b.append("    final DoubleVector zero = DoubleVector.zero(S);\n");
    }
    for (int q = 0; q < v; q++) {
      for (int j = 0; j < c; j++) {
        for (String[] a : accumulators(s, q, j)) {
          b.append("    DoubleVector ").append(a[0]).append(" = ").append(s.out() ? "zero"
              : "DoubleVector.fromArray(S, st, " + state(s, q, a[1]) + ")").append(";\n");
        }
      }
    }
    switch (s.layout()) {
      case STRIDED -> b.append("    for (int r = 0, uo = uOff, vr = vOff; r < rows;"
          + " r++, uo += 8, vr += vStride) {\n");
      default -> {
        b.append("    for (int r = 0; r < rows; r++) {\n");
        b.append("      final int uo = uOff + 8 * r;\n");
        b.append(s.layout() == Layout.PACKED ? "      final int vr = vOff + " + 8 * c + " * r;\n"
            : "      final int vr = vOff + 16 * r;\n");
        for (int p = 1; s.layout() == Layout.PAIRS && p < (c + 1) / 2; p++) {
          b.append("      final int vr").append(p).append(" = vr + ").append(p == 1 ? ""
              : p + " * ").append("pairStride;\n");
        }
      }
    }
    String[] half = {"r", "i"};
    for (int q = 0; q < v; q++) {
      for (int a = 0; a < 2; a++) {
        for (int p = 0; p < 4 / s.lanes(); p++) {
          int off = 4 * a + s.lanes() * p;
          b.append("      final DoubleVector x").append(q).append(half[a])
              .append(s.lanes() == 4 ? "" : String.valueOf(p))
              .append(" = DoubleVector.fromArray(S, u").append(apply ? "" : String.valueOf(q))
              .append(", uo").append(off == 0 ? "" : " + " + off).append(");\n");
        }
      }
    }
    if (apply) {
      applyRow(b, s);
    } else {
      b.append("      DoubleVector y;\n");
    }
    for (int j = 0; j < c && !apply; j++) {
      for (int bb = 0; bb < 2; bb++) {
        for (int p = 0; p < 4 / s.lanes(); p++) {
          int off = 4 * bb + s.lanes() * p;
          b.append("      y = DoubleVector.fromArray(S, v, ").append(column(s, j, off))
              .append(");\n");
          for (int q = 0; q < v; q++) {
            for (int a = 0; a < 2; a++) {
              String n = acc(s, q, j, a, bb, p);
              b.append("      ").append(n).append(" = x").append(q).append(half[a])
                  .append(s.lanes() == 4 ? "" : String.valueOf(p)).append(".fma(y, ").append(n)
                  .append(");\n");
            }
          }
        }
      }
    }
    b.append("    }\n");
    for (int q = 0; q < v; q++) {
      for (int j = 0; j < c; j++) {
        if (s.out()) {
          // re = rr - ii, im = ri + ir, lane part by lane part
          for (int p = 0; p < 4 / s.lanes(); p++) {
            b.append("    finish(").append(acc(s, q, j, 0, 0, p)).append(".sub(")
                .append(acc(s, q, j, 1, 1, p)).append("), ").append(acc(s, q, j, 0, 1, p))
                .append(".add(").append(acc(s, q, j, 1, 0, p)).append("), res, re").append(j)
                .append(p == 0 ? "" : " + " + s.lanes() * p).append(", half, add);\n");
          }
          continue;
        }
        for (String[] a : accumulators(s, q, j)) {
          b.append("    ").append(a[0]).append(".intoArray(st, ").append(state(s, q, a[1]))
              .append(");\n");
        }
      }
    }
    b.append("  }\n");
  }

  // an apply's row, column by column: the column's halves y_{b,p} loaded, then its FMAs in
  // state order (a, b, p), as the hand-written applies had them
  private static void applyRow(StringBuilder b, Shape s) {
    String[] half = {"r", "i"};
    String lane = s.lanes() == 4 ? "" : "p";
    for (int j = 0; j < s.cols(); j++) {
      for (int bb = 0; bb < 2; bb++) {
        for (int p = 0; p < 4 / s.lanes(); p++) {
          b.append("      final DoubleVector y").append(j).append(half[bb])
              .append(lane.isEmpty() ? "" : String.valueOf(p))
              .append(" = DoubleVector.fromArray(S, v, ")
              .append(column(s, j, 4 * bb + s.lanes() * p)).append(");\n");
        }
      }
      for (int a = 0; a < 2; a++) {
        for (int bb = 0; bb < 2; bb++) {
          for (int p = 0; p < 4 / s.lanes(); p++) {
            String n = acc(s, 0, j, a, bb, p);
            String pp = lane.isEmpty() ? "" : String.valueOf(p);
            b.append("      ").append(n).append(" = x0").append(half[a]).append(pp)
                .append(".fma(y").append(j).append(half[bb]).append(pp).append(", ").append(n)
                .append(");\n");
          }
        }
      }
    }
  }

  /** The index of vector q's state at offset {@code off} in the method's variables. */
  private static String state(Shape s, int q, String off) {
    return (s.layout().apply() ? "stOff" : "s" + q) + " + " + off;
  }

  /** The index of matrix column j's row r, plus {@code off}, in the method's variables. */
  private static String column(Shape s, int j, int off) {
    if (s.layout() == Layout.PAIRS) {
      return "vr" + (j / 2 == 0 ? "" : String.valueOf(j / 2)) + " + " + (8 * (j % 2) + off);
    }
    return "vr + " + (8 * j + off);
  }

  /**
   * The head every generated kernel file starts with: the package, the imports of {@code
   * DoubleVector}, {@code VectorShuffle} (when {@code shuffles}) and {@code VectorSpecies}, and
   * the two comment lines naming its generator.
   */
  static String header(String generator, boolean shuffles) {
    return "package org.jpir.vmp;\n\n"
        + "import jdk.incubator.vector.DoubleVector;\n"
        + (shuffles ? "import jdk.incubator.vector.VectorShuffle;\n" : "")
        + "import jdk.incubator.vector.VectorSpecies;\n\n"
        + "// GENERATED by " + generator + " (vmp-kernels/src/test/java/org/jpir/vmp): do not"
        + " edit.\n// Regenerate: mvn -pl vmp-kernels test -Dtest=GeneratedKernelsTest"
        + " -Djpir.regenerate=true\n";
  }

  /** The file of class {@code name} under module directory {@code module}. */
  static Path file(Path module, String name) {
    return module.resolve("src/main/panama/org/jpir/vmp/" + name + ".java");
  }
}
