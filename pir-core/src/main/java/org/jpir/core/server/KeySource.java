package org.jpir.core.server;

/**
 * Where a JVM that did not accept a batch's queries finds the evaluation-key bytes a key
 * fingerprint names (the hex SHA-256 of the bytes, {@link QueryBatch#keysDigest}). {@link
 * QueryBatch#expanded} asks only when this JVM's cache of prepared keys misses, and checks the
 * bytes against the fingerprint before preparing them. A transport ships the bytes once per
 * fingerprint (spark-jobs: one broadcast each) and a batch carries only the fingerprints.
 */
@FunctionalInterface
public interface KeySource {
  /** A source that holds no keys: every lookup fails (batches without keys, tests). */
  KeySource NONE = digest -> {
    throw new IllegalStateException("no evaluation-key bytes are available for key fingerprint "
        + digest);
  };

  /**
   * The key bytes whose hex SHA-256 is {@code digest} (not copied: do not modify).
   *
   * @throws IllegalStateException when this source does not hold them
   */
  byte[] keyBytes(String digest);
}
