package org.jpir.datasets.source;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jpir.datasets.KeyValueSource;

/**
 * The keyword demo's table from a word list (one word per line, e.g. Debian's wamerican as
 * fetched by {@code datasets/fetch-wordlist.sh}): key = the word (UTF-8), value = {@code
 * "line N; reversed: DROW; L letters"} (L counts code points). Lines are read from the file on
 * demand ({@link LineRecords}); empty lines are an error naming the line.
 */
public final class WordList implements KeyValueSource, Closeable {
  private final LineRecords lines;
  private final Path path;

  private WordList(Path path, LineRecords lines) {
    this.path = path;
    this.lines = lines;
  }

  /** Opens a word list. */
  public static WordList open(Path path) throws IOException {
    return new WordList(path, LineRecords.open(path, 0, false));
  }

  /** The value the demo stores for word number {@code i} (0-based line index). */
  public static String valueOf(String word, long i) {
    return "line " + (i + 1) + "; reversed: " + new StringBuilder(word).reverse() + "; "
        + word.codePointCount(0, word.length()) + " letters";
  }

  @Override
  public long size() {
    return lines.recordCount();
  }

  @Override
  public byte[] key(long i) {
    byte[] k = lines.line(i);
    if (k.length == 0) {
      throw new IllegalArgumentException(path + " line " + (i + 1) + " is empty");
    }
    return k;
  }

  @Override
  public byte[] value(long i) {
    return valueOf(new String(key(i), StandardCharsets.UTF_8), i)
        .getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String describe(long i) {
    return path + " line " + (i + 1);
  }

  @Override
  public void close() throws IOException {
    lines.close();
  }
}
