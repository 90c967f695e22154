package org.jpir.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.vmp.CpuInfo;
import org.jpir.vmp.FftPlan;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Pvec;
import org.jpir.vmp.Vmp;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Interleaved A/B timing of kernel implementations in one JVM, for a machine shared with other
 * work: each round times every implementation for one short slice, in a rotated order, so
 * implementations see the same background load; the ratio of each to the first is the median
 * of the per-round ratios (paired), with a bootstrap 95% interval of the ratio of medians.
 * Every implementation's result is checked against the first's (bitwise for the VMP, within
 * {@link FftPlan}'s tolerance for the FFT) before anything is timed.
 *
 * <p>Usage: {@code KernelAb <op> <impl,impl,...> [rounds] [sliceMs]}, op one of {@code
 * fft:N}, {@code ifft:N}, {@code pvec:N:nrows:ncols} (per-column apply), {@code
 * multi:N:nrows:ncols:columns[:distinct]} (the database pass; with distinct, only that many
 * distinct PVECs, so the database comes from the caches), {@code
 * batch:N:nrows:ncols:columns:queries[:distinct]} (the pass of several queries in one);
 * implementations as {@link FftPlan#of(int, String)} or {@link Vmp#of(String)}.
 */
@Command(name = "KernelAb", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Interleaved A/B timing of kernel implementations in one JVM.")
public final class KernelAb implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "OP", description = "fft:N, ifft:N, pvec:N:nrows:ncols"
      + " or multi:N:nrows:ncols:columns[:distinct]")
  String op;

  @Parameters(index = "1", paramLabel = "IMPLS", split = ",",
      description = "implementations, comma-separated (FftPlan or Vmp names)")
  List<String> impls;

  @Parameters(index = "2", arity = "0..1", paramLabel = "ROUNDS",
      description = "rounds (default: ${DEFAULT-VALUE})")
  int rounds = 30;

  @Parameters(index = "3", arity = "0..1", paramLabel = "SLICE_MS",
      description = "milliseconds per implementation per round (default: ${DEFAULT-VALUE})")
  long sliceMs = 50;

  /** One timed operation on prepared inputs; returns a value the JIT cannot drop. */
  interface Op {
    double run();
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new KernelAb()).execute(args));
  }

  @Override
  public Integer call() {
    long sliceNs = sliceMs * 1_000_000L;
    List<Op> ops = new ArrayList<>();
    double[] first = null;
    for (String impl : impls) {
      Object[] made = make(op, impl.trim());
      ops.add((Op) made[0]);
      double[] out = (double[]) made[1];
      if (first == null) {
        first = out;
      } else {
        check(op, impl, first, out);
      }
    }
    for (Op op : ops) { // warm-up: at least 2 s each
      long end = System.nanoTime() + 2_000_000_000L;
      while (System.nanoTime() < end) {
        op.run();
      }
    }
    double[][] t = new double[impls.size()][rounds];
    double sink = 0;
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < impls.size(); k++) {
        int i = (r + k) % impls.size();
        Op op = ops.get(i);
        long start = System.nanoTime();
        long now;
        int reps = 0;
        do {
          sink += op.run();
          reps++;
          now = System.nanoTime();
        } while (now - start < sliceNs);
        t[i][r] = (now - start) / 1e3 / reps;
      }
    }
    System.out.println("cpu " + Environment.cpuModel() + "; "
        + CpuInfo.get().describe() + "; jdk " + Environment.jdk() + "; revision " + Environment.gitRevision());
    System.out.printf(Locale.ROOT, "KernelAb %s, %d rounds of %d ms slices (checksum %.3g)%n",
        op, rounds, sliceNs / 1_000_000, sink);
    for (int i = 0; i < impls.size(); i++) {
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = t[i][r] / t[0][r];
      }
      double[] ci = Stats.bootstrapRatioCi(t[i], t[0], 0.95, 2000, 1);
      System.out.printf(Locale.ROOT, "%-16s median %10.2f us [q1 %.2f q3 %.2f]  / %s: paired"
          + " median %.3f [q1 %.3f q3 %.3f], ratio of medians 95%% CI [%.3f, %.3f]%n", impls.get(i),
          Stats.median(t[i]), Stats.quantile(t[i], 0.25), Stats.quantile(t[i], 0.75), impls.get(0),
          Stats.median(ratio), Stats.quantile(ratio, 0.25), Stats.quantile(ratio, 0.75), ci[0],
          ci[1]);
    }
    return 0;
  }

  /** The operation and one result of it (for the agreement check). */
  static Object[] make(String spec, String impl) {
    String[] p = spec.split(":");
    int n = Integer.parseInt(p[1]);
    switch (p[0]) {
      case "fft":
      case "ifft": {
        FftPlan plan = FftPlan.of(n, impl);
        double[] buf = new double[n];
        VmpBench.fill(buf, 11);
        double[] once = buf.clone();
        boolean fwd = p[0].equals("fft");
        if (fwd) {
          plan.fft(once, 0);
        } else {
          plan.ifft(once, 0);
        }
        double[] work = buf.clone();
        Op op = () -> {
          System.arraycopy(buf, 0, work, 0, n);
          if (fwd) {
            plan.fft(work, 0);
          } else {
            plan.ifft(work, 0);
          }
          return work[1];
        };
        return new Object[] {op, once};
      }
      case "pvec": {
        int nrows = Integer.parseInt(p[2]);
        int ncols = Integer.parseInt(p[3]);
        Vmp ops = Vmp.of(impl);
        Pmat pm = Pmat.allocate(n, nrows, ncols);
        VmpBench.fill(pm, 1);
        Pvec v = Pvec.allocate(n, nrows);
        VmpBench.fill(v, 5);
        double[] res = new double[n * ncols];
        double[] tmp = new double[Vmp.applyPvecToDftTmpLength(n, nrows, ncols)];
        Op op = () -> {
          ops.applyPvecToDft(pm, v, res, 0, ncols, tmp);
          return res[3];
        };
        op.run();
        return new Object[] {op, res.clone()};
      }
      case "multi": {
        int nrows = Integer.parseInt(p[2]);
        int ncols = Integer.parseInt(p[3]);
        int nc = Integer.parseInt(p[4]);
        // optional: only this many distinct PVECs, column c aliasing column c % distinct (the
        // database then comes from the caches: the pass's ceiling without its memory stream)
        int distinct = p.length > 5 ? Integer.parseInt(p[5]) : nc;
        if (distinct < 1 || distinct > nc) {
          throw new IllegalArgumentException("op '" + spec + "': distinct must be 1.." + nc);
        }
        Vmp ops = Vmp.of(impl);
        Pmat pm = Pmat.allocate(n, nrows, ncols);
        VmpBench.fill(pm, 1);
        Pvec[] cols = columns(n, nrows, nc, distinct);
        double[][] res = new double[nc][n * ncols];
        double[] tmp = new double[Vmp.applyPvecMultiTmpLength(n, nrows, ncols, nc)];
        Op op = () -> {
          ops.applyPvecMulti(pm, cols, res, tmp);
          return res[nc - 1][5];
        };
        op.run();
        double[] all = new double[nc * n * ncols];
        for (int c = 0; c < nc; c++) {
          System.arraycopy(res[c], 0, all, c * n * ncols, n * ncols);
        }
        return new Object[] {op, all};
      }
      case "batch": {
        int nrows = Integer.parseInt(p[2]);
        int ncols = Integer.parseInt(p[3]);
        int nc = Integer.parseInt(p[4]);
        int nq = Integer.parseInt(p[5]);
        int distinct = p.length > 6 ? Integer.parseInt(p[6]) : nc;
        if (nq < 1 || distinct < 1 || distinct > nc) {
          throw new IllegalArgumentException("op '" + spec + "': queries must be >= 1 and"
              + " distinct 1.." + nc);
        }
        Vmp ops = Vmp.of(impl);
        Pmat[] pms = new Pmat[nq];
        for (int q = 0; q < nq; q++) {
          pms[q] = Pmat.allocate(n, nrows, ncols);
          VmpBench.fill(pms[q], 1 + 13L * q);
        }
        Pvec[] cols = columns(n, nrows, nc, distinct);
        double[][][] res = new double[nq][nc][n * ncols];
        double[] tmp = new double[Vmp.applyPvecBatchTmpLength(nq, n, nrows, ncols, nc)];
        Op op = () -> {
          ops.applyPvecBatch(pms, cols, res, tmp);
          return res[nq - 1][nc - 1][5];
        };
        op.run();
        double[] all = new double[nq * nc * n * ncols];
        for (int q = 0; q < nq; q++) {
          for (int c = 0; c < nc; c++) {
            System.arraycopy(res[q][c], 0, all, (q * nc + c) * n * ncols, n * ncols);
          }
        }
        return new Object[] {op, all};
      }
      default:
        throw new IllegalArgumentException("op '" + spec + "' is not fft:N, ifft:N,"
            + " pvec:N:nrows:ncols, multi:N:nrows:ncols:columns[:distinct] or"
            + " batch:N:nrows:ncols:columns:queries[:distinct]");
    }
  }

  /**
   * {@code nc} database columns of {@code nrows} rows, only {@code distinct} of them made (filled
   * by seed): column c aliases column {@code c % distinct}.
   */
  private static Pvec[] columns(int n, int nrows, int nc, int distinct) {
    Pvec[] cols = new Pvec[nc];
    for (int c = 0; c < nc; c++) {
      if (c < distinct) {
        cols[c] = Pvec.allocate(n, nrows);
        VmpBench.fill(cols[c], 7L * c + 3);
      } else {
        cols[c] = cols[c % distinct];
      }
    }
    return cols;
  }

  private static void check(String spec, String impl, double[] want, double[] got) {
    if (spec.startsWith("fft") || spec.startsWith("ifft")) {
      double max = 0;
      double scale = 0;
      for (int i = 0; i < want.length; i++) {
        max = Math.max(max, Math.abs(want[i] - got[i]));
        scale = Math.max(scale, Math.abs(want[i]));
      }
      if (max > 1e-9 * Math.max(1, scale)) {
        throw new IllegalStateException(impl + " disagrees with the first implementation on "
            + spec + ": max difference " + max);
      }
    } else if (!Arrays.equals(want, got)) {
      throw new IllegalStateException(impl + " is not bitwise the first implementation on "
          + spec);
    }
  }
}
