package org.jpir.service.rpc;

import org.jpir.api.v1.DatabaseConfig;
import org.jpir.service.db.ServedDatabase;

/** The tests' access to the config message of a served database. */
public final class ConfigTestAccess {
  private ConfigTestAccess() {}

  /** {@link ConfigMessages#of}. */
  public static DatabaseConfig config(ServedDatabase db) {
    return ConfigMessages.of(db);
  }
}
