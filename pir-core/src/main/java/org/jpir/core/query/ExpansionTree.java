package org.jpir.core.query;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.IntPredicate;
import org.jpir.core.lwe.Glwe;
import org.jpir.vmp.Pmat;
import org.jpir.vmp.Znx;

/**
 * The trace tree of {@link CompactExpander}: for levels j = 0 .. l-1, each ciphertext c_k (k <
 * 2^j) becomes {@code t = KS(Aut_{N/2^j+1}(c_k))}, {@code c_k <- c_k + t}, {@code c_{k+2^j} <-
 * (c_k - t) X^(-2^j)}. The top levels run depth first (only one ciphertext per level live); a
 * subtree of at most {@link #levelOrderDepth} levels runs level by level, so that the key switches
 * of one level go through {@link KeySwitcher} in groups that read the level's key once. Both
 * orders compute the same ciphertexts bitwise; only the order of the sink's calls differs. Not
 * thread-safe (holds scratch).
 */
final class ExpansionTree {

  private final int n;
  private final int limbs;
  private final int base2k;
  private final KeySwitcher switcher;
  private final long[] carry;
  private final int levelOrderDepth;
  private final ArrayDeque<Glwe> pool = new ArrayDeque<>();
  private final Glwe[] groupIn;
  private final Glwe[] groupOdd;
  private final Glwe[] oneC = new Glwe[1];
  private final Glwe[] oneOdd = new Glwe[1];
  private Glwe[] oddScratch = new Glwe[0];

  /**
   * A tree whose subtrees of at most levelOrderDepth levels run level by level (0: all depth
   * first), in groups of the switcher's size.
   */
  ExpansionTree(int n, int limbs, int base2k, KeySwitcher switcher, int levelOrderDepth) {
    if (levelOrderDepth < 0) {
      throw new IllegalArgumentException("level-order depth " + levelOrderDepth + " < 0");
    }
    this.n = n;
    this.limbs = limbs;
    this.base2k = base2k;
    this.switcher = switcher;
    this.carry = new long[n];
    this.levelOrderDepth = switcher.maxGroup() == 1 ? 0 : levelOrderDepth;
    this.groupIn = new Glwe[switcher.maxGroup()];
    this.groupOdd = new Glwe[switcher.maxGroup()];
  }

  /**
   * The deepest level-order subtree, at most {@code -Djpir.expand.levelOrderDepth} levels
   * (default 3), whose ciphertexts ({@code 2^depth} GLWEs of 2 x limbs x N longs at its last
   * level) fit {@code -Djpir.expand.frontierMiB} (default 8 MiB); both read when called, like
   * {@link KeySwitcher#defaultGroup}. Three levels beat five at N = 2048 (the frontier's 8 MiB
   * allowed five: 0.91-0.96x the expansion time) and tie four at N = 4096, measured with {@code
   * ExpansionProbe}'s in-JVM A/B on a Zen 4 (docs/tuning.md).
   */
  static int defaultDepth(int n, int limbs) {
    long frontierBytes = Long.getLong("jpir.expand.frontierMiB", 8) << 20;
    int cap = Math.max(0, Math.min(30, Integer.getInteger("jpir.expand.levelOrderDepth", 3)));
    long glweBytes = 16L * limbs * n;
    int d = 0;
    while ((2L << d) * glweBytes <= frontierBytes && d < cap) {
      d++;
    }
    return d;
  }

  /**
   * Expands c (overwritten) to depth l (see {@link CompactExpander#expand(Glwe, int,
   * IntPredicate, IntPredicate, Pmat[], CompactExpander.Sink, CompactExpander.Timings)}).
   */
  void run(Glwe c, int l, IntPredicate wanted, IntPredicate occupied, Pmat[] ksk,
      CompactExpander.Sink sink, CompactExpander.Timings t) {
    if (oddScratch.length < l) {
      // per-level scratch kept between calls: fresh GLWEs every call were fresh pages, each a
      // page fault, while G1 grows eden
      Glwe[] odd = Arrays.copyOf(oddScratch, l);
      for (int j = oddScratch.length; j < l; j++) {
        odd[j] = new Glwe(n, limbs);
      }
      oddScratch = odd;
    }
    depthFirst(c, 0, l, 0, wanted, occupied, ksk, sink, t);
  }

  /**
   * What the subtree of slot {@code index} at level j holds: bit 62 set when a slot is wanted,
   * bits 32.. the occupied count (capped at 2), bits 0..31 the last occupied slot.
   */
  private static long scan(int index, int j, int l, IntPredicate wanted, IntPredicate occupied) {
    int step = 1 << j;
    int only = -1;
    int count = 0;
    boolean any = false;
    for (int s = index; s < (1 << l) && (count < 2 || !any); s += step) {
      if (occupied.test(s)) {
        only = s;
        count++;
      }
      any |= wanted.test(s);
    }
    return (any ? 1L << 62 : 0) | ((long) Math.min(count, 2) << 32) | (only & 0xffffffffL);
  }

  /**
   * Finishes c at level j if it needs no key switch (nothing wanted, a leaf, or one occupied
   * slot left: the remaining levels would only double it, rotated); true when finished.
   */
  private boolean finish(Glwe c, int j, int l, int index, long scan,
      CompactExpander.Sink sink) {
    if ((scan & (1L << 62)) == 0) {
      return true;
    }
    if (j == l) {
      sink.accept(index, c);
      return true;
    }
    if ((int) (scan >>> 32 & 3) != 1) {
      return false;
    }
    int only = (int) scan;
    long[] d = c.data();
    Znx.normalize(n, base2k, d, 0, limbs, d, 0, limbs, carry);
    Znx.normalize(n, base2k, d, limbs * n, limbs, d, limbs * n, limbs, carry);
    int shift = only - index;
    if (shift != 0) {
      rotateDown(d, shift);
    }
    for (int i = 0; i < d.length; i++) {
      d[i] <<= (l - j);
    }
    sink.accept(only, c);
    return true;
  }

  /**
   * Level j of the tree on c (slot {@code index}, the subtree's slots {@code index + i 2^j}).
   * Digits are left unnormalized: each level at most doubles them (the key-switch output is
   * below 2^45, so below 2^(45+l) <= 2^61 after l <= 16 levels; the one-slot shortcut normalizes
   * before multiplying); the key switch normalizes a(X^p) into its gadget digits, which is all
   * the FFT needs.
   */
  private void depthFirst(Glwe c, int j, int l, int index, IntPredicate wanted,
      IntPredicate occupied, Pmat[] ksk, CompactExpander.Sink sink, CompactExpander.Timings t) {
    if (finish(c, j, l, index, scan(index, j, l, wanted, occupied), sink)) {
      return;
    }
    if (l - j <= levelOrderDepth) {
      levelOrder(c, j, l, index, wanted, occupied, ksk, sink, t);
      return;
    }
    int step = 1 << j;
    oneC[0] = c;
    oneOdd[0] = oddScratch[j];
    switcher.switchAndSplit(oneC, 1, n / step + 1, ksk[j], oneOdd, step);
    if (t != null) {
      t.keySwitches++;
    }
    depthFirst(c, j + 1, l, index, wanted, occupied, ksk, sink, t);
    depthFirst(oddScratch[j], j + 1, l, index + step, wanted, occupied, ksk, sink, t);
  }

  /**
   * The subtree of c (slot {@code index}) from level j0 to l, level by level; c (the caller's)
   * is overwritten, the other ciphertexts come from the pool and go back to it.
   */
  private void levelOrder(Glwe c, int j0, int l, int index, IntPredicate wanted,
      IntPredicate occupied, Pmat[] ksk, CompactExpander.Sink sink, CompactExpander.Timings t) {
    Glwe[] cur = {c};
    int[] curIndex = {index};
    int live = 1;
    for (int j = j0; live > 0; j++) {
      int step = 1 << j;
      Glwe[] work = new Glwe[live];
      int[] workIndex = new int[live];
      int w = 0;
      for (int i = 0; i < live; i++) {
        if (finish(cur[i], j, l, curIndex[i], scan(curIndex[i], j, l, wanted, occupied), sink)) {
          release(cur[i], c);
        } else {
          work[w] = cur[i];
          workIndex[w++] = curIndex[i];
        }
      }
      Glwe[] next = new Glwe[2 * w];
      int[] nextIndex = new int[2 * w];
      for (int g0 = 0; g0 < w; g0 += switcher.maxGroup()) {
        int count = Math.min(switcher.maxGroup(), w - g0);
        for (int m = 0; m < count; m++) {
          groupIn[m] = work[g0 + m];
          groupOdd[m] = acquire();
        }
        switcher.switchAndSplit(groupIn, count, n / step + 1, ksk[j], groupOdd, step);
        if (t != null) {
          t.keySwitches += count;
        }
        for (int m = 0; m < count; m++) {
          int i = g0 + m;
          next[2 * i] = work[i];
          nextIndex[2 * i] = workIndex[i];
          next[2 * i + 1] = groupOdd[m];
          nextIndex[2 * i + 1] = workIndex[i] + step;
        }
      }
      cur = next;
      curIndex = nextIndex;
      live = 2 * w;
    }
  }

  private Glwe acquire() {
    Glwe g = pool.poll();
    return g != null ? g : new Glwe(n, limbs);
  }

  private void release(Glwe g, Glwe callers) {
    if (g != callers) {
      pool.push(g);
    }
  }

  /** Multiplies every column of d by X^(-shift) (negacyclic), in place, through scratch. */
  private void rotateDown(long[] d, int shift) {
    for (int col = 0; col < 2 * limbs; col++) {
      int o = col * n;
      for (int i = 0; i < n; i++) {
        int dst = i - shift;
        if (dst >= 0) {
          carry[dst] = d[o + i];
        } else {
          carry[dst + n] = -d[o + i];
        }
      }
      System.arraycopy(carry, 0, d, o, n);
    }
  }
}
