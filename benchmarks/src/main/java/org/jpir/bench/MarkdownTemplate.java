package org.jpir.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Markdown template read from a class-path resource: named fragments, each starting at a line
 * {@code %% name}, with {@code {{key}}} placeholders; lines starting with {@code %#} are comments
 * of the template. A placeholder alone on its line takes a block (several lines); when the block
 * is empty the line goes, and so does a blank line after it that would double a blank line
 * before it. Any other placeholder is replaced inline. Filling fails on a placeholder without a
 * value and on a value without a placeholder.
 */
final class MarkdownTemplate {
  private static final Pattern KEY = Pattern.compile("\\{\\{([A-Za-z0-9]+)}}");
  private final String resource;
  private final Map<String, List<String>> fragments = new LinkedHashMap<>();

  private MarkdownTemplate(String resource, String text) {
    this.resource = resource;
    List<String> current = null;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("%#")) {
        continue;
      }
      if (line.startsWith("%% ")) {
        current = new ArrayList<>();
        if (fragments.put(line.substring(3).trim(), current) != null) {
          throw new IllegalArgumentException(resource + ": fragment " + line + " twice");
        }
      } else if (current != null) {
        current.add(line);
      } else if (!line.isBlank()) {
        throw new IllegalArgumentException(resource + ": text before the first fragment: "
            + line);
      }
    }
    for (List<String> f : fragments.values()) {
      while (!f.isEmpty() && f.get(f.size() - 1).isEmpty()) {
        f.remove(f.size() - 1); // a fragment ends at its last non-empty line
      }
    }
  }

  /** The template in the class-path resource {@code name} next to this class. */
  static MarkdownTemplate load(String name) {
    try (InputStream in = MarkdownTemplate.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("template resource " + name + " not found");
      }
      return new MarkdownTemplate(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Fragment {@code name} with its placeholders replaced by {@code values} (keys and values
   * alternating; a value's {@code toString()}); no trailing newline.
   */
  String fill(String name, Object... values) {
    List<String> lines = fragments.get(name);
    if (lines == null) {
      throw new IllegalArgumentException(resource + " has no fragment " + name);
    }
    if (values.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must alternate");
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 2) {
      map.put((String) values[i], String.valueOf(values[i + 1]));
    }
    Set<String> used = new HashSet<>();
    List<String> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher alone = KEY.matcher(line);
      if (alone.matches()) {
        String block = value(map, alone.group(1), name, used).stripTrailing();
        if (!block.isEmpty()) {
          out.add(block);
        } else if (i + 1 < lines.size() && lines.get(i + 1).isEmpty()
            && (out.isEmpty() || out.get(out.size() - 1).isEmpty())) {
          i++; // keep a single blank line where the block would have stood
        }
        continue;
      }
      Matcher m = KEY.matcher(line);
      StringBuilder sb = new StringBuilder();
      while (m.find()) {
        m.appendReplacement(sb, Matcher.quoteReplacement(value(map, m.group(1), name, used)));
      }
      m.appendTail(sb);
      out.add(sb.toString());
    }
    if (!used.containsAll(map.keySet())) {
      Set<String> unused = new HashSet<>(map.keySet());
      unused.removeAll(used);
      throw new IllegalArgumentException(resource + " fragment " + name
          + " has no placeholder for " + unused);
    }
    return String.join("\n", out);
  }

  private String value(Map<String, String> map, String key, String fragment, Set<String> used) {
    String v = map.get(key);
    if (v == null) {
      throw new IllegalArgumentException(resource + " fragment " + fragment
          + ": no value for {{" + key + "}}");
    }
    used.add(key);
    return v;
  }
}
