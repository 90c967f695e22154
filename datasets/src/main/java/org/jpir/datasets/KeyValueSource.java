package org.jpir.datasets;

/**
 * Random access to (key, value) entries, the input of a keyword table. Entry i is read on its own
 * (files keep an offset index), so the table never holds every value in memory.
 */
public interface KeyValueSource {
  /** Number of entries. */
  long size();

  /** Key of entry i (non-empty). */
  byte[] key(long i);

  /** Value of entry i. */
  byte[] value(long i);

  /** Names entry i in error messages (e.g. "line 12 (key 'abc')"). */
  default String describe(long i) {
    return "entry " + i;
  }
}
