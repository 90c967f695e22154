package org.jpir.datasets;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** (key, value) entries held in memory: small tables, tests and demos. */
public record KeyValueList(List<byte[]> keys, List<byte[]> values) implements KeyValueSource {
  public KeyValueList {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(keys.size() + " keys but " + values.size() + " values");
    }
  }

  @Override
  public long size() {
    return keys.size();
  }

  @Override
  public byte[] key(long i) {
    return keys.get((int) i);
  }

  @Override
  public byte[] value(long i) {
    return values.get((int) i);
  }

  @Override
  public String describe(long i) {
    return "entry " + i + " (key '" + new String(key(i), StandardCharsets.UTF_8)
        + "')";
  }
}
