package org.jpir.spark;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** {@code --name value} options of a command; unknown or valueless options are errors. */
final class Options {
  private final String command;
  private final Map<String, String> values = new HashMap<>();

  Options(String command, String[] args, int from, Set<String> known) {
    this.command = command;
    for (int i = from; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || !known.contains(a.substring(2))) {
        throw new IllegalArgumentException(command + ": unknown option '" + a + "' (known: --"
            + String.join(" --", known) + ")");
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(command + ": option " + a + " needs a value");
      }
      values.put(a.substring(2), args[++i]);
    }
  }

  /** The command's name, for messages. */
  String command() {
    return command;
  }

  String get(String name, String dflt) {
    return values.getOrDefault(name, dflt);
  }

  String require(String name) {
    String v = values.get(name);
    if (v == null) {
      throw new IllegalArgumentException(command + ": option --" + name + " is required");
    }
    return v;
  }

  int getInt(String name, int dflt) {
    String v = values.get(name);
    try {
      return v == null ? dflt : Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(command + ": --" + name + " must be an integer, got '"
          + v + "'");
    }
  }

  long getLong(String name, long dflt) {
    String v = values.get(name);
    try {
      return v == null ? dflt : Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(command + ": --" + name + " must be an integer, got '"
          + v + "'");
    }
  }
}
