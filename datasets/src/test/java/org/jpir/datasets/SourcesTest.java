package org.jpir.datasets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.jpir.core.lwe.PlaintextCodec;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.ColumnEncoder;
import org.jpir.core.server.RecordSource;
import org.jpir.datasets.source.DelimitedRecords;
import org.jpir.datasets.source.FixedSizeRecords;
import org.jpir.datasets.source.LineRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourcesTest {
  @TempDir
  Path tmp;

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Encodes every polynomial of {@code src} with PlaintextCodec, decodes the digits back and
   * checks each record comes out unchanged at its geometry position.
   */
  static void assertCodecRoundTrip(RecordSource src) {
    Params p = Presets.TEST_INSECURE_256;
    Geometry g = Geometry.choose(p, src.recordCount(), src.recordSize(), 8);
    ColumnEncoder enc = new ColumnEncoder(p, g, src);
    PlaintextCodec codec = new PlaintextCodec(p);
    byte[] poly = new byte[codec.polynomialBytes()];
    byte[] back = new byte[codec.polynomialBytes()];
    long[] digits = new long[p.plaintextLimbs() * p.n()];
    byte[] rec = new byte[src.recordSize()];
    byte[] slot = new byte[Math.toIntExact(g.slotBytes())];
    for (long i = 0; i < src.recordCount(); i++) {
      long polyIdx = g.polynomialOf(i);
      for (int plane = 0; plane < g.planes(); plane++) {
        enc.polynomialBytes(plane, polyIdx, poly);
        codec.encode(poly, 0, poly.length, digits, 0);
        codec.decode(digits, back, 0);
        System.arraycopy(back, 0, slot, plane * g.polyBytes(), back.length);
      }
      src.read(i, rec, 0);
      int start = g.offsetInSlot(i);
      assertArrayEquals(rec, Arrays.copyOfRange(slot, start, start + rec.length), "record " + i);
    }
  }

  static byte[] value(RecordSource src, long i) {
    byte[] rec = new byte[src.recordSize()];
    src.read(i, rec, 0);
    return LengthPrefix.read(rec, 0, src.recordSize());
  }

  @Test
  void lineRecordsKeepEveryLineWithCrLfAndAMissingFinalNewline() throws IOException {
    Path f = tmp.resolve("lines.txt");
    Files.write(f, utf8("alpha\r\n\nbeta gamma\nδέλτα\nlast-without-newline"));
    try (LineRecords r = LineRecords.open(f, 0, false)) {
      assertEquals(5, r.recordCount());
      List<String> expect = List.of("alpha", "", "beta gamma", "δέλτα", "last-without-newline");
      for (int i = 0; i < expect.size(); i++) {
        assertEquals(expect.get(i), new String(value(r, i), StandardCharsets.UTF_8));
      }
      assertEquals(21, r.recordSize(), "smallest record for a 20-byte line: 1-byte prefix + 20");
      assertCodecRoundTrip(r);
    }
  }

  @Test
  void lineLongerThanTheRecordIsAnErrorNamingItsLineUnlessTruncationIsChosen() throws IOException {
    Path f = tmp.resolve("long.txt");
    Files.write(f, utf8("short\nthis line is far too long\nok\n"));
    ValueTooLargeException e = assertThrows(ValueTooLargeException.class,
        () -> LineRecords.open(f, 10, false));
    assertTrue(e.getMessage().contains("line 2") && e.getMessage().contains("25 bytes"),
        e.getMessage());
    try (LineRecords r = LineRecords.open(f, 10, true)) {
      assertEquals("this line", new String(value(r, 1), StandardCharsets.UTF_8));
    }
  }

  @Test
  void csvFollowsRfc4180Quoting() throws IOException {
    Path f = tmp.resolve("t.csv");
    Files.write(f, utf8("id,name,note\r\n"
        + "k1,plain,x\r\n"
        + "\"k,2\",\"has, comma\",y\r\n"
        + "k3,\"say \"\"hi\"\"\",z\r\n"
        + "k4,\"two\nlines\",w\r\n"
        + "k5,,empty\n"
        + "k6,last,row"));
    try (DelimitedRecords r = DelimitedRecords.open(f, true, true, 0, 1, 0, false)) {
      assertEquals(6, r.recordCount());
      String[] keys = {"k1", "k,2", "k3", "k4", "k5", "k6"};
      String[] vals = {"plain", "has, comma", "say \"hi\"", "two\nlines", "", "last"};
      for (int i = 0; i < keys.length; i++) {
        assertEquals(keys[i], new String(r.key(i), StandardCharsets.UTF_8));
        assertEquals(vals[i], new String(r.value(i), StandardCharsets.UTF_8));
        assertEquals(vals[i], new String(value(r, i), StandardCharsets.UTF_8));
      }
      assertTrue(r.describe(3).contains("line 5"), r.describe(3));
      assertTrue(r.describe(4).contains("line 7"), r.describe(4)); // k4's value spans 2 lines
      assertCodecRoundTrip(r);
    }
  }

  @Test
  void malformedCsvIsRejectedWithItsLine() throws IOException {
    Path f = tmp.resolve("bad.csv");
    Files.write(f, utf8("a,b\n\"x\"y,z\n"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DelimitedRecords.open(f, true, false, 0, 1, 0, false));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    Path g = tmp.resolve("short.csv");
    Files.write(g, utf8("a,b\nonlykey\n"));
    e = assertThrows(IllegalArgumentException.class,
        () -> DelimitedRecords.open(g, true, false, 0, 1, 0, false));
    assertTrue(e.getMessage().contains("line 2") && e.getMessage().contains("1 fields"),
        e.getMessage());
  }

  @Test
  void tsvSelectsKeyAndValueColumns() throws IOException {
    Path f = tmp.resolve("t.tsv");
    Files.write(f, utf8("x\tkeyA\tvalue \"A\"\r\ny\tkeyB\tvalue,B\n"));
    try (DelimitedRecords r = DelimitedRecords.open(f, false, false, 1, 2, 32, false)) {
      assertEquals(2, r.recordCount());
      assertEquals("keyB", new String(r.key(1), StandardCharsets.UTF_8));
      assertEquals("value \"A\"", new String(value(r, 0), StandardCharsets.UTF_8));
      assertEquals("value,B", new String(value(r, 1), StandardCharsets.UTF_8));
      assertCodecRoundTrip(r);
    }
  }

  @Test
  void oversizedCsvValueNamesLineAndKey() throws IOException {
    Path f = tmp.resolve("big.csv");
    Files.write(f, utf8("k1,small\nbigkey," + "v".repeat(300) + "\n"));
    ValueTooLargeException e = assertThrows(ValueTooLargeException.class,
        () -> DelimitedRecords.open(f, true, false, 0, 1, 100, false));
    assertTrue(e.getMessage().contains("line 2") && e.getMessage().contains("'bigkey'")
        && e.getMessage().contains("300 bytes"), e.getMessage());
  }

  @Test
  void fixedSizeRecordsRoundTripIncludingMultiplePlanes() throws IOException {
    Path f = tmp.resolve("b.bin");
    int size = 4000; // > 1792 bytes per polynomial at N=256: 3 planes
    byte[] all = new byte[7 * size];
    new java.util.Random(7).nextBytes(all);
    Files.write(f, all);
    try (FixedSizeRecords r = FixedSizeRecords.open(f, size)) {
      assertEquals(7, r.recordCount());
      byte[] rec = new byte[size];
      r.read(6, rec, 0);
      assertArrayEquals(Arrays.copyOfRange(all, 6 * size, 7 * size), rec);
      assertCodecRoundTrip(r);
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FixedSizeRecords.open(f, 3000));
    assertTrue(e.getMessage().contains("not a positive multiple"), e.getMessage());
  }
}
