package org.jpir.core.wire;

import java.util.Optional;

/**
 * The name of a query file exactly as a client writes it: a {@link QueryIdMap} id (32 lower-case
 * hex digits) and {@value #CLASSIC_SUFFIX} (classic) or {@value #COMPACT_SUFFIX} (compact). A
 * server reads only entries whose names {@link #parse} accepts, so every name it derives from one
 * (answer, error and version files, log lines) is made of hex digits, a dot and a fixed suffix.
 *
 * @param id the query's id (validated: {@link QueryIdMap#isId})
 * @param compact whether the file holds a compact query ({@value #COMPACT_SUFFIX})
 */
public record QueryFileName(String id, boolean compact) {
  /** Suffix of a classic query file. */
  public static final String CLASSIC_SUFFIX = ".query";
  /** Suffix of a compact query file. */
  public static final String COMPACT_SUFFIX = ".cquery";
  /** The rule in words, for messages. */
  public static final String RULE = "<32 lower-case hex digits>" + CLASSIC_SUFFIX + " or "
      + COMPACT_SUFFIX;

  /**
   * A query file name of {@code id}.
   *
   * @throws IllegalArgumentException when {@code id} is not of the form {@link QueryIdMap} draws
   */
  public QueryFileName {
    if (!QueryIdMap.isId(id)) {
      throw new IllegalArgumentException("a query id is " + QueryIdMap.ID_HEX
          + " lower-case hex digits");
    }
  }

  /** The query file name {@code name}, or empty when it is not of the client's form. */
  public static Optional<QueryFileName> parse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    int dot = name.indexOf('.');
    if (dot != QueryIdMap.ID_HEX || !QueryIdMap.isId(name.substring(0, dot))) {
      return Optional.empty();
    }
    String suffix = name.substring(dot);
    if (suffix.equals(CLASSIC_SUFFIX)) {
      return Optional.of(new QueryFileName(name.substring(0, dot), false));
    }
    if (suffix.equals(COMPACT_SUFFIX)) {
      return Optional.of(new QueryFileName(name.substring(0, dot), true));
    }
    return Optional.empty();
  }

  /** The file's name: the id and its suffix. */
  public String fileName() {
    return id + (compact ? COMPACT_SUFFIX : CLASSIC_SUFFIX);
  }

  /** The name of its answer file, {@code <id>.answer}. */
  public String answerName() {
    return id + ".answer";
  }

  /** The name of its error file, {@code <id>.error}. */
  public String errorName() {
    return id + ".error";
  }

  /** The name of the file naming the data version of its answer, {@code <id>.version}. */
  public String versionName() {
    return id + ".version";
  }

  /** The file's name ({@link #fileName}). */
  @Override
  public String toString() {
    return fileName();
  }
}
