package org.jpir.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client's class path holds no Spark, Scala or Hadoop: neither the class path these tests run
 * on (the module's runtime and test dependencies) nor {@code target/classpath.txt}, the runtime
 * class path that {@code ./pir client} runs on, which the build writes before the tests.
 */
class ClientClassPathTest {
  /** Path fragments of the jars a client must not carry. */
  static final List<String> FORBIDDEN = List.of("/org/apache/spark/", "/org/scala-lang/",
      "/org/apache/hadoop/", "spark-", "scala-library", "hadoop-");

  @ParameterizedTest
  @ValueSource(strings = {"org.apache.spark.SparkContext", "org.apache.spark.SparkConf",
      "scala.Predef", "org.apache.hadoop.fs.FileSystem"})
  void noSparkScalaOrHadoopClassLoads(String name) {
    assertThrows(ClassNotFoundException.class, () -> Class.forName(name, false,
        ClientClassPathTest.class.getClassLoader()), name + " is on pir-client's class path");
  }

  @Test
  void theLaunchersClassPathFileNamesNoSparkScalaOrHadoopJar() throws Exception {
    Path file = Path.of("target/classpath.txt");
    assertTrue(Files.isRegularFile(file), "the build writes " + file.toAbsolutePath());
    String text = Files.readString(file).trim();
    List<String> entries = Arrays.asList(text.split(File.pathSeparator));
    assertTrue(entries.stream().anyMatch(e -> e.contains("picocli")),
        "the file lists the runtime dependencies: " + text);
    for (String e : entries) {
      String lower = e.replace('\\', '/').toLowerCase(Locale.ROOT);
      for (String f : FORBIDDEN) {
        assertFalse(lower.contains(f), "pir-client's runtime class path holds " + e);
      }
    }
  }
}
