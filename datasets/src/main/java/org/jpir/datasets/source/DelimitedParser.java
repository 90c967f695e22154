package org.jpir.datasets.source;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a byte stream into rows of fields. CSV follows RFC 4180: fields separated by commas,
 * rows by CRLF or LF; a field that starts with a double quote is quoted, may contain commas,
 * quotes written as two quotes ({@code ""}) and line breaks, and must be followed by a separator
 * or the end of the row. A quote inside an unquoted field is kept literally (lenient). TSV: fields
 * separated by tabs, rows by LF or CRLF, no quoting (IANA text/tab-separated-values). Tracks the
 * byte offset and line number of the row it returns.
 */
final class DelimitedParser {
  private final InputStream in;
  private final char sep;
  private final boolean quoting;
  private final String name;
  private long pos;
  private long line = 1;
  private int peeked = -2;
  private long rowStart;
  private long rowLine;

  DelimitedParser(InputStream in, boolean csv, String name) {
    this.in = in;
    this.sep = csv ? ',' : '\t';
    this.quoting = csv;
    this.name = name;
  }

  /** Byte offset where the last returned row starts. */
  long rowStart() {
    return rowStart;
  }

  /** Line number (1-based) where the last returned row starts. */
  long rowLine() {
    return rowLine;
  }

  /** Byte offset just after the last returned row. */
  long position() {
    return pos;
  }

  private int read() throws IOException {
    int c;
    if (peeked != -2) {
      c = peeked;
      peeked = -2;
    } else {
      c = in.read();
    }
    if (c >= 0) {
      pos++;
      if (c == '\n') {
        line++;
      }
    }
    return c;
  }

  private int peek() throws IOException {
    if (peeked == -2) {
      peeked = in.read();
    }
    return peeked;
  }

  /** The next row's fields, or null at the end of the input. */
  List<byte[]> next() throws IOException {
    if (peek() < 0) {
      return null;
    }
    rowStart = pos;
    rowLine = line;
    List<byte[]> fields = new ArrayList<>();
    ByteArrayOutputStream f = new ByteArrayOutputStream();
    boolean quoted = false;
    boolean afterQuote = false;
    boolean fieldStart = true;
    while (true) {
      int c = read();
      if (quoted) {
        if (c < 0) {
          throw new IllegalArgumentException(name + ": quoted field starting on line " + rowLine
              + " is not closed before the end of the file");
        }
        if (c == '"') {
          if (peek() == '"') {
            read();
            f.write('"');
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else {
          f.write(c);
        }
        continue;
      }
      if (c < 0 || c == '\n') {
        byte[] last = f.toByteArray();
        if (last.length > 0 && last[last.length - 1] == '\r' && !afterQuote) {
          last = Arrays.copyOf(last, last.length - 1);
        }
        fields.add(last);
        return fields;
      }
      if (c == sep) {
        fields.add(f.toByteArray());
        f.reset();
        afterQuote = false;
        fieldStart = true;
        continue;
      }
      if (afterQuote) {
        if (c == '\r' && (peek() == '\n' || peek() < 0)) {
          continue;
        }
        throw new IllegalArgumentException(name + ": line " + line + ": character '" + (char) c
            + "' after the closing quote of a field (RFC 4180 allows only a separator or the end "
            + "of the row)");
      }
      if (quoting && fieldStart && c == '"') {
        quoted = true;
        fieldStart = false;
        continue;
      }
      fieldStart = false;
      f.write(c);
    }
  }
}
