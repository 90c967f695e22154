package org.jpir.spark.server;

import java.util.List;
import org.jpir.core.params.Presets;
import org.jpir.core.query.ClassicQueries;
import org.jpir.core.query.CompactQueries;
import org.jpir.core.query.EvaluationKeyStore;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.CompactQuery;

/** Tests' shorthand: in-memory queries accepted by their kind, then answered in one batch. */
final class Batches {
  private Batches() {}

  static DistributedPirServer.BatchResult classic(DistributedPirServer server,
      List<ClientQuery> qs) {
    ClassicQueries kind = new ClassicQueries(Presets.byId(qs.get(0).paramsId()));
    return server.answer(qs.stream().map(q -> kind.accept(q, server.geometry())).toList());
  }

  static DistributedPirServer.BatchResult compact(DistributedPirServer server,
      EvaluationKeyStore store, List<CompactQuery> qs) {
    CompactQueries kind = new CompactQueries(store);
    return server.answer(qs.stream().map(q -> kind.accept(q, server.geometry())).toList());
  }
}
