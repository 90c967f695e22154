package org.jpir.datasets.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.SyntheticRecords;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.cli.PresetOption;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Import throughput on one thread: generates a synthetic database of {@code --mib} MiB
 * ({@code --record-size} bytes a record), writes it as a stored database into {@code --dir}
 * (fsync included), verifies every chunk, and prints MB/s and stored vs raw bytes. Also times the
 * generator alone, to split source cost from write cost. Deletes the database unless --keep.
 */
@Command(name = "ImportBench", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
    description = "Import throughput of a synthetic database on one"
    + " thread.")
public final class ImportBench implements Callable<Integer> {
  @Option(names = "--mib", description = "raw database size (default: ${DEFAULT-VALUE})")
  long mib = 1024;

  @Option(names = "--record-size", description = "record size (default: ${DEFAULT-VALUE})")
  int recordSize = 1024;

  @Option(names = "--dir", description = "where to write (default: a directory under the"
      + " temporary directory)")
  Path dir = Path.of(System.getProperty("java.io.tmpdir"), "jpir-import-bench");

  @Mixin
  PresetOption preset = new PresetOption(Presets.ONIONPIR_4096);

  @Option(names = "--keep", description = "keep the database")
  boolean keep;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ImportBench()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    Params p = preset.params();
    long count = (mib << 20) / recordSize;
    SyntheticRecords src = new SyntheticRecords(count, recordSize, 1);
    Geometry g = Geometry.choose(p, count, recordSize, 1024);
    System.out.printf("jdk %s, %s; %d records x %d B = %.1f MiB raw; %s: %d rows x %d cols%n",
        System.getProperty("java.version"), System.getProperty("os.arch"), count, recordSize,
        g.rawBytes() / 1048576.0, p.id(), g.rows(), g.cols());

    byte[] buf = new byte[recordSize];
    long t0 = System.nanoTime();
    long sink = 0;
    for (long i = 0; i < count; i++) {
      src.read(i, buf, 0);
      sink += buf[0];
    }
    double gen = (System.nanoTime() - t0) / 1e9;
    System.out.printf("generator alone: %.2f s = %.1f MB/s (sink %d)%n", gen,
        g.rawBytes() / 1e6 / gen, sink);

    if (Files.exists(dir)) {
      deleteRecursively(dir);
    }
    t0 = System.nanoTime();
    Manifest m = StoredDatabaseWriter.write(dir, p, g, src, 0, "bench", Map.of(), null);
    double write = (System.nanoTime() - t0) / 1e9;
    long onDisk;
    try (Stream<Path> s = Files.list(dir)) {
      onDisk = s.mapToLong(f -> f.toFile().length()).sum();
    }
    System.out.printf("import (generate + CRC32C + write + fsync + rename): %.2f s = %.1f MB/s; "
        + "%d chunks of %d columns%n", write, g.rawBytes() / 1e6 / write, m.chunks().size(),
        m.columnsPerChunk());
    System.out.printf("stored %d bytes (chunks %d + manifest) for %d raw bytes: %.6fx%n", onDisk,
        m.storedBytes(), g.rawBytes(), (double) onDisk / g.rawBytes());
    t0 = System.nanoTime();
    try (StoredDatabase db = StoredDatabase.open(dir, p)) {
      db.verify();
    }
    double ver = (System.nanoTime() - t0) / 1e9;
    System.out.printf("verify: %.2f s = %.1f MB/s (page cache warm)%n", ver,
        g.rawBytes() / 1e6 / ver);
    if (!keep) {
      deleteRecursively(dir);
    }
    return 0;
  }

  private static void deleteRecursively(Path p) throws IOException {
    try (Stream<Path> s = Files.walk(p)) {
      for (Path f : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(f);
      }
    }
  }
}
