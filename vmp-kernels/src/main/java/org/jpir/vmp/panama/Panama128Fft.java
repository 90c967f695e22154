package org.jpir.vmp.panama;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;
import org.jpir.vmp.FftKernel;
import org.jpir.vmp.RefFft;

/**
 * {@link FftKernel} on 128-bit vectors (NEON's width; SSE on x86), for JVMs whose preferred
 * species is 128 bits, where the 256- and 512-bit kernels of {@link PanamaFft} would not be
 * compiled to vector instructions at all. Radix-4 stages work on 2 butterflies at once (the
 * quarter of a node of 16 or more holds at least 4 values), with the same operations and
 * fused multiply-adds as {@link PanamaFft}'s 256-bit path; the 2- and 3-level leaves (nodes of 4
 * and 8, whose butterflies pair values inside one 128-bit vector) run on the scalar {@link
 * RefFft}. Results differ from {@code RefFft} by rounding only (tolerance in {@code FftPlan}).
 */
public final class Panama128Fft implements FftKernel {
  private static final VectorSpecies<Double> S = DoubleVector.SPECIES_128;
  private static final int L = 2;
  private static final RefFft LEAVES = new RefFft();

  /** Public for reflective loading. */
  public Panama128Fft() {}

  @Override
  public void fwdR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    fwdR4Lanes(buf, ro, io, size, k0, count, tw, t0);
  }

  @Override
  public void invR4(double[] buf, int ro, int io, int size, int k0, int count, double[] tw,
      int t0) {
    invR4Lanes(buf, ro, io, size, k0, count, tw, t0);
  }

  @Override
  public void fwdLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    LEAVES.fwdLeaf(buf, ro, io, k0, count, tw, t0);
  }

  @Override
  public void fwdLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    LEAVES.fwdLeaf3(buf, ro, io, k0, count, tw, t0);
  }

  @Override
  public void invLeaf(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    LEAVES.invLeaf(buf, ro, io, k0, count, tw, t0);
  }

  @Override
  public void invLeaf3(double[] buf, int ro, int io, int k0, int count, double[] tw, int t0) {
    LEAVES.invLeaf3(buf, ro, io, k0, count, tw, t0);
  }

  /** Two radix-2 levels on nodes of {@code size >= 16}, {@value #L} butterflies per vector. */
  private static void fwdR4Lanes(double[] buf, int ro, int io, int size, int k0, int count,
      double[] tw, int t0) {
    int q = size >> 2;
    for (int k = 0; k < count; k++) {
      int t = t0 + k * R4_ENTRY;
      DoubleVector c = DoubleVector.broadcast(S, tw[t]);
      DoubleVector s = DoubleVector.broadcast(S, tw[t + 1]);
      DoubleVector ns = DoubleVector.broadcast(S, tw[t + 2]);
      DoubleVector c0 = DoubleVector.broadcast(S, tw[t + 3]);
      DoubleVector s0 = DoubleVector.broadcast(S, tw[t + 4]);
      DoubleVector ns0 = DoubleVector.broadcast(S, tw[t + 5]);
      int a = (k0 + k) * size;
      for (int j = a; j < a + q; j += L) {
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
      }
    }
  }
  /** The inverse of {@link #fwdR4Lanes} up to the factor 4. */
  private static void invR4Lanes(double[] buf, int ro, int io, int size, int k0, int count,
      double[] tw, int t0) {
    int q = size >> 2;
    for (int k = 0; k < count; k++) {
      int t = t0 + k * R4_ENTRY;
      DoubleVector c = DoubleVector.broadcast(S, tw[t]);
      DoubleVector s = DoubleVector.broadcast(S, tw[t + 1]);
      DoubleVector ns = DoubleVector.broadcast(S, tw[t + 2]);
      DoubleVector c0 = DoubleVector.broadcast(S, tw[t + 3]);
      DoubleVector s0 = DoubleVector.broadcast(S, tw[t + 4]);
      DoubleVector ns0 = DoubleVector.broadcast(S, tw[t + 5]);
      int a = (k0 + k) * size;
      for (int j = a; j < a + q; j += L) {
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
      }
    }
  }}
