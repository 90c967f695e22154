package org.jpir.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.octet_length;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.RecordSource;
import org.jpir.core.server.SizedRecordSource;
import org.jpir.datasets.KeyValueList;
import org.jpir.datasets.LengthPrefix;
import org.jpir.datasets.ValueTooLargeException;
import org.jpir.datasets.cli.JpirVersion;
import org.jpir.datasets.cli.PresetOption;
import org.jpir.datasets.keyword.KeywordParams;
import org.jpir.datasets.keyword.KeywordTable;
import org.jpir.datasets.store.Manifest;
import org.jpir.datasets.store.StoredDatabaseWriter;
import org.jpir.spark.source.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code setup table}: a Parquet, CSV or JSON table read through Spark's DataFrame readers and
 * written as a stored database (datasets/FORMAT.md) by the datasets module's writer. The key and
 * value columns are chosen by name. The value column's bytes are its binary value, or else the
 * UTF-8 bytes of its value cast to a string; each record is one length-prefixed field ({@link
 * LengthPrefix}) of the record size (given, or the smallest that holds the longest value).
 *
 * <ul>
 *   <li>{@code --mode index} (default): the key column is an integer type holding every record
 *       index {@code 0 .. n-1} exactly once; record k is the value of the row whose key is k. The
 *       rows are streamed to the writer in key order ({@code sort} then {@code toLocalIterator}),
 *       so the driver holds one partition at a time.
 *   <li>{@code --mode keyword}: a cuckoo keyword table ({@link KeywordTable}) over the key
 *       column's bytes (as for values); the table is built on the driver, which holds every
 *       entry.
 * </ul>
 *
 * The table ({@code --path}) is whatever Spark's readers take: a local path, an {@code hdfs://} or
 * {@code s3a://} URI, a directory of part files. {@code --out} is a new local directory or a new
 * entry on a Hadoop file system ({@code hdfs://nn/pir/db}: written locally, then copied into
 * place and renamed, {@link Storage#putDirectory}).
 *
 * <p>Refused with a message naming the problem: a missing column (the table's columns are listed),
 * a key or value of a type that has no bytes (struct, array, map), a null key or value, a
 * missing or repeated index, a value longer than the record holds (unless {@code --truncate
 * true}).
 */
public final class TableImport {
  /** The table formats accepted by {@code --format}. */
  public static final Set<String> FORMATS = Set.of("parquet", "csv", "json");

  private TableImport() {}

  /** The options of {@code setup table} (see the class comment and README). */
  @Command(name = "table", mixinStandardHelpOptions = true, versionProvider = JpirVersion.class,
      description = "Import a Parquet, CSV or JSON table through Spark's"
      + " DataFrame readers.")
  static final class Args implements Callable<Integer> {
    @Option(names = "--format", required = true, description = "parquet, csv or json")
    String format;

    @Option(names = "--path", required = true, description = "the table (any path Spark reads)")
    String path;

    @Option(names = "--key-column", required = true,
        description = "the index (index mode) or key (keyword mode) column")
    String keyColumn;

    @Option(names = "--value-column", required = true, description = "the value column")
    String valueColumn;

    @Option(names = "--out", required = true, description = "a new database directory or URI")
    String out;

    @Option(names = "--mode", description = "index or keyword (default: ${DEFAULT-VALUE})")
    String mode = "index";

    @Option(names = "--record-size", description = "record (keyword: value field) size")
    int recordSize;

    @Option(names = "--truncate", description = "true: cut values longer than the record"
        + " (default: ${DEFAULT-VALUE})")
    String truncate = "false";

    @Option(names = "--header", description = "CSV: a header row names the columns (default:"
        + " ${DEFAULT-VALUE})")
    String header = "true";

    @Mixin
    PresetOption preset = new PresetOption(Presets.ONIONPIR_4096);

    @Option(names = "--max-rows", description = "most rows of the grid (default:"
        + " ${DEFAULT-VALUE})")
    int maxRows = 1024;

    @Option(names = "--columns-per-chunk", description = "columns per chunk file")
    int columnsPerChunk;

    @Option(names = "--keyword-seed", description = "keyword table seed (default:"
        + " ${DEFAULT-VALUE})")
    long keywordSeed = 1;

    @Option(names = "--master", description = "Spark master when none is configured (default:"
        + " ${DEFAULT-VALUE})")
    String master = "local[*]";

    /** Parses {@code args} (the options after {@code setup table}). */
    static Args parse(String... args) {
      Args a = new Args();
      new CommandLine(a).parseArgs(args);
      return a;
    }

    /** Imports as these options say ({@link TableImport#main}), printing to stdout. */
    @Override
    public Integer call() {
      return TableImport.main(this, System.out);
    }
  }

  /**
   * {@code setup table ...} from the command line: starts a Spark session (local mode unless a
   * master is given), imports, stops it. Returns 0; refused input is an {@link
   * IllegalArgumentException} naming the problem (exit code 2 from {@link PirJob#main}).
   */
  public static int main(Args o, PrintStream out) {
    Out.of(o.out); // an existing --out is refused before Spark starts
    SparkConf c = new SparkConf();
    c.setIfMissing("spark.app.name", "jpir setup table");
    if (!c.contains("spark.master")) {
      c.setMaster(o.master);
    }
    SparkSession spark = SparkSession.builder().config(c).getOrCreate();
    try {
      spark.sparkContext().setLogLevel("WARN");
      run(spark, o, out);
      return 0;
    } catch (IOException e) {
      throw new IllegalArgumentException("setup table: " + e, e);
    } finally {
      spark.stop();
    }
  }

  /** Imports with {@code spark}'s readers as {@code o} says; returns the manifest written. */
  static Manifest run(SparkSession spark, Args o, PrintStream out) throws IOException {
    String format = o.format.toLowerCase(Locale.ROOT);
    if (!FORMATS.contains(format)) {
      throw new IllegalArgumentException("setup table: --format must be one of parquet, csv,"
          + " json, got '" + format + "'");
    }
    String mode = o.mode;
    if (!mode.equals("index") && !mode.equals("keyword")) {
      throw new IllegalArgumentException("setup table: --mode must be index or keyword, got '"
          + mode + "'");
    }
    String path = o.path;
    String keyName = o.keyColumn;
    String valueName = o.valueColumn;
    Out outDir = Out.of(o.out);
    int recordSize = o.recordSize;
    String cut = o.truncate;
    if (!cut.equals("true") && !cut.equals("false")) {
      throw new IllegalArgumentException("setup table: --truncate must be true or false, got '"
          + cut + "'");
    }
    boolean truncate = cut.equals("true");
    Params p = o.preset.params();
    int maxRows = o.maxRows;
    int cpc = o.columnsPerChunk;

    DataFrameReader reader = spark.read().format(format);
    if (format.equals("csv")) {
      // a CSV table names its columns in a header row; every field is a string unless inferred
      reader = reader.option("header", o.header).option("inferSchema", "true");
    }
    Dataset<Row> df;
    try {
      df = reader.load(path);
    } catch (Exception e) {
      // Spark's AnalysisException (no such path, no schema) is checked in Java's terms
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalArgumentException("cannot read " + format + " table " + path + ": "
          + AnswerJob.firstLine(e), e);
    }
    StructType schema = df.schema();
    DataType keyType = field(schema, keyName, "key", path).dataType();
    DataType valueType = field(schema, valueName, "value", path).dataType();
    String what = format + " table " + path;
    Column value = bytes(col(quoted(valueName)), valueType, "value", valueName, what);
    String desc = "table " + format + " " + path + " key=" + keyName + " value=" + valueName
        + (mode.equals("keyword") ? " keyword" : "");
    if (mode.equals("keyword")) {
      Column key = bytes(col(quoted(keyName)), keyType, "key", keyName, what);
      return keyword(df.select(key.as("k"), value.as("v")), o, p, maxRows, cpc, recordSize,
          truncate, outDir, desc, what, out);
    }
    if (!(keyType instanceof IntegralType)) {
      throw new IllegalArgumentException(what + ": key column '" + keyName + "' is "
          + keyType.simpleString() + "; --mode index needs an integer column holding the record"
          + " indices 0..n-1 (or use --mode keyword)");
    }
    Dataset<Row> kv = df.select(col(quoted(keyName)).cast("long").as("k"), value.as("v"));
    Row st = kv.agg(count(lit(1)), count(col("k")), count(col("v")), min(col("k")),
        max(col("k")), max(octet_length(col("v")))).first();
    long n = st.getLong(0);
    if (n == 0) {
      throw new IllegalArgumentException(what + " has no rows");
    }
    if (st.getLong(1) != n) {
      throw new IllegalArgumentException(what + ": key column '" + keyName + "' is null in "
          + (n - st.getLong(1)) + " of " + n + " rows");
    }
    if (st.getLong(2) != n) {
      throw new IllegalArgumentException(what + ": value column '" + valueName + "' is null in "
          + (n - st.getLong(2)) + " of " + n + " rows");
    }
    long lo = st.getLong(3);
    long hi = st.getLong(4);
    if (lo != 0 || hi != n - 1) {
      throw new IllegalArgumentException(what + ": key column '" + keyName + "' must hold every"
          + " record index 0.." + (n - 1) + " once (" + n + " rows), but its values range over "
          + lo + ".." + hi);
    }
    int longest = st.isNullAt(5) ? 0 : st.getInt(5);
    int size = recordSize > 0 ? recordSize : LengthPrefix.fieldSizeFor(longest);
    if (longest > LengthPrefix.capacity(size) && !truncate) {
      Row bad = kv.filter(octet_length(col("v")).gt(LengthPrefix.capacity(size)))
          .orderBy(col("k")).first();
      throw new ValueTooLargeException(what + ": value of key " + bad.getLong(0) + " in column '"
          + valueName + "' has " + ((byte[]) bad.get(1)).length + " bytes, more than the "
          + LengthPrefix.capacity(size) + " a " + size + "-byte record holds (length prefix of "
          + LengthPrefix.prefixBytes(size) + "); raise --record-size or pass --truncate true");
    }
    SortedRecords src = new SortedRecords(kv.orderBy(col("k")).toLocalIterator(), n, size,
        truncate, keyName, what);
    return write(outDir, p, maxRows, cpc, src, desc, Map.of(), out);
  }

  private static Manifest keyword(Dataset<Row> kv, Args o, Params p, int maxRows, int cpc,
      int valueSize, boolean truncate, Out outDir, String desc, String what, PrintStream out)
      throws IOException {
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    Iterator<Row> it = kv.toLocalIterator();
    while (it.hasNext()) {
      Row r = it.next();
      if (r.isNullAt(0) || r.isNullAt(1)) {
        throw new IllegalArgumentException(what + ": row " + keys.size() + " has a null "
            + (r.isNullAt(0) ? "key" : "value"));
      }
      keys.add((byte[]) r.get(0));
      values.add((byte[]) r.get(1));
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(what + " has no rows");
    }
    KeywordTable t = KeywordTable.build(new KeyValueList(keys, values),
        KeywordTable.Options.defaults(o.keywordSeed)
            .withValueField(valueSize, truncate));
    KeywordParams kp = t.params();
    out.printf("keyword table: %d entries in %d buckets of %d bytes, %d retrievals per lookup%n",
        kp.entries(), kp.buckets(), kp.bucketBytes(), kp.retrievalsPerLookup());
    return write(outDir, p, maxRows, cpc, t, desc, new LinkedHashMap<>(kp.toManifest()), out);
  }

  private static Manifest write(Out outDir, Params p, int maxRows, int cpc, RecordSource src,
      String desc, Map<String, String> extra, PrintStream out) throws IOException {
    Geometry g = Geometry.choose(p, src.recordCount(), src.recordSize(), maxRows);
    Manifest m;
    if (outDir.local() != null) {
      m = StoredDatabaseWriter.write(outDir.local(), p, g, src, cpc, desc, extra, null);
    } else {
      // written locally by the datasets writer, then copied and renamed into place
      Path tmp = Files.createTempDirectory("jpir-table-");
      try {
        m = StoredDatabaseWriter.write(tmp.resolve("db"), p, g, src, cpc, desc, extra, null);
        outDir.parent().putDirectory(tmp.resolve("db"), outDir.name());
      } finally {
        try (Stream<Path> w = Files.walk(tmp)) {
          w.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
      }
    }
    out.printf("setup table: %d records of %d bytes -> %s (preset %s, %d rows x %d cols x %d"
        + " planes, %d chunks)%n", g.recordCount(), g.recordSize(), outDir, p.id(), g.rows(),
        g.cols(), g.planes(), m.chunks().size());
    return m;
  }

  /**
   * Where the stored database goes: a new local directory (a path, or a {@code file:} URI), or
   * the new entry {@code name} of a directory on another Hadoop file system ({@code hdfs://...}).
   * Refused before any work when it exists.
   */
  private record Out(Path local, Storage parent, String name, String spec) {
    static Out of(String spec) {
      if (!Storage.hasScheme(spec) || spec.startsWith("file:")) {
        Path p = Storage.hasScheme(spec) ? Path.of(URI.create(spec)) : Path.of(spec);
        if (Files.exists(p)) {
          throw new IllegalArgumentException("setup table: --out " + spec + " already exists;"
              + " choose a new directory");
        }
        return new Out(p, null, null, spec);
      }
      org.apache.hadoop.fs.Path t = new org.apache.hadoop.fs.Path(spec);
      if (t.getParent() == null) {
        throw new IllegalArgumentException("setup table: --out " + spec + " has no parent");
      }
      Storage parent = Storage.at(t.getParent().toString());
      if (parent.exists(t.getName())) {
        throw new IllegalArgumentException("setup table: --out " + spec + " already exists;"
            + " choose a new directory");
      }
      return new Out(null, parent, t.getName(), spec);
    }

    @Override
    public String toString() {
      return spec;
    }
  }

  /** The column {@code name} of {@code schema}, or an error listing the columns there are. */
  private static StructField field(StructType schema, String name, String role, String path) {
    for (StructField f : schema.fields()) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    throw new IllegalArgumentException("table " + path + " has no " + role + " column '" + name
        + "' (its columns: " + String.join(", ", schema.fieldNames()) + ")");
  }

  /** A column name as Spark's {@code col()} reads it literally (dots and backticks included). */
  private static String quoted(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  /** The bytes of a column: binary as is, an atomic value as the UTF-8 of its string form. */
  private static Column bytes(Column c, DataType t, String role, String name, String what) {
    if (t instanceof BinaryType) {
      return c;
    }
    if (t instanceof StructType || t instanceof ArrayType
        || t instanceof MapType) {
      throw new IllegalArgumentException(what + ": " + role + " column '" + name + "' is "
          + t.simpleString() + ", which has no bytes; choose a string, number or binary column");
    }
    return c.cast("string").cast("binary");
  }

  /**
   * Records from rows sorted by key, read once in index order (as {@link StoredDatabaseWriter}
   * reads): record k is row k's value as a length-prefixed field; a row whose key is not k (a
   * repeated or missing index) is an error naming it.
   */
  static final class SortedRecords extends SizedRecordSource {
    private final Iterator<Row> rows;
    private final boolean truncate;
    private final String keyName;
    private final String what;
    private long next;

    SortedRecords(Iterator<Row> rows, long count, int size, boolean truncate, String keyName,
        String what) {
      super(count, size);
      this.rows = rows;
      this.truncate = truncate;
      this.keyName = keyName;
      this.what = what;
    }

    @Override
    public void read(long index, byte[] dst, int off) {
      if (index != next) {
        throw new IllegalStateException("table records are streamed in order: record " + index
            + " read, record " + next + " expected");
      }
      if (!rows.hasNext()) {
        throw new IllegalStateException(what + " ended before record " + index);
      }
      Row r = rows.next();
      long k = r.getLong(0);
      if (k != index) {
        throw new IllegalArgumentException(what + ": key column '" + keyName + "' "
            + (k < index ? "repeats index " + k : "lacks index " + index)
            + "; it must hold every record index 0.." + (recordCount() - 1) + " once");
      }
      byte[] v = (byte[]) r.get(1);
      LengthPrefix.write(v, 0, v.length, dst, off, recordSize(), truncate, what + " key " + k);
      next++;
    }
  }
}
