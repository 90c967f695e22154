package org.jpir.service.batch;

import java.util.List;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.service.db.ServedDatabase;

/**
 * The queries one call had admitted, which go into one micro-batch together: each with the
 * database version it is answered on and the entry its outcome completes.
 */
public final class Work {
  /** One admitted query. */
  public record Item(ServedDatabase db, ServedDatabase.Version version, AcceptedQuery query,
      RecentAnswers.Entry entry) {}

  private final List<Item> items;
  final long queuedNanos;

  /** The admitted queries of one call (at least one). */
  public Work(List<Item> items) {
    if (items.isEmpty()) {
      throw new IllegalArgumentException("no queries");
    }
    this.items = List.copyOf(items);
    this.queuedNanos = System.nanoTime();
  }

  /** The queries. */
  public List<Item> items() {
    return items;
  }

  /** How many queries. */
  public int size() {
    return items.size();
  }

  /** Whether no call waits for any of its results (all cancelled or past their deadlines). */
  public boolean abandoned() {
    return items.stream().allMatch(i -> i.entry().abandoned());
  }

  /** Completes every query not yet completed with {@code o}. */
  void completeAll(Outcome o) {
    for (Item i : items) {
      i.entry().result().complete(o);
    }
  }
}
