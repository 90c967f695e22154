package org.jpir.spark;

import java.util.BitSet;
import org.jpir.datasets.store.Manifest;
import org.jpir.spark.server.ColumnPartitioning;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.source.HadoopStoredSourceFactory;

/**
 * Watches a stored database for a new data version and moves a {@link DistributedPirServer} to
 * it: only the partitions whose columns lie in a chunk that changed (file, checksum or record
 * count) are prepared again, from a source pinned to the new version; the others are passed
 * through from the cache.
 */
public final class VersionWatch {
  private final String uri;
  private Manifest current;
  private int refused;

  /** Watches the database at {@code uri} (any Hadoop FileSystem URI), from its current version. */
  public VersionWatch(String uri) {
    this.uri = uri;
    this.current = HadoopStoredSourceFactory.manifest(uri, 0);
  }

  /**
   * A watch on a {@code --db} spec: a local directory or a URI; null for a synthetic database
   * (which has no versions) or a spec that is no stored database (the caller's own check then
   * names what is wrong).
   */
  public static VersionWatch of(String dbSpec) {
    if (dbSpec.startsWith("synthetic:")) {
      return null;
    }
    try {
      return new VersionWatch(PirJob.storage(dbSpec).toString());
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The data version the last switch (or the start) moved to. */
  public int version() {
    return current.dataVersion();
  }

  /** The manifest of {@link #version()}. */
  public Manifest manifest() {
    return current;
  }

  /** One switch: the new server, the versions, partitions prepared again of all, seconds. */
  public record Switch(DistributedPirServer server, int from, int to, long reprepared,
      int partitions, double seconds) {}

  /**
   * Null while the database's current version is the one served (or one already refused);
   * otherwise the server moved to the new version, the old server still cached (the caller
   * unpersists it) unless every partition changed (then it is dropped before preparing).
   *
   * @throws IllegalArgumentException when the new version is not the same grid and chunking
   * @throws IllegalStateException when its partitions could not all be cached (either way the
   *     version is remembered as refused, and the old version goes on serving)
   */
  public Switch poll(DistributedPirServer server) {
    int v = HadoopStoredSourceFactory.currentVersion(uri);
    if (v == current.dataVersion() || v == refused) {
      return null;
    }
    long t0 = System.nanoTime();
    Manifest m;
    BitSet changed;
    try {
      m = HadoopStoredSourceFactory.manifest(uri, v);
      changed = changedPartitions(current, m, server.partitioning());
    } catch (IllegalArgumentException e) {
      refused = v;
      throw e;
    }
    long[] n = new long[1];
    DistributedPirServer next;
    if (changed.cardinality() == server.partitioning().count()) {
      // nothing to pass through: drop the old partitions first, so memory holds one version
      // (the old server then prepares again from its source if it is used after a failure)
      server.unpersist();
    }
    try {
      next = server.withChangedPartitions(m.geometry(),
          new HadoopStoredSourceFactory(uri, m.columnsPerChunk(), v), changed, n);
    } catch (Exception e) { // also a SparkException from the job, rethrown as it came
      refused = v; // not tried again on every poll; a later version is
      throw e;
    }
    int from = current.dataVersion();
    current = m;
    return new Switch(next, from, v, n[0], server.partitioning().count(),
        (System.nanoTime() - t0) / 1e9);
  }

  /**
   * The partitions of {@code parts} holding a column of a chunk that differs between {@code a}
   * and {@code b} (file name, CRC32C or records).
   *
   * @throws IllegalArgumentException when {@code b} changes the preset, grid or chunking
   */
  static BitSet changedPartitions(Manifest a, Manifest b, ColumnPartitioning parts) {
    if (!a.presetId().equals(b.presetId()) || a.columnsPerChunk() != b.columnsPerChunk()
        || a.geometry().rows() != b.geometry().rows() || a.geometry().cols() != b.geometry().cols()
        || a.geometry().recordSize() != b.geometry().recordSize()) {
      throw new IllegalArgumentException("data version " + b.dataVersion() + " changes the preset,"
          + " grid or chunking (" + b.presetId() + ", " + b.geometry() + ", " + b.columnsPerChunk()
          + " columns a chunk): restart the service on it");
    }
    BitSet chunks = new BitSet();
    for (int k = 0; k < a.chunks().size(); k++) {
      Manifest.Chunk x = a.chunks().get(k);
      Manifest.Chunk y = b.chunks().get(k);
      if (!x.file().equals(y.file()) || x.crc32c() != y.crc32c() || x.records() != y.records()) {
        chunks.set(k);
      }
    }
    BitSet out = new BitSet();
    for (int i = 0; i < parts.count(); i++) {
      int k0 = a.chunkOfColumn(parts.first(i));
      int k1 = a.chunkOfColumn(parts.first(i) + parts.size(i) - 1);
      if (chunks.nextSetBit(k0) >= 0 && chunks.nextSetBit(k0) <= k1) {
        out.set(i);
      }
    }
    return out;
  }
}
