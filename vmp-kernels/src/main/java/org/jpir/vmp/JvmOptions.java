package org.jpir.vmp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The JVM options every JVM of this project needs (the Vector API module, Spark's
 * {@code --add-opens}), as defined once in the parent pom ({@code jpir.jvm.options}) and filtered
 * into the resource {@code jpir-jvm.options}. JMH forks and Spark executors get them from here.
 */
public final class JvmOptions {
  private JvmOptions() {}

  /** The options, one element per option, in order. */
  public static List<String> list() {
    try (InputStream in = JvmOptions.class.getResourceAsStream("/jpir-jvm.options")) {
      if (in == null) {
        throw new IllegalStateException("resource /jpir-jvm.options missing from the class path");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      if (text.isEmpty() || text.contains("${")) {
        throw new IllegalStateException("resource /jpir-jvm.options was not filtered: " + text);
      }
      return List.copyOf(Arrays.asList(text.split("\\s+")));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /jpir-jvm.options", e);
    }
  }

  /** The options joined by single spaces (for {@code spark.executor.extraJavaOptions}). */
  public static String joined() {
    return String.join(" ", list());
  }
}
