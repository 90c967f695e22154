package org.jpir.datasets.store;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

/**
 * An update file: UTF-8 text, one operation per line, applied in order (a later line on the same
 * index wins); blank lines and lines starting with {@code #} are ignored.
 *
 * <pre>
 * put INDEX hex:HEXDIGITS        record INDEX becomes these bytes (zero-padded to the record size)
 * put INDEX base64:BASE64        the same, base64 (RFC 4648) encoded
 * delete INDEX                   record INDEX becomes all zero bytes
 * </pre>
 *
 * A {@code put} at or past the record count appends (records between the old end and INDEX are
 * zero), as long as the database's grid has room. A malformed line is refused naming its number;
 * nothing is applied then.
 */
public final class UpdateFile {
  /** Longest line accepted, in characters (a line is refused unread beyond this). */
  public static final int MAX_LINE = 4 << 20;
  private static final Pattern FIELDS = Pattern.compile("[ \t]+");
  private static final Pattern DIGITS = Pattern.compile("[0-9]{1,18}");

  /** One operation: {@code value == null} deletes; {@code line} is its 1-based line number. */
  public record Op(int line, long index, byte[] value) {
    /** True for a delete. */
    public boolean isDelete() {
      return value == null;
    }
  }

  private final List<Op> ops;

  private UpdateFile(List<Op> ops) {
    this.ops = List.copyOf(ops);
  }

  /** The operations in file order. */
  public List<Op> ops() {
    return ops;
  }

  /** An update file of these operations (tests, programs). */
  public static UpdateFile of(List<Op> ops) {
    return new UpdateFile(ops);
  }

  /**
   * Parses an update file; {@code where} names it in messages and {@code maxValueBytes} bounds a
   * value's decoded length (the record size).
   *
   * @throws StoredDatabaseException naming the line and what is wrong with it
   */
  public static UpdateFile parse(Reader in, String where, int maxValueBytes) throws IOException {
    List<Op> ops = new ArrayList<>();
    Lines lines = new Lines(in, where);
    String raw;
    for (int no = 1; (raw = lines.next(no)) != null; no++) {
      String l = raw.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      String[] f = FIELDS.split(l);
      String at = where + " line " + no + ": ";
      switch (f[0]) {
        case "put" -> {
          if (f.length != 3) {
            throw new StoredDatabaseException(at + "expected 'put INDEX hex:VALUE' or 'put INDEX"
                + " base64:VALUE', found " + f.length + " fields");
          }
          ops.add(new Op(no, index(f[1], at), value(f[2], at, maxValueBytes)));
        }
        case "delete" -> {
          if (f.length != 2) {
            throw new StoredDatabaseException(at + "expected 'delete INDEX', found " + f.length
                + " fields");
          }
          ops.add(new Op(no, index(f[1], at), null));
        }
        default -> throw new StoredDatabaseException(at + "unknown operation '"
            + Manifest.printable(f[0]) + "' (known: put, delete)");
      }
    }
    return new UpdateFile(ops);
  }

  /** Lines of a reader, each refused beyond {@link #MAX_LINE} characters before it is kept. */
  private static final class Lines {
    private final Reader in;
    private final String where;
    private final char[] buf = new char[1 << 16];
    private int pos;
    private int end;

    Lines(Reader in, String where) {
      this.in = in;
      this.where = where;
    }

    /** The next line without its '\n', or null at the end. */
    String next(int no) throws IOException {
      StringBuilder line = null;
      while (true) {
        if (pos == end) {
          end = in.read(buf, 0, buf.length);
          pos = 0;
          if (end <= 0) {
            end = 0;
            return line == null ? null : line.toString();
          }
        }
        int i = pos;
        while (i < end && buf[i] != '\n') {
          i++;
        }
        int len = (line == null ? 0 : line.length()) + (i - pos);
        if (len > MAX_LINE) {
          throw new StoredDatabaseException(where + " line " + no + ": longer than " + MAX_LINE
              + " characters");
        }
        if (line == null) {
          line = new StringBuilder(Math.max(16, i - pos));
        }
        line.append(buf, pos, i - pos);
        if (i < end) {
          pos = i + 1;
          return line.toString();
        }
        pos = end;
      }
    }
  }

  private static long index(String s, String at) {
    if (!DIGITS.matcher(s).matches()) {
      throw new StoredDatabaseException(at + "index '" + Manifest.printable(s)
          + "' is not a non-negative decimal number");
    }
    return Long.parseLong(s);
  }

  private static byte[] value(String s, String at, int max) {
    byte[] v;
    if (s.startsWith("hex:")) {
      String h = s.substring(4);
      if (h.length() > 2L * max) {
        throw new StoredDatabaseException(at + "value has " + h.length() / 2 + " bytes, more than"
            + " the record size " + max);
      }
      try {
        v = HexFormat.of().parseHex(h);
      } catch (IllegalArgumentException e) {
        throw new StoredDatabaseException(at + "value is not hex (an even number of 0-9a-f): "
            + e.getMessage());
      }
    } else if (s.startsWith("base64:")) {
      String b = s.substring(7);
      if (b.length() > 4L * ((max + 2) / 3)) {
        throw new StoredDatabaseException(at + "value is longer than the record size " + max
            + " allows");
      }
      try {
        v = Base64.getDecoder().decode(b);
      } catch (IllegalArgumentException e) {
        throw new StoredDatabaseException(at + "value is not base64: " + e.getMessage());
      }
    } else {
      throw new StoredDatabaseException(at + "value must start with hex: or base64:");
    }
    if (v.length > max) {
      throw new StoredDatabaseException(at + "value has " + v.length + " bytes, more than the"
          + " record size " + max);
    }
    return v;
  }
}
