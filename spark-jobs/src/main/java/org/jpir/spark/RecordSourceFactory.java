package org.jpir.spark;

import java.io.Serializable;
import org.jpir.core.RecordSource;

/**
 * How an executor opens the database's records: a small serializable description (a path, a
 * generator seed) shipped with each task, never the records themselves.
 */
public interface RecordSourceFactory extends Serializable {
  /** Opens the source (on an executor). */
  RecordSource open();

  /** A one-line description for logs. */
  String describe();
}
