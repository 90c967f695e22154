package org.jpir.vmp;
import java.lang.foreign.*;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.*;

import static java.lang.foreign.ValueLayout.*;

/**
 * spqlios-arithmetic's vmp applies (through the FFM API) and this project's, timed in turns in one
 * JVM on one core, so that both see the same machine state: per round each implementation runs
 * for sliceMs, order rotated; per implementation the median time per call and the median of the
 * per-round ratios to the first. Args: N:nrows:ncols rounds sliceMs [impls], impls from
 * spq-pvec, spq-dft, ours-pvec, ours-dft. Needs JDK 22+ and a spqlios shared library built by the
 * user (-Dspqlios.lib=PATH; this project ships none). Compile against the benchmarks jar:
 * javac --add-modules jdk.incubator.vector -cp benchmarks/target/benchmarks.jar -d cls SpqAb.java
 * then java @vmp-kernels/target/classes/jpir-jvm.options -Dspqlios.lib=... -cp
 * benchmarks/target/benchmarks.jar:cls org.jpir.vmp.SpqAb 16384:15:30 21 100
 * spq-pvec,ours-pvec,spq-dft,ours-dft (it sits in org.jpir.vmp for the layouts' arrays).
 */
public class SpqAb {
  static final Linker L = Linker.nativeLinker();
  static SymbolLookup lib;
  static MethodHandle h(String name, MemoryLayout ret, MemoryLayout... args) {
    MemorySegment s = lib.find(name).orElseThrow(() -> new IllegalStateException(name));
    return L.downcallHandle(s, ret == null ? FunctionDescriptor.ofVoid(args) : FunctionDescriptor.of(ret, args));
  }
  interface Op { void run() throws Throwable; }

  public static void main(String[] a) throws Throwable {
    String[] sh = a[0].split(":");
    int n = Integer.parseInt(sh[0]), nrows = Integer.parseInt(sh[1]), ncols = Integer.parseInt(sh[2]);
    int rounds = Integer.parseInt(a[1]);
    long slice = Long.parseLong(a[2]) * 1_000_000L;
    String[] impls = a.length > 3 ? a[3].split(",") : new String[] {"spq-pvec", "ours-pvec"};
    Arena arena = Arena.ofShared();
    lib = SymbolLookup.libraryLookup(Path.of(System.getProperty("spqlios.lib", "libspqlios.so")), arena);
    MethodHandle newModule = h("new_module_info", ADDRESS, JAVA_LONG, JAVA_INT);
    MethodHandle newPmat = h("new_vmp_pmat", ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG);
    MethodHandle prepTmp = h("vmp_prepare_contiguous_tmp_bytes", JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG);
    MethodHandle prep = h("vmp_prepare_contiguous", null, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
    MethodHandle pvTmp = h("vmp_prepare_vector_tmp_bytes", JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG);
    MethodHandle pvPrep = h("vmp_prepare_vector", null, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
    MethodHandle newDft = h("new_vec_znx_dft", ADDRESS, ADDRESS, JAVA_LONG);
    MethodHandle dft = h("vec_znx_dft", null, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG);
    MethodHandle applyPvec = h("vmp_apply_pvec_to_dft", null, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
    MethodHandle applyDft = h("vmp_apply_dft_to_dft", null, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
    MethodHandle pvecApplyTmp = h("vmp_apply_pvec_to_dft_tmp_bytes", JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    MethodHandle dftApplyTmp = h("vmp_apply_dft_to_dft_tmp_bytes", JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    MemorySegment module = (MemorySegment) newModule.invoke((long) n, 0);
    Random rnd = new Random(7);
    MemorySegment pmat = (MemorySegment) newPmat.invoke(module, (long) nrows, (long) ncols);
    {
      MemorySegment mat = arena.allocate((long) nrows * ncols * n * 8, 64);
      for (long i = 0; i < (long) nrows * ncols * n; i++) mat.setAtIndex(JAVA_LONG, i, rnd.nextInt(1 << 20) - (1 << 19));
      long tb = (long) prepTmp.invoke(module, (long) nrows, (long) ncols);
      prep.invoke(module, pmat, mat, (long) nrows, (long) ncols, arena.allocate(Math.max(tb, 64), 64));
    }
    MemorySegment av = arena.allocate((long) nrows * n * 8, 64);
    for (long i = 0; i < (long) nrows * n; i++) av.setAtIndex(JAVA_LONG, i, rnd.nextInt(1 << 20) - (1 << 19));
    MemorySegment pvec = arena.allocate((long) nrows * n * 8, 64);
    pvPrep.invoke(module, pvec, (long) nrows, av, (long) nrows, (long) n, arena.allocate(Math.max(64, (long) pvTmp.invoke(module, (long) nrows, (long) nrows)), 64));
    MemorySegment adft = (MemorySegment) newDft.invoke(module, (long) nrows);
    dft.invoke(module, adft, (long) nrows, av, (long) nrows, (long) n);
    MemorySegment res = (MemorySegment) newDft.invoke(module, (long) ncols);
    MemorySegment tmpP = arena.allocate(Math.max(64, (long) pvecApplyTmp.invoke(module, (long) ncols, (long) nrows, (long) nrows, (long) ncols)), 64);
    MemorySegment tmpD = arena.allocate(Math.max(64, (long) dftApplyTmp.invoke(module, (long) ncols, (long) nrows, (long) nrows, (long) ncols)), 64);

    Vmp ops = Vmp.of("panama");
    Pmat pm = Pmat.allocate(n, nrows, ncols);
    double[] pd = pm.data();
    for (int i = pm.base(); i < pm.base() + nrows * ncols * n; i++) pd[i] = rnd.nextGaussian() * 1e6;
    Pvec v = Pvec.allocate(n, nrows);
    double[] vd = v.data();
    for (int i = v.base(); i < v.base() + nrows * n; i++) vd[i] = rnd.nextGaussian() * 1e6;
    double[] vec = new double[nrows * n];
    for (int i = 0; i < vec.length; i++) vec[i] = rnd.nextGaussian();
    double[] ores = new double[n * ncols];
    double[] tP = new double[Vmp.applyPvecToDftTmpLength(n, nrows, ncols)];
    double[] tD = new double[Vmp.applyDftToDftTmpLength(n, nrows, ncols)];
    Map<String, Op> all = new LinkedHashMap<>();
    all.put("spq-pvec", () -> applyPvec.invoke(module, res, (long) ncols, pvec, (long) nrows, pmat, (long) nrows, (long) ncols, tmpP));
    all.put("spq-dft", () -> applyDft.invoke(module, res, (long) ncols, adft, (long) nrows, pmat, (long) nrows, (long) ncols, tmpD));
    all.put("ours-pvec", () -> ops.applyPvecToDft(pm, v, ores, 0, ncols, tP));
    all.put("ours-dft", () -> ops.applyDftToDft(pm, vec, 0, nrows, ores, 0, ncols, tD));
    List<Op> list = new ArrayList<>();
    for (String s : impls) list.add(Objects.requireNonNull(all.get(s), s));
    int k = list.size();
    double[][] t = new double[k][rounds];
    for (Op o : list) for (int w = 0; w < 5; w++) o.run();
    for (int r = 0; r < rounds; r++) {
      for (int j0 = 0; j0 < k; j0++) {
        int j = (j0 + r) % k;
        Op o = list.get(j);
        long s0 = System.nanoTime(), e; int calls = 0;
        do { o.run(); calls++; e = System.nanoTime(); } while (e - s0 < slice);
        t[j][r] = (e - s0) / 1e6 / calls;
      }
    }
    for (int j = 0; j < k; j++) {
      double[] rat = new double[rounds];
      for (int r = 0; r < rounds; r++) rat[r] = t[j][r] / t[0][r];
      System.out.printf(Locale.ROOT, "%-14s median %8.3f ms [q1 %8.3f q3 %8.3f]  /%s paired median %.3f [q1 %.3f q3 %.3f]%n",
          impls[j], q(t[j], .5), q(t[j], .25), q(t[j], .75), impls[0], q(rat, .5), q(rat, .25), q(rat, .75));
    }
  }
  static double q(double[] x, double p) { double[] s = x.clone(); Arrays.sort(s); double i = p * (s.length - 1); int lo = (int) Math.floor(i); int hi = Math.min(s.length - 1, lo + 1); return s[lo] + (i - lo) * (s[hi] - s[lo]); }
}
