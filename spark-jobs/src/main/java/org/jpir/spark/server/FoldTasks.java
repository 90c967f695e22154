package org.jpir.spark.server;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.Presets;
import org.jpir.core.server.PirServer;
import org.jpir.core.server.ColumnTree;
import org.jpir.core.server.FoldSpan;

/** The tasks of the executor-side ordered fold: grouping contiguous spans and merging them. */
final class FoldTasks {
  private FoldTasks() {}

  /** Each query's GGSWs of levels {@code >= from} (lower levels null: the tree never reads them). */
  static PreparedGgsw[][] levelsFrom(PreparedGgsw[][] ggsw, int from) {
    PreparedGgsw[][] out = new PreparedGgsw[ggsw.length][];
    for (int q = 0; q < ggsw.length; q++) {
      out[q] = new PreparedGgsw[ggsw[q].length];
      for (int t = from; t < ggsw[q].length; t++) {
        out[q][t] = ggsw[q][t];
      }
    }
    return out;
  }

  /** Keys span i by its group i / fanIn of the next tree level. */
  static final class GroupKeyFn
      implements org.apache.spark.api.java.function.PairFunction<FoldSpan, Integer, FoldSpan> {
    private static final long serialVersionUID = 1L;
    private final int fanIn;

    GroupKeyFn(int fanIn) {
      this.fanIn = fanIn;
    }

    @Override
    public scala.Tuple2<Integer, FoldSpan> call(FoldSpan s) {
      return new scala.Tuple2<>(s.index() / fanIn, s);
    }
  }

  /** Group g of a tree level goes to partition g. */
  static final class GroupPartitioner extends org.apache.spark.Partitioner {
    private static final long serialVersionUID = 1L;
    private final int groups;

    GroupPartitioner(int groups) {
      this.groups = groups;
    }

    @Override
    public int numPartitions() {
      return groups;
    }

    @Override
    public int getPartition(Object key) {
      return (Integer) key;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof GroupPartitioner gp && gp.groups == groups;
    }

    @Override
    public int hashCode() {
      return groups;
    }
  }

  /** Merges one group's spans in column order into the span of index = the group. */
  static final class MergeFn implements org.apache.spark.api.java.function.Function2<Integer,
      java.util.Iterator<FoldSpan>, java.util.Iterator<FoldSpan>> {
    private static final long serialVersionUID = 1L;
    private final String paramsId;
    private final ColumnTree tree;
    private final Shared<PreparedGgsw[][]> ggsw;

    MergeFn(String paramsId, ColumnTree tree, Shared<PreparedGgsw[][]> ggsw) {
      this.paramsId = paramsId;
      this.tree = tree;
      this.ggsw = ggsw;
    }

    @Override
    public java.util.Iterator<FoldSpan> call(Integer group, java.util.Iterator<FoldSpan> it) {
      List<FoldSpan> in = new ArrayList<>();
      it.forEachRemaining(in::add);
      if (in.isEmpty()) {
        return java.util.Collections.emptyIterator();
      }
      in.sort(Comparator.comparingInt(FoldSpan::first));
      PirServer server = new PirServer(Presets.byId(paramsId));
      return List.of(tree.merge(server, in, group, ggsw.value(), PartitionTasks.executorId())).iterator();
    }
  }
}
