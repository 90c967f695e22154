package org.jpir.datasets.store;

/** A stored database is missing, incomplete, corrupted or does not match what the caller expects. */
public final class StoredDatabaseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoredDatabaseException(String message) {
    super(message);
  }

  public StoredDatabaseException(String message, Throwable cause) {
    super(message, cause);
  }
}
