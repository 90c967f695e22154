package org.jpir.service.db;

import java.util.Locale;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.api.java.JavaSparkContext;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.keyword.KeywordParams;
import org.jpir.spark.VersionWatch;
import org.jpir.spark.server.DistributedPirServer;
import org.jpir.spark.source.DatabaseSpec;

/**
 * One named database of the service: its preset and geometry (fixed for the service's life),
 * the version served now and, for a grace period after a data update, the version before it.
 * Queries name a version by its config id ({@link ConfigId}); {@link #versionFor} finds it.
 * Versions change only in {@link #refresh}, which the micro-batcher calls between
 * micro-batches, so one micro-batch's queries of one config id are answered on one version.
 * Reads are thread-safe; {@link #refresh} runs on one thread.
 */
public final class ServedDatabase {
  private static final Logger LOG = LogManager.getLogger(ServedDatabase.class);

  /** A prepared version: its server, data version and config id. */
  public record Version(DistributedPirServer server, int dataVersion, String configId) {}

  private final String name;
  private final Params params;
  private final CompactParams compact;
  private final Geometry geometry;
  private final Map<String, String> keyword;
  private final VersionWatch watch;
  private final long graceNanos;
  private volatile Version current;
  private volatile Version previous;
  private volatile long previousUntilNanos;

  /**
   * A database served from {@code server} (prepared for {@code p} and {@code g}); {@code watch}
   * (null: none) moves it to new data versions, the previous one kept {@code graceMillis}.
   */
  public ServedDatabase(String name, Params p, Geometry g, Map<String, String> keyword,
      DistributedPirServer server, VersionWatch watch, int dataVersion, long graceMillis) {
    if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("database name '" + name + "' must be 1 to 64"
          + " characters of [A-Za-z0-9._-]");
    }
    if (graceMillis < 0) {
      throw new IllegalArgumentException("grace period " + graceMillis + " ms must be >= 0");
    }
    this.name = name;
    this.params = p;
    this.compact = Presets.compactFor(p);
    this.geometry = g;
    this.keyword = Map.copyOf(keyword);
    this.watch = watch;
    this.graceNanos = graceMillis * 1_000_000L;
    this.current = new Version(server, dataVersion, ConfigId.of(name, p, g, keyword,
        dataVersion));
  }

  /**
   * Prepares {@code spec} (a stored database directory or URI, or {@code synthetic:...}) on the
   * executors for Spark batches of {@code sparkBatch} queries, as {@code serve} does; a stored
   * database is watched for new data versions.
   *
   * @throws IllegalArgumentException when the spec, preset or executors' memory do not do
   */
  public static ServedDatabase prepare(JavaSparkContext sc, String name, String spec,
      String preset, int maxRows, int partitions, int sparkBatch, long graceMillis) {
    VersionWatch watch = VersionWatch.of(spec); // before preparing, as serve does
    DatabaseSpec db = DatabaseSpec.parse(spec);
    Params p = db.params(preset);
    Geometry g = db.geometry(p, maxRows);
    DistributedPirServer server = DistributedPirServer.prepare(sc, p, g, db.factory(),
        partitions, new DistributedPirServer.Workload(sparkBatch, Presets.compactFor(p)));
    Map<String, String> kw = KeywordParams.fromManifest(db.manifestExtra())
        .map(KeywordParams::toManifest).orElse(Map.of());
    return new ServedDatabase(name, p, g, kw, server, watch, watch == null ? 0
        : watch.version(), graceMillis);
  }

  /** The name queries address. */
  public String name() {
    return name;
  }

  /** The preset of the server's parameters. */
  public Params params() {
    return params;
  }

  /** The compact preset when queries are compact, else null. */
  public CompactParams compact() {
    return compact;
  }

  /** The geometry (the same for every version). */
  public Geometry geometry() {
    return geometry;
  }

  /** The keyword-table parameters ({@code keyword.*} manifest entries), empty if none. */
  public Map<String, String> keyword() {
    return keyword;
  }

  /** The version served now. */
  public Version current() {
    return current;
  }

  /** The largest valid query for this database (bytes). */
  public long maxQueryBytes() {
    return compact != null ? Wire.maxCompactQueryBytes(compact, geometry)
        : Wire.maxQueryBytes(params, geometry);
  }

  /** The largest answer to one query (bytes). */
  public long maxAnswerBytes() {
    return Wire.maxAnswerBytes(params, geometry);
  }

  /**
   * The version a query made for {@code configId} is answered on at {@code nowNanos}: the
   * current one, or the previous one while its grace period lasts; null otherwise.
   */
  public Version versionFor(String configId, long nowNanos) {
    Version c = current;
    if (c.configId().equals(configId)) {
      return c;
    }
    Version p = previous;
    if (p != null && p.configId().equals(configId) && nowNanos - previousUntilNanos < 0) {
      return p;
    }
    return null;
  }

  /** Whether {@code v} may still answer at {@code nowNanos} (current, or previous in grace). */
  public boolean serves(Version v, long nowNanos) {
    return versionFor(v.configId(), nowNanos) == v;
  }

  /**
   * Between micro-batches only: drops the previous version once its grace period is over, then
   * moves to a new data version when the watch sees one (a version that cannot be served is
   * logged and the current one goes on). Returns a line describing a switch, or null.
   */
  public String refresh(long nowNanos) {
    Version p = previous;
    if (p != null && nowNanos - previousUntilNanos >= 0) {
      previous = null;
      release(p);
    }
    if (watch == null) {
      return null;
    }
    VersionWatch.Switch sw;
    try {
      sw = watch.poll(current.server());
    } catch (Exception e) { // a failed Spark job too: the old version goes on serving
      LOG.error("service: {}: staying on data version {}: {}", name, current.dataVersion(),
          e.toString());
      return null;
    }
    if (sw == null) {
      return null;
    }
    Version old = current;
    Version before = previous;
    current = new Version(sw.server(), sw.to(), ConfigId.of(name, params, geometry, keyword,
        sw.to()));
    if (before != null) {
      release(before);
    }
    if (graceNanos > 0) {
      previousUntilNanos = nowNanos + graceNanos;
      previous = old;
    } else {
      previous = null;
      release(old);
    }
    return String.format(Locale.ROOT, "service: %s: data version %d -> %d (config %s): %d of %d"
        + " partitions prepared again in %.2f s; the previous version answers for %d ms more",
        name, sw.from(), sw.to(), current.configId(), sw.reprepared(), sw.partitions(),
        sw.seconds(), graceNanos / 1_000_000L);
  }

  private void release(Version v) {
    if (v.server() != current.server()) {
      v.server().unpersist();
    }
  }
}
