package org.jpir.client;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jpir.core.client.PirQueryClient;
import org.jpir.datasets.keyword.KeywordParams;

/**
 * Private keyword lookup over any {@link PirQueryClient}: a key's value sits in one of its
 * candidate buckets of a cuckoo table (or the manifest's stash); the client queries every
 * candidate bucket, for every key, so the server sees the same number of queries whether the key
 * is present or not.
 */
public final class KeywordLookup {
  private final PirQueryClient client;
  private final KeywordParams table;

  /** Lookups in the keyword table {@code table} through {@code client} (of the same database). */
  public KeywordLookup(PirQueryClient client, KeywordParams table) {
    this.client = client;
    this.table = table;
  }

  /** The record indices (buckets) to query for {@code key}: always all of its candidates. */
  public long[] buckets(byte[] key) {
    return Arrays.stream(table.candidates(key)).asLongStream().toArray();
  }

  /**
   * The value of {@code key} from the answers (wire form) to the queries of {@link #buckets}, in
   * that order: found in a bucket or the stash, else empty (the key is absent).
   *
   * @throws IllegalArgumentException when the number of answers differs from the buckets', or an
   *     answer is malformed
   */
  public Optional<byte[]> value(byte[] key, List<byte[]> answers) {
    long[] buckets = buckets(key);
    if (answers.size() != buckets.length) {
      throw new IllegalArgumentException(answers.size() + " answers for the " + buckets.length
          + " candidate buckets of the key");
    }
    byte[][] records = new byte[buckets.length][];
    for (int j = 0; j < buckets.length; j++) {
      records[j] = client.decodeMessage(answers.get(j), buckets[j]);
    }
    return table.find(key, records);
  }
}
