package org.jpir.datasets.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jpir.datasets.KeyValueList;
import org.jpir.datasets.keyword.KeywordTable;

/**
 * Measures how often cuckoo placement needs the stash: builds {@code trials} tables of {@code n}
 * keys at {@code load} (3 choices, 1 slot) with seeds 1..trials and prints the stash sizes.
 * Usage: CuckooStats [n] [trials] [load].
 */
public final class CuckooStats {
  private CuckooStats() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int trials = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    double load = args.length > 2 ? Double.parseDouble(args[2]) : 0.85;
    List<byte[]> k = new ArrayList<>(n);
    List<byte[]> v = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      k.add(("key-" + i).getBytes(StandardCharsets.UTF_8));
      v.add(new byte[0]);
    }
    KeyValueList kv = new KeyValueList(k, v);
    int max = 0;
    int nonEmpty = 0;
    for (int s = 1; s <= trials; s++) {
      KeywordTable t = KeywordTable.build(kv, new KeywordTable.Options(3, 1, load, 0, false,
          s * 1000L, 8));
      int st = t.stashSize();
      max = Math.max(max, st);
      nonEmpty += st > 0 ? 1 : 0;
      if (t.params().seed() != s * 1000L) {
        System.out.println("seed " + s * 1000L + " overflowed the stash; rebuilt with seed "
            + t.params().seed());
      }
    }
    System.out.printf("%d tables of %d keys at load %.3f: %d with a non-empty stash, max stash %d"
        + "%n", trials, n, load, nonEmpty, max);
  }
}
