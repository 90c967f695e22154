package org.jpir.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code ./pir serve --port}'s command line, refused before Spark starts: unknown options are
 * bad usage (exit 2, the option named), {@code --queries} needs {@code --out}, database names
 * are unique, and {@code --db} values get the names the docs say.
 */
class ServeMainUsageTest {
  private static Object[] run(String... args) {
    CommandLine cl = new CommandLine(new ServeMain());
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    Exception[] failed = {null};
    cl.setExecutionExceptionHandler((e, line, parsed) -> {
      failed[0] = e;
      return 2;
    });
    int rc = cl.execute(args);
    return new Object[] {rc, err.toString(), failed[0]};
  }

  @Test
  void badUsageIsRefusedBeforeSparkStarts() {
    Object[] r = run("--port", "0", "--db", "synthetic:10x8", "--bacth", "4");
    assertEquals(2, r[0]);
    assertTrue(((String) r[1]).contains("--bacth"), (String) r[1]);
    r = run("--db", "synthetic:10x8");
    assertEquals(2, r[0]);
    assertTrue(((String) r[1]).contains("--port"), (String) r[1]);
    r = run("--port", "0", "--db", "synthetic:10x8", "--queries", "q");
    assertTrue(((Exception) r[2]).getMessage().contains("--queries and --out go together"));
    r = run("--port", "0", "--db", "synthetic:10x8", "--db", "synthetic:20x8");
    assertTrue(((Exception) r[2]).getMessage().contains("two databases named 'synthetic'"));
    r = run("--port", "0", "--db", "a=synthetic:10x8", "--queries", "q", "--out", "a",
        "--queries-db", "b");
    assertTrue(((Exception) r[2]).getMessage().contains("--queries-db b"));
    r = run("--port", "0", "--db", "synthetic:10x8", "--bind", "0.0.0.0");
    assertTrue(((Exception) r[2]).getMessage().contains("without --tokens"));
    r = run("--port", "0", "--db", "synthetic:10x8", "--tls-cert", "c.pem");
    assertTrue(((Exception) r[2]).getMessage().contains("--tls-cert and --tls-key go together"));
    r = run("--port", "0", "--db", "synthetic:10x8", "--key-ttl", "1w");
    assertTrue(((Exception) r[2]).getMessage().contains("duration '1w'"));
  }

  @Test
  void databaseNamesComeFromThePrefixOrTheDirectory() {
    List<ServeMain.Named> n = ServeMain.named(List.of("kw=/data/kw", "/data/lines",
        "hdfs://nn:8020/dbs/big", "synthetic:10x8", "file:/x/y/z"));
    assertEquals(List.of("kw", "lines", "big", "synthetic", "z"),
        n.stream().map(ServeMain.Named::name).toList());
    assertEquals("/data/kw", n.get(0).spec());
    assertEquals("hdfs://nn:8020/dbs/big", n.get(2).spec());
    assertThrows(IllegalArgumentException.class, () -> ServeMain.named(List.of("a=x", "a=y")));
  }
}
