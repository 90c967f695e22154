package org.jpir.core.server;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.Params;

/**
 * The CMux tree over a list of nodes, level by level ({@link PirServer#fold}), with the outputs
 * taken from a pool of at most {@value #POOL} GLWEs that earlier folds made and consumed (fresh
 * outputs were fresh pages each time: about 6 MB zeroed per 128-column chunk at N = 2048). The
 * caller's nodes and the nodes a fold returns are never reused. Not thread-safe.
 */
final class CmuxFold {
  static final int POOL = 64;
  private final Params p;
  private final GlweOps ops;
  private final ArrayDeque<Glwe> pool = new ArrayDeque<>();

  CmuxFold(Params p, GlweOps ops) {
    this.p = p;
    this.ops = ops;
  }

  /** As {@link PirServer#fold}. */
  List<Glwe> fold(List<Glwe> nodes, int from, int to, PreparedGgsw[] ggsw) {
    List<Glwe> cur = nodes;
    // nodes this fold made and already consumed hold later levels' outputs, and then later folds'
    // (the pool); the caller's nodes and the nodes returned are never reused
    Set<Glwe> made = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int t = from; t < to; t++) {
      if (t >= ggsw.length) {
        throw new IllegalArgumentException("fold needs the GGSW of bit " + t + " but the query has "
            + ggsw.length);
      }
      List<Glwe> next = new ArrayList<>((cur.size() + 1) / 2);
      for (int j = 0; j < cur.size(); j += 2) {
        if (j + 1 < cur.size()) {
          Glwe x0 = cur.get(j);
          Glwe x1 = cur.get(j + 1);
          Glwe o = pool.isEmpty() ? new Glwe(p.n(), p.glweLimbs()) : pool.pop();
          made.add(o);
          ops.cmux(ggsw[t], x0, x1, o);
          next.add(o);
          // x0 and x1 are read no more: the next pairs' outputs may take them
          recycle(x0, made);
          recycle(x1, made);
        } else {
          next.add(cur.get(j));
        }
      }
      cur = next;
    }
    return cur;
  }

  // a node this server made and a fold consumed goes to the pool (while it holds fewer than POOL)
  private void recycle(Glwe g, Set<Glwe> made) {
    if (made.remove(g) && pool.size() < POOL) {
      pool.push(g);
    }
  }
}
