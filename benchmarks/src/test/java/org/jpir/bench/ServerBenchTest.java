package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bench-server} end to end on a small database: records checked, medians of the passes. */
class ServerBenchTest {
  @Test
  void smallRunChecksEveryRecordAndReportsMediansOfTheTimedPasses(@TempDir Path out)
      throws IOException {
    int rc = new CommandLine(new ServerBench()).execute("--mib", "2", "--stream-mib", "64",
        "--queries", "3", "--warmup", "1", "--batch", "2", "--batch-rounds", "2", "--no-readme",
        "--out", out.toString());
    assertEquals(0, rc);
    List<Path> json;
    try (Stream<Path> s = Files.list(out)) {
      json = s.filter(p -> p.getFileName().toString().matches("server-.*\\.json")).toList();
    }
    assertEquals(1, json.size(), json.toString());
    JsonObject r = JsonParser.parseString(Files.readString(json.get(0))).getAsJsonObject();
    assertTrue(r.get("allRecordsExact").getAsBoolean());
    assertEquals(1, r.get("warmup").getAsInt());
    JsonObject single = r.getAsJsonObject("single");
    assertEquals(3, single.get("passes").getAsInt());
    assertEquals(3, single.getAsJsonArray("phase1SecondsEach").size());
    double[] each = new double[3];
    for (int i = 0; i < 3; i++) {
      each[i] = single.getAsJsonArray("phase1SecondsEach").get(i).getAsDouble();
      assertTrue(each[i] > 0, "phase 1 of pass " + i);
    }
    assertEquals(Stats.median(each), single.get("phase1Seconds").getAsDouble(), 1e-12);
    JsonObject batched = r.getAsJsonObject("batched");
    assertEquals(2, batched.get("passes").getAsInt());
    assertEquals(4, batched.get("queries").getAsInt());
    String md = Files.readString(Path.of(json.get(0).toString().replace(".json", ".md")));
    assertTrue(md.contains("median over the timed passes (3 single queries, 2 batch passes)"
        + " after 1 untimed warm-up"), md);
    assertTrue(Files.exists(out.resolve("SERVER-INDEX.md")));
  }

  @Test
  void refusesNoTimedBatchRounds() {
    StringWriter err = new StringWriter();
    int rc = new CommandLine(new ServerBench()).setErr(new PrintWriter(err))
        .execute("--batch-rounds", "0", "--no-readme");
    assertEquals(2, rc);
    assertTrue(err.toString().contains("--batch-rounds >= 1"), err.toString());
  }
}
