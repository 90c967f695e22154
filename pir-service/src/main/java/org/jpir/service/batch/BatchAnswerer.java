package org.jpir.service.batch;

import io.grpc.Status;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.jpir.core.wire.SafeText;
import org.jpir.core.wire.Wire;
import org.jpir.service.db.ServedDatabase;
import org.jpir.spark.server.DistributedPirServer;

/**
 * Answers the queries of one micro-batch through spark-jobs' one answer path, {@link
 * DistributedPirServer#answer}: grouped by database version, in Spark batches of the size the
 * databases were prepared for. A Spark batch that fails is answered again in halves until the
 * failing queries are alone; those get {@code INTERNAL} and every other query its answer (as the
 * {@code answer} job isolates bad queries). Runs on the micro-batcher's thread only.
 */
final class BatchAnswerer {
  private static final Logger LOG = LogManager.getLogger(BatchAnswerer.class);
  private final int sparkBatch;
  private final BatchListener listener;

  BatchAnswerer(int sparkBatch, BatchListener listener) {
    this.sparkBatch = sparkBatch;
    this.listener = listener;
  }

  /** Completes every item's entry with its answer or its error. */
  void answer(List<Work.Item> items) {
    Map<ServedDatabase.Version, List<Work.Item>> groups = new IdentityHashMap<>();
    for (Work.Item it : items) {
      groups.computeIfAbsent(it.version(), v -> new ArrayList<>()).add(it);
    }
    for (Map.Entry<ServedDatabase.Version, List<Work.Item>> g : groups.entrySet()) {
      List<Work.Item> all = g.getValue();
      for (int i = 0; i < all.size(); i += sparkBatch) {
        isolated(g.getKey(), all.subList(i, Math.min(all.size(), i + sparkBatch)));
      }
    }
  }

  private void isolated(ServedDatabase.Version v, List<Work.Item> batch) {
    ArrayDeque<List<Work.Item>> work = new ArrayDeque<>();
    work.add(batch);
    while (!work.isEmpty()) {
      List<Work.Item> part = work.poll();
      try {
        once(v, part);
      } catch (RuntimeException e) {
        if (part.size() == 1) {
          part.get(0).entry().result().complete(Outcome.error(Status.Code.INTERNAL,
              "the query failed on the executors: " + SafeText.escape(firstLine(e), 300)));
        } else {
          LOG.warn("service: {} queries failed together on the executors ({}); answering them"
              + " in halves", part.size(), SafeText.escape(firstLine(e), 300));
          work.addFirst(part.subList(part.size() / 2, part.size()));
          work.addFirst(part.subList(0, part.size() / 2));
        }
      }
    }
  }

  private void once(ServedDatabase.Version v, List<Work.Item> part) {
    DistributedPirServer.BatchResult r = v.server().answer(
        part.stream().map(Work.Item::query).toList());
    try {
      listener.sparkBatch(r.stats());
    } catch (RuntimeException e) { // a listener's failure is not the queries'
      LOG.error("service: batch listener: {}", e.toString());
    }
    for (int i = 0; i < part.size(); i++) {
      part.get(i).entry().result().complete(Outcome.answered(Wire.writeAnswer(r.answers()[i]),
          v.dataVersion(), v.configId()));
    }
  }

  private static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
