package org.jpir.datasets.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jpir.core.Geometry;
import org.jpir.core.Params;
import org.jpir.core.Presets;
import org.jpir.core.RecordSource;
import org.jpir.core.SyntheticRecords;
import org.jpir.datasets.KeyValueSource;
import org.jpir.datasets.WordList;
import org.jpir.datasets.keyword.KeywordParams;
import org.jpir.datasets.keyword.KeywordTable;
import org.jpir.datasets.source.DelimitedRecords;
import org.jpir.datasets.source.FixedSizeRecords;
import org.jpir.datasets.source.LineRecords;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabase;
import org.jpir.datasets.store.StoredDatabaseException;
import org.jpir.datasets.progress.Progress;
import org.jpir.datasets.store.StoredDatabaseWriter;

/**
 * {@code data} subcommands:
 *
 * <pre>
 * import synthetic --count N --record-size S [--seed X] --out DIR [common]
 * import lines  --in FILE --out DIR [--record-size S] [--truncate] [common]
 * import csv|tsv --in FILE --out DIR [--key-column K] [--value-column V] [--header]
 *                [--record-size S] [--truncate] [--keyword] [common]
 * import binary --in FILE --record-size S --out DIR [common]
 * import wordlist --in WORDS --out DIR [common]           (keyword table; see fetch-wordlist.sh)
 *   common: [--preset ID (default onionpir-4096-compact-128)] [--max-rows R (default 1024)]
 *           [--progress auto|bar|lines|quiet (default auto: a bar on a terminal, else quiet)]
 *           [--columns-per-chunk C (power of two; default: chunks of at most 64 MiB)]
 *           [--keyword-seed X]
 * manifest DIR       prints the manifest
 * verify DIR         checks every chunk's checksum; exit 1 naming the chunk on failure
 * lookup DIR KEY     plaintext-side keyword lookup (reads the candidate buckets directly, no PIR)
 * </pre>
 *
 * With --keyword (csv/tsv) and for wordlist, the record size is the bucket size; --record-size
 * then sizes the value field.
 */
public final class DatasetsCli {
  private DatasetsCli() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs a subcommand; returns the exit code (0 ok, 1 verification/data failure, 2 usage). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.println("usage: data import|manifest|verify|lookup ... (see DatasetsCli javadoc)");
      return 2;
    }
    try {
      switch (args[0]) {
        case "import":
          return importCmd(args, out);
        case "manifest":
          need(args, 2, "manifest DIR");
          out.print(StoredDatabase.readManifest(Path.of(args[1])).toText());
          return 0;
        case "verify":
          need(args, 2, "verify DIR");
          return verify(Path.of(args[1]), out, err);
        case "lookup":
          need(args, 3, "lookup DIR KEY");
          return lookup(Path.of(args[1]), args[2], out, err);
        default:
          err.println("unknown subcommand '" + args[0] + "' (import, manifest, verify, lookup)");
          return 2;
      }
    } catch (UsageException e) {
      err.println("usage: " + e.getMessage());
      return 2;
    } catch (StoredDatabaseException | IllegalArgumentException | IllegalStateException
        | IOException e) {
      err.println("error: " + e.getMessage());
      return 1;
    }
  }

  private static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String m) {
      super(m);
    }
  }

  private static void need(String[] args, int n, String usage) {
    if (args.length != n) {
      throw new UsageException(usage);
    }
  }

  private static int verify(Path dir, PrintStream out, PrintStream err) throws IOException {
    try (StoredDatabase db = StoredDatabase.open(dir)) {
      long t0 = System.nanoTime();
      db.verify();
      double s = (System.nanoTime() - t0) / 1e9;
      out.printf("ok: %d chunks, %d bytes verified in %.2f s%n", db.manifest().chunks().size(),
          db.manifest().storedBytes(), s);
      return 0;
    } catch (StoredDatabaseException e) {
      err.println("verify failed: " + e.getMessage());
      return 1;
    }
  }

  private static int lookup(Path dir, String key, PrintStream out, PrintStream err)
      throws IOException {
    try (StoredDatabase db = StoredDatabase.open(dir)) {
      Optional<KeywordParams> kp = KeywordParams.fromManifest(db.manifest().extra());
      if (kp.isEmpty()) {
        err.println("error: " + dir + " is not a keyword database");
        return 1;
      }
      Optional<byte[]> v = kp.get().lookup(key.getBytes(StandardCharsets.UTF_8), b -> {
        byte[] r = new byte[db.recordSize()];
        db.read(b, r, 0);
        return r;
      });
      if (v.isPresent()) {
        out.println(new String(v.get(), StandardCharsets.UTF_8));
        return 0;
      }
      out.println("absent");
      return 3;
    }
  }

  private static int importCmd(String[] args, PrintStream out) throws IOException {
    if (args.length < 2) {
      throw new UsageException("import synthetic|lines|csv|tsv|binary|wordlist ...");
    }
    String type = args[1];
    Map<String, String> o = new HashMap<>();
    for (int i = 2; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--truncate") || a.equals("--header") || a.equals("--keyword")) {
        o.put(a, "true");
      } else if (a.startsWith("--") && i + 1 < args.length) {
        o.put(a, args[++i]);
      } else {
        throw new UsageException("unexpected argument '" + a + "'");
      }
    }
    Params p = Presets.byId(o.getOrDefault("--preset", Presets.DEFAULT.id()));
    int maxRows = Integer.parseInt(o.getOrDefault("--max-rows", "1024"));
    int cpc = Integer.parseInt(o.getOrDefault("--columns-per-chunk", "0"));
    int recordSize = Integer.parseInt(o.getOrDefault("--record-size", "0"));
    boolean truncate = o.containsKey("--truncate");
    Progress.Mode progress = Progress.Mode.parse(o.getOrDefault("--progress", "auto"));
    Path outDir = Path.of(req(o, "--out"));
    RecordSource src;
    Closeable toClose = null;
    String desc;
    Map<String, String> extra = new LinkedHashMap<>();
    long t0 = System.nanoTime();
    switch (type) {
      case "synthetic": {
        long count = Long.parseLong(req(o, "--count"));
        long seed = Long.parseLong(o.getOrDefault("--seed", "1"));
        if (recordSize < 1) {
          throw new UsageException("synthetic needs --record-size");
        }
        src = new SyntheticRecords(count, recordSize, seed);
        desc = "synthetic count=" + count + " size=" + recordSize + " seed=" + seed;
        break;
      }
      case "lines": {
        LineRecords l = LineRecords.open(Path.of(req(o, "--in")), recordSize, truncate);
        src = l;
        toClose = l;
        desc = "lines " + o.get("--in");
        break;
      }
      case "binary": {
        if (recordSize < 1) {
          throw new UsageException("binary needs --record-size");
        }
        FixedSizeRecords f = FixedSizeRecords.open(Path.of(req(o, "--in")), recordSize);
        src = f;
        toClose = f;
        desc = "binary " + o.get("--in");
        break;
      }
      case "csv":
      case "tsv": {
        boolean kw = o.containsKey("--keyword");
        DelimitedRecords d = DelimitedRecords.open(Path.of(req(o, "--in")), type.equals("csv"),
            o.containsKey("--header"), Integer.parseInt(o.getOrDefault("--key-column", "0")),
            Integer.parseInt(o.getOrDefault("--value-column", "1")), kw ? 0 : recordSize,
            truncate);
        toClose = d;
        desc = type + " " + o.get("--in") + (kw ? " keyword" : "");
        src = kw ? keyword(d, o, recordSize, truncate, extra, out) : d;
        break;
      }
      case "wordlist": {
        WordList w = WordList.open(Path.of(req(o, "--in")));
        toClose = w;
        desc = "wordlist " + o.get("--in");
        src = keyword(w, o, recordSize, truncate, extra, out);
        break;
      }
      default:
        throw new UsageException("unknown source type '" + type
            + "' (synthetic, lines, csv, tsv, binary, wordlist)");
    }
    try {
      Geometry g = Presets.geometry(p, src.recordCount(), src.recordSize(), maxRows);
      out.printf("importing %s: %d records of %d bytes (%.1f MiB) -> %s, preset %s, %d rows x %d"
          + " cols x %d planes, %d records per polynomial%n", desc, g.recordCount(),
          g.recordSize(), g.rawBytes() / 1048576.0, outDir, p.id(), g.rows(), g.cols(),
          g.planes(), g.recordsPerPoly());
      long tw = System.nanoTime();
      Manifest m;
      try (Progress bar = Progress.start("import", g.rawBytes(), "MiB", 1 << 20, progress,
          out)) {
        m = StoredDatabaseWriter.write(outDir, p, g, src, cpc, desc, extra,
            (done, total) -> bar.stepTo(done * g.rawBytes() / Math.max(1, total)));
      }
      double write = (System.nanoTime() - tw) / 1e9;
      double all = (System.nanoTime() - t0) / 1e9;
      out.printf("wrote %d chunks (%d columns each), %d bytes stored for %d raw record bytes;"
          + " write %.2f s = %.1f MB/s (total with indexing %.2f s)%n", m.chunks().size(),
          m.columnsPerChunk(), m.storedBytes(), g.rawBytes(), write, g.rawBytes() / 1e6 / write,
          all);
      return 0;
    } finally {
      if (toClose != null) {
        toClose.close();
      }
    }
  }

  private static RecordSource keyword(KeyValueSource kv, Map<String, String> o, int valueSize,
      boolean truncate, Map<String, String> extra, PrintStream out) {
    long seed = Long.parseLong(o.getOrDefault("--keyword-seed", "1"));
    KeywordTable t = KeywordTable.build(kv,
        KeywordTable.Options.defaults(seed).withValueField(valueSize, truncate));
    KeywordParams kp = t.params();
    extra.putAll(kp.toManifest());
    out.printf("keyword table: %d entries in %d buckets of %d slot(s) x %d bytes (key field %d,"
        + " value field %d), %d choices = %d PIR retrievals per lookup, stash %d, space overhead"
        + " %.2fx of raw entry bytes%n", kp.entries(), kp.buckets(), kp.slotsPerBucket(),
        kp.slotBytes(), kp.keyField(), kp.valueField(), kp.choices(), kp.retrievalsPerLookup(),
        t.stashSize(), t.spaceOverhead());
    return t;
  }

  private static String req(Map<String, String> o, String k) {
    String v = o.get(k);
    if (v == null) {
      throw new UsageException("missing " + k);
    }
    return v;
  }
}
