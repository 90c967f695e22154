package org.jpir.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.jpir.core.params.Presets;
import org.jpir.datasets.LengthPrefix;
import org.jpir.datasets.keyword.KeywordParams;
import org.jpir.datasets.store.StoredDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code setup table} on generated Parquet, CSV and JSON files: every record checked. */
class TableImportTest {
  static final String PRESET = Presets.TEST_INSECURE_256.id();
  static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2]").appName("jpir-table-test")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "3")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) {
      spark.stop();
      spark = null;
    }
  }

  static org.jpir.datasets.store.Manifest run(String... args) throws Exception {
    return TableImport.run(spark, TableImport.Args.parse(args),
        new PrintStream(new ByteArrayOutputStream()));
  }

  /** The field a value becomes in a record of {@code size} bytes. */
  static byte[] field(byte[] value, int size) {
    byte[] f = new byte[size];
    LengthPrefix.write(value, 0, value.length, f, 0, size, false, "expected");
    return f;
  }

  @Test
  void parquetRowsInAnyOrderBecomeRecordsByIndexWithBinaryValues(@TempDir Path dir)
      throws Exception {
    int n = 300;
    Random rnd = new Random(5);
    byte[][] values = new byte[n][];
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      values[i] = new byte[rnd.nextInt(90)];
      rnd.nextBytes(values[i]);
      rows.add(RowFactory.create((long) i, "name-" + i, values[i]));
    }
    Collections.shuffle(rows, rnd);
    StructType schema = new StructType().add("id", DataTypes.LongType)
        .add("name", DataTypes.StringType).add("payload", DataTypes.BinaryType);
    String table = dir.resolve("t.parquet").toString();
    spark.createDataFrame(rows, schema).repartition(3).write().parquet(table);

    run("--format", "parquet", "--path", table, "--key-column", "id", "--value-column",
        "payload", "--out", dir.resolve("db").toString(), "--preset", PRESET);
    try (StoredDatabase db = StoredDatabase.open(dir.resolve("db"))) {
      assertEquals(n, db.recordCount());
      assertEquals(LengthPrefix.fieldSizeFor(89), db.recordSize(), "sized to the longest value");
      db.verify();
      byte[] r = new byte[db.recordSize()];
      for (int i = 0; i < n; i++) {
        db.read(i, r, 0);
        assertArrayEquals(field(values[i], db.recordSize()), r, "record " + i);
      }
    }
    // a string column as the value: its UTF-8 bytes, in a record of the size asked
    run("--format", "parquet", "--path", table, "--key-column", "id", "--value-column", "name",
        "--out", dir.resolve("db2").toString(), "--preset", PRESET, "--record-size", "40");
    try (StoredDatabase db = StoredDatabase.open(dir.resolve("db2"))) {
      assertEquals(40, db.recordSize());
      byte[] r = new byte[40];
      for (int i = 0; i < n; i++) {
        db.read(i, r, 0);
        assertArrayEquals(field(("name-" + i).getBytes(StandardCharsets.UTF_8), 40), r);
      }
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(
        "--format", "parquet", "--path", table, "--key-column", "id", "--value-column", "nope",
        "--out", dir.resolve("db3").toString(), "--preset", PRESET));
    assertTrue(e.getMessage().contains("no value column 'nope'")
        && e.getMessage().contains("id, name, payload"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> run("--format", "parquet", "--path",
        table, "--key-column", "name", "--value-column", "payload", "--out",
        dir.resolve("db3").toString(), "--preset", PRESET));
    assertTrue(e.getMessage().contains("needs an integer column"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("db3")));
  }

  @Test
  void csvWithAHeaderAndQuotedFieldsAndItsErrors(@TempDir Path dir) throws Exception {
    int n = 120;
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add(i + ",\"value " + i + ", with a comma\",x" + i);
    }
    Collections.shuffle(lines, new Random(9));
    // one value longer than 30 bytes at index 77
    lines.replaceAll(l -> l.startsWith("77,") ? "77,\"" + "y".repeat(60) + "\",x77" : l);
    lines.add(0, "idx,text,other");
    Path csv = dir.resolve("t.csv");
    Files.write(csv, lines);

    run("--format", "csv", "--path", csv.toString(), "--key-column", "idx", "--value-column",
        "text", "--out", dir.resolve("db").toString(), "--preset", PRESET);
    try (StoredDatabase db = StoredDatabase.open(dir.resolve("db"))) {
      assertEquals(n, db.recordCount());
      byte[] r = new byte[db.recordSize()];
      for (int i = 0; i < n; i++) {
        db.read(i, r, 0);
        String want = i == 77 ? "y".repeat(60) : "value " + i + ", with a comma";
        assertArrayEquals(field(want.getBytes(StandardCharsets.UTF_8), db.recordSize()), r,
            "record " + i);
      }
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(
        "--format", "csv", "--path", csv.toString(), "--key-column", "idx", "--value-column",
        "text", "--out", dir.resolve("db2").toString(), "--preset", PRESET, "--record-size",
        "30"));
    assertTrue(e instanceof org.jpir.datasets.ValueTooLargeException, e.toString());
    assertTrue(e.getMessage().contains("value of key 77") && e.getMessage().contains("60 bytes")
        && e.getMessage().contains("--record-size"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("db2")));
    // with truncation chosen, the long value is cut to the record's capacity
    run("--format", "csv", "--path", csv.toString(), "--key-column", "idx", "--value-column",
        "text", "--out", dir.resolve("db2").toString(), "--preset", PRESET, "--record-size",
        "30", "--truncate", "true");
    try (StoredDatabase db = StoredDatabase.open(dir.resolve("db2"))) {
      byte[] r = new byte[30];
      db.read(77, r, 0);
      assertArrayEquals(field("y".repeat(29).getBytes(StandardCharsets.UTF_8), 30), r);
    }

    // a repeated index (and so a missing one) is named
    Path dup = dir.resolve("dup.csv");
    Files.write(dup, List.of("idx,text", "0,a", "1,b", "1,c", "3,d"));
    e = assertThrows(IllegalArgumentException.class, () -> run("--format", "csv", "--path",
        dup.toString(), "--key-column", "idx", "--value-column", "text", "--out",
        dir.resolve("db3").toString(), "--preset", PRESET));
    assertTrue(e.getMessage().contains("repeats index 1"), e.getMessage());
    assertFalse(Files.exists(dir.resolve("db3")));
    Path gap = dir.resolve("gap.csv");
    Files.write(gap, List.of("idx,text", "0,a", "1,b", "3,d"));
    e = assertThrows(IllegalArgumentException.class, () -> run("--format", "csv", "--path",
        gap.toString(), "--key-column", "idx", "--value-column", "text", "--out",
        dir.resolve("db3").toString(), "--preset", PRESET));
    assertTrue(e.getMessage().contains("every record index 0..2")
        && e.getMessage().contains("0..3"), e.getMessage());
    Path nulls = dir.resolve("nulls.csv");
    Files.write(nulls, List.of("idx,text", "0,a", "1,", "2,c"));
    e = assertThrows(IllegalArgumentException.class, () -> run("--format", "csv", "--path",
        nulls.toString(), "--key-column", "idx", "--value-column", "text", "--out",
        dir.resolve("db3").toString(), "--preset", PRESET));
    assertTrue(e.getMessage().contains("value column 'text' is null in 1 of 3 rows"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> run("--format", "csv", "--path",
        gap.toString(), "--key-column", "Idx", "--value-column", "text", "--out",
        dir.resolve("db3").toString(), "--preset", PRESET));
    assertTrue(e.getMessage().contains("no key column 'Idx'")
        && e.getMessage().contains("idx, text"), e.getMessage());
  }

  @Test
  void jsonLinesAsAKeywordTableAnswerEveryKeyAndNoOther(@TempDir Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    int n = 200;
    for (int i = 0; i < n; i++) {
      lines.add("{\"word\": \"w" + (i * 7919) + "\", \"meaning\": \"entry " + i
          + " \\u00e9\", \"n\": " + i + "}");
    }
    Path json = dir.resolve("t.json");
    Files.write(json, lines);
    org.jpir.datasets.store.Manifest m = run("--format", "json", "--path", json.toString(),
        "--key-column", "word", "--value-column", "meaning", "--mode", "keyword", "--out",
        dir.resolve("db").toString(), "--preset", PRESET);
    KeywordParams kp = KeywordParams.fromManifest(m.extra()).orElseThrow();
    assertEquals(n, kp.entries());
    try (StoredDatabase db = StoredDatabase.open(dir.resolve("db"))) {
      java.util.function.LongFunction<byte[]> bucket = b -> {
        byte[] r = new byte[db.recordSize()];
        db.read(b, r, 0);
        return r;
      };
      for (int i = 0; i < n; i++) {
        Optional<byte[]> v = kp.lookup(("w" + (i * 7919)).getBytes(StandardCharsets.UTF_8),
            bucket);
        assertTrue(v.isPresent(), "key " + i);
        assertArrayEquals(("entry " + i + " \u00e9").getBytes(StandardCharsets.UTF_8), v.get());
      }
      assertTrue(kp.lookup("w1".getBytes(StandardCharsets.UTF_8), bucket).isEmpty());
    }
    // a nested value has no bytes
    Path nested = dir.resolve("nested.json");
    Files.write(nested, List.of("{\"n\": 0, \"v\": {\"a\": 1}}"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(
        "--format", "json", "--path", nested.toString(), "--key-column", "n", "--value-column",
        "v", "--out", dir.resolve("db3").toString(), "--preset", PRESET));
    assertTrue(e.getMessage().contains("value column 'v' is struct<a:bigint>"), e.getMessage());
    // a numeric JSON field (inferred as a long) works as an index key
    run("--format", "json", "--path", json.toString(), "--key-column", "n", "--value-column",
        "word", "--out", dir.resolve("db2").toString(), "--preset", PRESET);
    try (StoredDatabase db = StoredDatabase.open(dir.resolve("db2"))) {
      byte[] r = new byte[db.recordSize()];
      for (int i = 0; i < n; i++) {
        db.read(i, r, 0);
        assertArrayEquals(field(("w" + (i * 7919)).getBytes(StandardCharsets.UTF_8),
            db.recordSize()), r);
      }
    }
  }
}
