package org.jpir.datasets.store;

import java.util.List;

/**
 * The files of one stored database directory, as {@link StoredDatabaseUpdater} needs them: a
 * local directory ({@link LocalDatabaseFiles}) or any Hadoop FileSystem (in spark-jobs). Names are
 * plain file names inside the directory.
 */
public interface DatabaseFiles {
  /** Names of the directory's entries. */
  List<String> list();

  /** Length of the regular file {@code name}, or -1 when it is absent or not a regular file. */
  long length(String name);

  /** The bytes of the regular file {@code name}, refused unread beyond {@code maxBytes}. */
  byte[] read(String name, long maxBytes);

  /**
   * Writes {@code bytes} durably to {@code name}: to a hidden temporary file, flushed to stable
   * storage, then renamed to {@code name} (replacing a stale file of that name left by a crash).
   */
  void writeDurable(String name, byte[] bytes);

  /**
   * Publishes {@code bytes} as {@code name}: written and flushed under a hidden temporary name, then
   * renamed to {@code name} in one step, so a reader sees the whole file or none.
   *
   * @throws StoredDatabaseException when {@code name} already exists
   */
  void publish(String name, byte[] bytes);

  /** Creates {@code name} holding {@code bytes} unless it exists; false when it did. */
  boolean createExclusive(String name, byte[] bytes);

  /** Deletes {@code name} when present. */
  void delete(String name);

  /** Where the directory is, for messages. */
  String describe();
}
