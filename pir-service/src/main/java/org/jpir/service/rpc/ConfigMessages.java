package org.jpir.service.rpc;

import org.jpir.api.v1.DatabaseConfig;
import org.jpir.api.v1.Geometry;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.wire.Wire;
import org.jpir.service.db.ServedDatabase;

/** The {@code DatabaseConfig} message of a served database's current version. */
final class ConfigMessages {
  private ConfigMessages() {}

  static DatabaseConfig of(ServedDatabase db) {
    org.jpir.core.params.Geometry g = db.geometry();
    ServedDatabase.Version v = db.current();
    return DatabaseConfig.newBuilder()
        .setName(db.name())
        .setPresetId(db.params().id())
        .setParameterRevision(ParameterRevision.hex(ParameterRevision.of(db.params())))
        .setGeometry(Geometry.newBuilder().setRecordCount(g.recordCount())
            .setRecordSize(g.recordSize()).setPolyBytes(g.polyBytes())
            .setRecordsPerPoly(g.recordsPerPoly()).setPlanes(g.planes()).setRows(g.rows())
            .setCols(g.cols()).setPairedTail(g.pairedTail()))
        .putAllKeywordTable(db.keyword())
        .setDataVersion(v.dataVersion())
        .setConfigId(v.configId())
        .setCompact(db.compact() != null)
        .setMaxQueryBytes(db.maxQueryBytes())
        .setMaxKeysBytes(db.compact() == null ? 0 : Wire.maxEvaluationKeysBytes(db.compact()))
        .build();
  }
}
